import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import german from '../../demo/messages/de.json'
import italian from '../../demo/messages/it.json'
import { api } from '../../src/api'
import { distanceKm } from '../../src/geo/distance'
import { clearCaches, ORIGIN, textOf, visit } from '../fixtures/worker'

/** The dealers' slugs in the order the locator lists them. */
const listed = (html: string, segment: string) =>
  [...html.matchAll(new RegExp(`<h2><a href="/${segment}/dealers/([a-z0-9-]+)">`, 'g'))].map((m) => m[1])

/** A visit from a browser the edge located (Cloudflare's `request.cf`). */
async function visitFrom(path: string, latitude: string, longitude: string, country = 'IT') {
  const request = new Request(`${ORIGIN}${path}`, { cf: { latitude, longitude, country } } as RequestInit)
  return visit(path, request)
}

async function dealersApi(query: string, country = 'it') {
  const request = new Request(`http://embedded.invalid/api/front/dealers?${query}`, { headers: { 'X-Tenant': country, 'X-Locale': 'it' } })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return { status: response.status, body: (await response.json()) as { data: Array<{ slug: string; distance_km: number | null }>; meta: { total: number } } }
}

describe('the dealer locator', () => {
  it('is the market\'s dealer-locator page by its own slug, with its content and the market\'s dealers', async () => {
    const { status, text } = await visit('/it-it/rivenditori')
    expect(status).toBe(200)
    expect(listed(text, 'it-it')).toHaveLength(5)
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

  it('sorts by distance from the visitor\'s position at the edge, else from the market\'s centre', async () => {
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
    expect(listed(text, 'it-it')).toHaveLength(5)
  })

  it('works without JavaScript (a GET form and a list) and marks the map island, with Leaflet\'s stylesheet on this page only', async () => {
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

describe('a dealer\'s page', () => {
  it('shows the address, contact, services, opening hours, a map link and a test ride with the dealer pre-selected', async () => {
    const { status, text } = await visit('/it-it/dealers/cicli-bergamasca')
    expect(status).toBe(200)
    const words = textOf(text)
    expect(text).toContain('<h1>Cicli Bergamasca</h1>')
    expect(words).toContain('Via Borgo Palazzo')
    expect(words).toContain(italian.dealer.hours)
    expect(words).toContain(italian.dealer.days.mon)
    expect(words).toContain(italian.dealer.closed)
    expect(text).toContain('href="/it-it/prova-su-strada?dealer=cicli-bergamasca"')
    expect(text).toMatch(/href="https:\/\/www\.openstreetmap\.org\/\?mlat=45\.\d+&amp;mlon=9\.\d+/)
    expect(text).toContain('<link rel="canonical" href="https://site.test/it-it/dealers/cicli-bergamasca"/>')
  })

  it('offers no test ride where the dealer has none, nor where the market has test rides off', async () => {
    const main = async (path: string) => /<main[\s\S]*<\/main>/.exec((await visit(path)).text)?.[0]
    expect(await main('/it-it/dealers/officina-navigli')).not.toContain('prova-su-strada')
    expect(await main('/de-de/dealers/radhaus-isar')).not.toContain('probefahrt')
    expect(await main('/it-it/dealers/ruota-capitolina')).toContain('href="/it-it/prova-su-strada?dealer=ruota-capitolina"')
  })

  it.each(['/it-it/dealers/radhaus-isar', '/it-it/dealers/nobody', '/it-it/dealers/Cicli-Bergamasca', '/de-de/dealers/cicli-bergamasca'])(
    'answers 404 "Page Not Found" for an unknown dealer or another market\'s: %s',
    async (path) => {
      const { status, text } = await visit(path)
      expect(status).toBe(404)
      expect(textOf(text)).toContain(`Page Not Found: ${path}`)
    },
  )
})

describe('a market with more than 50 dealers (the API answers 50 a page)', () => {
  const EXTRA = 110

  it('lists every dealer in the locator, and the pages of those past the first 50 answer 200', async () => {
    // Australia has two demo dealers; 110 more around Sydney make three pages of the API's answer.
    await env.DB.batch(
      Array.from({ length: EXTRA }, (_, i) => {
        const n = String(i + 1).padStart(3, '0')
        return env.DB.prepare(
          'INSERT INTO dealers (slug, site, name, address, city, country_code, lat, lng) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        ).bind(`outback-cycles-${n}`, 'au', `Outback Cycles ${n}`, `${i + 1} George Street`, 'Sydney', 'AU', -33.8 - i / 1000, 151.2 + i / 1000)
      }),
    )
    await clearCaches()
    const request = (page: number) =>
      new Request(`http://embedded.invalid/api/front/dealers?page=${page}&per_page=50`, { headers: { 'X-Tenant': 'au', 'X-Locale': 'en' } })
    const pages = await Promise.all([1, 2, 3].map(async (page) => {
      const answer = await api.fetch(request(page) as Parameters<typeof api.fetch>[0], env)
      return ((await answer.json()) as { data: Array<{ slug: string }>; meta: { total: number } })
    }))
    expect(pages[0]?.meta.total).toBe(EXTRA + 2)
    const pastFifty = [...pages[1]!.data, ...pages[2]!.data].map((dealer) => dealer.slug)
    expect(pastFifty).toHaveLength(EXTRA + 2 - 50)

    const { status, text } = await visit('/au-en/dealer-locator')
    expect(status).toBe(200)
    const slugs = listed(text, 'au-en')
    expect(slugs).toHaveLength(EXTRA + 2)
    expect(new Set(slugs)).toEqual(new Set([...pages[0]!.data.map((dealer) => dealer.slug), ...pastFifty]))
    for (const slug of pastFifty) expect((await visit(`/au-en/dealers/${slug}`)).status, slug).toBe(200)
  })
})
