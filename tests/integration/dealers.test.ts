import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import arabic from '../../demo/messages/ar.json'
import german from '../../demo/messages/de.json'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import { api } from '../../reference-api'
import { byDistance, distanceKm, type Point } from '../../contract/distance'
import { LOCATOR_DEALERS } from '../../src/pages/dealer-locator'
import { pageUrlOf } from '../fixtures/page-slugs'
import { clearCaches, ORIGIN, textOf, visit } from '../fixtures/worker'

/** Italy's demo dealers. */
const ITALIAN_DEALERS = 12

/** The dealers' slugs in the order the locator lists them. */
const listed = (html: string, segment: string) =>
  [...html.matchAll(new RegExp(`<h2><a href="/${segment}/dealers/([a-z0-9-]+)">`, 'g'))].map((m) => m[1])

/** A visit from a browser the edge located (Cloudflare's `request.cf`). */
async function visitFrom(path: string, latitude: string, longitude: string, country = 'IT') {
  const request = new Request(`${ORIGIN}${path}`, { cf: { latitude, longitude, country } } as RequestInit)
  return visit(path, request)
}

async function dealersApi(query: string, country = 'it') {
  const request = new Request(`http://embedded.invalid/api/front/dealers?${query}`, {
    headers: { 'X-Tenant': country, 'X-Locale': 'it' },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return {
    status: response.status,
    body: (await response.json()) as {
      data: Array<{ slug: string; distance_km: number | null }>
      meta: { total: number }
    },
  }
}

describe('the dealer locator', () => {
  it("is the market's dealer-locator page by its own slug, with its content and the market's dealers", async () => {
    const { status, text } = await visit('/it-it/rivenditori')
    expect(status).toBe(200)
    expect(listed(text, 'it-it')).toHaveLength(ITALIAN_DEALERS)
    const germany = await visit('/de-de/haendler')
    expect(listed(germany.text, 'de-de')).toHaveLength(4)
    expect(textOf(germany.text)).toContain(german.dealer.near_label)
    // The other markets' slugs are not pages here.
    expect((await visit('/it-it/haendler')).status).toBe(404)
    expect((await visit('/it-it/revendeurs')).status).toBe(404)
  })

  it('sorts by distance from a typed town or postcode, diacritics and case aside', async () => {
    for (const near of ['Bergamo', '24121', 'bergamo ']) {
      const { text } = await visit(`/it-it/rivenditori?near=${encodeURIComponent(near)}`)
      expect(listed(text, 'it-it')[0], near).toBe('cicli-bergamasca')
      expect(textOf(text)).toContain(italian.dealer.nearest_to.replace('{{place}}', 'Bergamo'))
    }
    const rome = await visit('/it-it/rivenditori?near=Roma')
    expect(listed(rome.text, 'it-it')[0]).toBe('ruota-capitolina')
    const genevaPage = await visit('/ch-fr/revendeurs?near=geneve')
    expect(listed(genevaPage.text, 'ch-fr')[0]).toBe('cycles-du-leman')
  })

  it("sorts by distance from the visitor's position at the edge, else from the market's centre", async () => {
    const florence = await visitFrom('/it-it/rivenditori', '43.7696', '11.2558')
    expect(listed(florence.text, 'it-it')[0]).toBe('ciclofficina-del-giglio')
    expect(textOf(florence.text)).toContain(italian.dealer.near_you)
    // Measured from the visitor: a page for them alone.
    expect(florence.headers.get('Cache-Control')).toBe('private, no-cache')
    // A visitor in another country is not "near" this market's dealers: the centre it is.
    const abroad = await visitFrom('/it-it/rivenditori', '40.7128', '-74.0060', 'US')
    expect(textOf(abroad.text)).toContain(italian.dealer.near_centre)
    expect(abroad.headers.get('Cache-Control')).toBe('no-cache')
    const milan = await visitFrom('/it-it/rivenditori', '45.4642', '9.1900')
    expect(listed(milan.text, 'it-it')[0]).toBe('officina-navigli')
    const nowhere = await visit('/it-it/rivenditori')
    expect(textOf(nowhere.text)).toContain(italian.dealer.near_centre)
  })

  it('lists every dealer in increasing distance, as the API computes it', async () => {
    const { body } = await dealersApi('lat=45.6983&lng=9.6773')
    const distances = body.data.map((d) => d.distance_km as number)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(distances[0]).toBeLessThan(2)
    expect(distanceKm({ lat: 45.4642, lng: 9.19 }, { lat: 41.9028, lng: 12.4964 })).toBeGreaterThan(470)
    expect(distanceKm({ lat: 45.4642, lng: 9.19 }, { lat: 41.9028, lng: 12.4964 })).toBeLessThan(490)
  })

  it('filters by services: every dealer shown offers each one asked for', async () => {
    const { text } = await visit('/it-it/rivenditori?test_rides=on')
    expect(listed(text, 'it-it').sort()).toEqual(['bici-felsinea', 'cicli-bergamasca', 'ruota-capitolina'])
    expect(text).toContain('<input type="checkbox" name="test_rides" checked="" value="on"/>')
    const both = await dealersApi('services=sales,test_rides')
    expect(both.body.data.length).toBe(3)
    expect((await dealersApi('services=teleport')).status).toBe(422)
  })

  it('says so when a typed place is unknown, and measures from the centre', async () => {
    const { status, text } = await visit('/it-it/rivenditori?near=Atlantide')
    expect(status).toBe(200)
    expect(textOf(text)).toContain(italian.dealer.place_unknown.replace('{{place}}', 'Atlantide'))
    expect(listed(text, 'it-it')).toHaveLength(ITALIAN_DEALERS)
  })

  it('gives each card "open now", a call button and directions to its coordinates, and a phone a list/map switch, the list first', async () => {
    const { text } = await visit('/it-it/rivenditori')
    const cards = text.match(/<li class="dealer-card">[\s\S]*?<\/li>\s*(?=<li class="dealer-card">|<\/ol>)/g) ?? []
    expect(cards).toHaveLength(ITALIAN_DEALERS)
    for (const card of cards) {
      expect(card).toMatch(/<p class="open-now( is-open)?" data-open="(true|false)">/)
      expect(card).toMatch(
        /href="https:\/\/www\.google\.com\/maps\/dir\/\?api=1&amp;destination=-?\d+\.\d+%2C-?\d+\.\d+"/,
      )
    }
    const bergamo = cards.find((card) => card.includes('cicli-bergamasca')) ?? ''
    expect(textOf(bergamo)).toMatch(new RegExp(`${italian.dealer.call}\\s+\\(Cicli Bergamasca\\)`))
    expect(bergamo).toContain('href="tel:+390355550188"')
    const views = /<fieldset class="locator-views">[\s\S]*?<\/fieldset>/.exec(text)?.[0] ?? ''
    expect(textOf(views).replace(/\s+/g, ' ').trim()).toBe(
      `${italian.dealer.view_as} ${italian.dealer.view_list} ${italian.dealer.view_map}`,
    )
    expect(views).toMatch(/name="locator-view" checked="" value="list"/)
  })

  it("works without JavaScript (a GET form and a list) and marks the map island, with Leaflet's stylesheet on this page only", async () => {
    const { text } = await visit('/it-it/rivenditori')
    expect(text).toMatch(/<form class="locator-form" role="search" aria-label="[^"]+" method="get">/)
    expect(text).toContain('data-island="dealer-map"')
    expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/dealer-map-[A-Z0-9]+\.css"\/>/)
    const home = await visit('/it-it')
    expect(home.text).not.toContain('dealer-map')
  })
})

describe('the dealer_locator feature', () => {
  it('switched off, takes the locator, the dealer pages and their links away', async () => {
    await env.DB.prepare("UPDATE features SET enabled = 0 WHERE key = 'dealer_locator'").run()
    try {
      await clearCaches()
      expect((await visit('/it-it/rivenditori')).status).toBe(404)
      expect((await visit('/it-it/dealers/cicli-bergamasca')).status).toBe(404)
      expect((await visit('/it-it')).text).not.toContain('href="/it-it/rivenditori"')
      expect((await visit('/it-it/products/aurora-strada-9')).text).not.toContain('href="/it-it/rivenditori"')
    } finally {
      await env.DB.prepare("UPDATE features SET enabled = 1 WHERE key = 'dealer_locator'").run()
      await clearCaches()
    }
  })
})

describe("a dealer's page", () => {
  it('shows the address, contact, services, opening hours, directions and a test ride with the dealer pre-selected', async () => {
    const { status, text } = await visit('/it-it/dealers/cicli-bergamasca')
    expect(status).toBe(200)
    const words = textOf(text)
    expect(text).toContain('<h1>Cicli Bergamasca</h1>')
    expect(words).toContain('Via Borgo Palazzo')
    expect(words).toContain(italian.dealer.hours)
    expect(words).toContain(italian.dealer.days.mon)
    expect(words).toContain(italian.dealer.closed)
    expect(text).toContain('href="/it-it/prova-su-strada?dealer=cicli-bergamasca"')
    expect(text).toContain('<link rel="canonical" href="https://site.test/it-it/dealers/cicli-bergamasca"/>')
  })

  it('says whether it is open now, with call and directions buttons and a map of where it is (no tiles requested)', async () => {
    const { text } = await visit('/it-it/dealers/cicli-bergamasca')
    const main = /<main[\s\S]*<\/main>/.exec(text)?.[0] ?? ''
    expect(main).toMatch(/<p class="open-now( is-open)?" data-open="(true|false)">/)
    expect(textOf(main)).toMatch(
      /Aperto ora · chiude alle \d{1,2}:\d{2}|Chiuso · apre (domani |[a-zì]+ )?alle \d{1,2}:\d{2}/,
    )
    expect(main).toContain(
      `<a class="button secondary dealer-call" href="tel:+390355550188">${italian.dealer.call}</a>`,
    )
    expect(main).toContain(
      `href="https://www.google.com/maps/dir/?api=1&amp;destination=45.6941%2C9.6876" rel="noopener noreferrer">${italian.dealer.directions}`,
    )
    expect(main).toContain('data-island="dealer-map"')
    expect(main).toContain(
      '&quot;dealers&quot;:[{&quot;name&quot;:&quot;Cicli Bergamasca&quot;,&quot;lat&quot;:45.6941',
    )
    expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/dealer-map-[A-Z0-9]+\.css"/)
  })

  it('offers no test ride where the dealer has none, nor where the market has test rides off', async () => {
    const main = async (path: string) => /<main[\s\S]*<\/main>/.exec((await visit(path)).text)?.[0]
    expect(await main('/it-it/dealers/officina-navigli')).not.toContain('prova-su-strada')
    expect(await main('/de-de/dealers/radhaus-isar')).not.toContain('probefahrt')
    expect(await main('/it-it/dealers/ruota-capitolina')).toContain(
      'href="/it-it/prova-su-strada?dealer=ruota-capitolina"',
    )
  })

  it.each([
    '/it-it/dealers/radhaus-isar',
    '/it-it/dealers/nobody',
    '/it-it/dealers/Cicli-Bergamasca',
    '/de-de/dealers/cicli-bergamasca',
  ])('answers 404 "Page Not Found" for an unknown dealer or another market\'s: %s', async (path) => {
    const { status, text } = await visit(path)
    expect(status).toBe(404)
    expect(textOf(text)).toContain(`Page Not Found: ${path}`)
  })
})

describe('a market with more than 50 dealers (the API answers 50 a page)', () => {
  const EXTRA = 110

  it('lists the 50 nearest in the locator (from the centre, as a brute-force sort of all of them), and the pages of the others answer 200', async () => {
    // Australia has two demo dealers; 110 more around Sydney make three pages of the API's answer.
    await env.DB.batch(
      Array.from({ length: EXTRA }, (_, i) => {
        const n = String(i + 1).padStart(3, '0')
        return env.DB.prepare(
          'INSERT INTO dealers (slug, site, name, address, city, country_code, lat, lng) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ).bind(
          `outback-cycles-${n}`,
          'au',
          `Outback Cycles ${n}`,
          `${i + 1} George Street`,
          'Sydney',
          'AU',
          -33.8 - i / 1000,
          151.2 + i / 1000,
        )
      }),
    )
    await clearCaches()
    const request = (page: number) =>
      new Request(`http://embedded.invalid/api/front/dealers?page=${page}&per_page=50`, {
        headers: { 'X-Tenant': 'au', 'X-Locale': 'en' },
      })
    const pages = await Promise.all(
      [1, 2, 3].map(async (page) => {
        const answer = await api.fetch(request(page) as Parameters<typeof api.fetch>[0], env)
        return (await answer.json()) as { data: Array<{ slug: string }>; meta: { total: number } }
      }),
    )
    expect(pages[0]?.meta.total).toBe(EXTRA + 2)
    const pastFifty = [...pages[1]!.data, ...pages[2]!.data].map((dealer) => dealer.slug)
    expect(pastFifty).toHaveLength(EXTRA + 2 - 50)

    const { status, text } = await visit('/au-en/dealer-locator')
    expect(status).toBe(200)
    const slugs = listed(text, 'au-en')
    expect(slugs).toHaveLength(LOCATOR_DEALERS)
    const all = (
      await env.DB.prepare("SELECT slug, lat, lng FROM dealers WHERE site = 'au'").all<Point & { slug: string }>()
    ).results
    const centre = await env.DB.prepare(
      "SELECT centre_lat AS lat, centre_lng AS lng FROM sites WHERE slug = 'au'",
    ).first<Point>()
    expect(slugs).toEqual(
      byDistance(all, centre ?? { lat: 0, lng: 0 })
        .slice(0, LOCATOR_DEALERS)
        .map((dealer) => dealer.slug),
    )
    for (const slug of pastFifty) expect((await visit(`/au-en/dealers/${slug}`)).status, slug).toBe(200)
  })
})

/** `GET api/front/places?q=` as a market's language asks it. */
async function placeApi(words: string, country: string, locale: string) {
  const request = new Request(`http://embedded.invalid/api/front/places?q=${encodeURIComponent(words)}`, {
    headers: { 'X-Tenant': country, 'X-Locale': locale },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return {
    status: response.status,
    place:
      response.status === 200
        ? ((await response.json()) as { data: { name: string; postal_code: string | null; lat: number; lng: number } })
            .data
        : null,
  }
}

/** The distances the locator shows, in its order, as numbers ("A 2,4 km" → 2.4). */
const distancesShown = (html: string) =>
  [...html.matchAll(/<p class="meta distance">([^<]+)<\/p>/g)].map((m) =>
    Number((/[\d.,]+/.exec(m[1] ?? '')?.[0] ?? '').replace(/\./g, '').replace(',', '.')),
  )

describe('the places a visitor may type into the locator', () => {
  it.each([
    ['Palermo', 'Palermo', 'cicli-conca-doro'],
    ['palermo', 'Palermo', 'cicli-conca-doro'],
    ['90100', 'Palermo', 'cicli-conca-doro'],
    ['901', 'Palermo', 'cicli-conca-doro'],
    ['90146', 'Palermo', 'cicli-conca-doro'],
    ['Venezia', 'Venezia', 'cicli-laguna'],
    ['Venice', 'Venezia', 'cicli-laguna'],
    ['VENÉZIA', 'Venezia', 'cicli-laguna'],
    ['Como', 'Como', 'lario-bike'],
    ['22100', 'Como', 'lario-bike'],
    ['Monza', 'Monza', 'brianza-cycles'],
    ['Catania', 'Catania', 'etna-bike-lab'],
    ['Napoli', 'Napoli', 'partenope-bici'],
    ['Naples', 'Napoli', 'partenope-bici'],
    ['Firenze', 'Firenze', 'ciclofficina-del-giglio'],
  ])('in /it-it, "%s" is %s, and its nearest dealer comes first', async (near, place, nearest) => {
    const { status, text } = await visit(`/it-it/rivenditori?near=${encodeURIComponent(near)}`)
    expect(status).toBe(200)
    expect(textOf(text)).toContain(italian.dealer.nearest_to.replace('{{place}}', place))
    expect(listed(text, 'it-it')[0]).toBe(nearest)
    const distances = distancesShown(text)
    expect(distances).toHaveLength(ITALIAN_DEALERS)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
  })

  it("writes the distances in the page's language: a decimal comma in Italian, whole kilometres from 10 km", async () => {
    const { text } = await visit('/it-it/rivenditori?near=Palermo')
    const words = textOf(text)
    // Palermo's centre to Via della Libertà: 2.4 km.
    expect(words).toContain(italian.dealer.distance.replace('{{km}}', '2,4'))
    expect(text).toMatch(/<p class="meta distance">A \d{3} km<\/p>/)
  })

  it("matches a town in any of its languages or spellings and answers its name in the caller's language", async () => {
    expect((await placeApi('Venice', 'it', 'it')).place).toMatchObject({ name: 'Venezia', postal_code: '30121' })
    expect((await placeApi('Genf', 'ch', 'fr')).place?.name).toBe('Genève')
    expect((await placeApi('geneve', 'ch', 'de')).place?.name).toBe('Genf')
    expect((await placeApi('Geneva', 'ch', 'it')).place?.name).toBe('Ginevra')
    expect((await placeApi('koln', 'de', 'de')).place?.name).toBe('Köln')
    expect((await placeApi('Jerusalem', 'il', 'he')).place?.name).toBe('ירושלים')
    expect((await placeApi('tel aviv', 'il', 'he')).place?.name).toBe('תל אביב-יפו')
    expect((await placeApi('Abu Dhabi', 'ae', 'en')).place?.name).toBe('Abu Dhabi')
    expect((await placeApi('ابوظبي', 'ae', 'ar')).place?.name).toBe('أبوظبي')
    expect((await placeApi('546 24', 'gr', 'el')).place?.name).toBe('Θεσσαλονίκη')
    expect((await placeApi('Boulder', 'us', 'en')).place?.name).toBe('Boulder, CO')
    expect((await placeApi('1093', 'nl', 'nl')).place?.name).toBe('Amsterdam')
  })

  it("finds no place for a postcode of no area, another country's town or too little to go by", async () => {
    for (const words of ['99999', '9', 'x', 'Berlin', 'Zürich', '5'])
      expect((await placeApi(words, 'it', 'it')).status, words).toBe(404)
  })

  it('lists the larger towns of the country: a town without a dealer finds the nearest ones', async () => {
    for (const [near, nearest] of [
      ['Trieste', 'cicli-laguna'],
      ['Torino', 'officina-navigli'],
      ['Bari', 'partenope-bici'],
      ['Genova', 'officina-navigli'],
    ] as const) {
      const { text } = await visit(`/it-it/rivenditori?near=${near}`)
      expect(textOf(text), near).toContain(italian.dealer.nearest_to.replace('{{place}}', near))
      expect(listed(text, 'it-it')[0], near).toBe(nearest)
    }
  })
})

describe('"use my position" on the locator', () => {
  it('sorts by distance from the coordinates the browser gave, says so, and keeps the page to the visitor', async () => {
    const { status, text, headers } = await visit('/it-it/rivenditori?lat=38.116&lng=13.362')
    expect(status).toBe(200)
    const slugs = listed(text, 'it-it')
    expect(slugs.slice(0, 2)).toEqual(['cicli-conca-doro', 'mondello-bike'])
    expect(textOf(text)).toContain(italian.dealer.near_position)
    expect(text).toContain('data-origin="position"')
    expect(headers.get('Cache-Control')).toBe('private, no-cache')
    // Every dealer in increasing distance from that point, as the API measures it.
    const { body } = await dealersApi('lat=38.116&lng=13.362&per_page=50')
    expect(slugs).toEqual(body.data.map((d) => d.slug))
    // The filters still apply; a place typed wins over a position.
    const testRides = await visit('/it-it/rivenditori?lat=38.116&lng=13.362&test_rides=on')
    expect(listed(testRides.text, 'it-it')).toEqual(['ruota-capitolina', 'bici-felsinea', 'cicli-bergamasca'])
    const typed = await visit('/it-it/rivenditori?lat=38.116&lng=13.362&near=Como')
    expect(listed(typed.text, 'it-it')[0]).toBe('lario-bike')
  })

  it.each([
    'lat=abc&lng=13.36',
    'lat=91&lng=13',
    'lat=38.1&lng=181',
    'lat=38.1',
    'lng=13.3',
    'lat=&lng=',
    'lat=1e2&lng=3',
    'lat=38.123456789&lng=13.3',
    'lat=0x10&lng=1',
  ])('answers 400 with the page measured from the centre and a message for unusable coordinates: %s', async (query) => {
    const { status, text, headers } = await visit(`/it-it/rivenditori?${query}`)
    expect(status).toBe(400)
    const words = textOf(text)
    expect(words).toContain(italian.dealer.position_invalid)
    expect(words).toContain(italian.dealer.near_centre)
    expect(listed(text, 'it-it')).toHaveLength(ITALIAN_DEALERS)
    expect(headers.get('Cache-Control')).toBe('private, no-cache')
  })

  it('is an island the server renders empty: without JavaScript there is no button, and its texts are translated', async () => {
    const { text } = await visit(pageUrlOf('il-he', 'dealer-locator'))
    const marker = /<div class="island" data-island="locate-button" data-props="([^"]*)"><\/div>/.exec(text)
    expect(marker).not.toBeNull()
    const props = JSON.parse(marker![1]!.replace(/&quot;/g, '"')) as Record<string, string>
    expect(props).toEqual({
      label: hebrew.dealer.locate,
      locating: hebrew.dealer.locating,
      denied: hebrew.dealer.locate_denied,
      unavailable: hebrew.dealer.locate_unavailable,
      timeout: hebrew.dealer.locate_timeout,
    })
    expect(text).not.toContain('class="button secondary locate-button"')
  })
})

describe("dealers in the page's language", () => {
  it("shows il-he visitors the address, town and region in Hebrew, on the locator and the dealer's page", async () => {
    const locator = textOf((await visit(pageUrlOf('il-he', 'dealer-locator', '?near=Jerusalem'))).text)
    expect(locator).toContain(hebrew.dealer.nearest_to.replace('{{place}}', 'ירושלים'))
    expect(locator).toContain('עמק רפאים 30')
    expect(locator).not.toMatch(/Emek Refaim|Ibn Gabirol|Tel Aviv|Jerusalem/)
    const { text } = await visit('/il-he/dealers/ofanei-hahar')
    const main = textOf(/<main[\s\S]*<\/main>/.exec(text)?.[0] ?? '')
    expect(main).toContain('ירושלים')
    expect(main).not.toMatch(/Jerusalem|Emek Refaim/)
    expect(text).toContain('<span dir="ltr">09:00–19:00</span>')
  })

  it("finds a dealer by its town in the page's language from the site search", async () => {
    const { status, text } = await visit(`/il-he/search/dealers?q=${encodeURIComponent('ירושלים')}`)
    expect(status).toBe(200)
    expect(text).toContain('href="/il-he/dealers/ofanei-hahar"')
    expect(text).not.toContain('href="/il-he/dealers/yarkon-bikes"')
  })

  it('shows ae-ar visitors Arabic and ae-en visitors English', async () => {
    const arabicPage = textOf((await visit('/ae-ar/dealers/desert-spoke-cycles')).text)
    expect(arabicPage).toContain('شارع الوصل، أم سقيم 2')
    expect(arabicPage).toContain('دبي')
    expect(arabicPage).not.toContain('Al Wasl')
    const locator = textOf((await visit(pageUrlOf('ae-ar', 'dealer-locator', '?near=Dubai'))).text)
    expect(locator).toContain(arabic.dealer.nearest_to.replace('{{place}}', 'دبي'))
    const english = textOf((await visit('/ae-en/dealers/desert-spoke-cycles')).text)
    expect(english).toContain('Al Wasl Road, Umm Suqeim 2')
    expect(english).not.toContain('شارع الوصل')
  })
})
