import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import german from '../../demo/messages/de.json'
import { api } from '../../reference-api'
import type { ProductSummary } from '../../contract/catalogue-schemas'
import { textOf, visit } from '../fixtures/worker'

/** The product slugs of a listing page's cards, in their order. */
const cardsOf = (html: string): string[] => {
  const results = /<section id="listing-results"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''
  return [...results.matchAll(/<li class="card"><a href="\/[a-z-]+\/products\/([a-z0-9-]+)"/g)].map(
    (match) => match[1] as string,
  )
}
/** The results' heading: how many products the listing shows. */
const countOf = (html: string): string =>
  textOf(/<h2 id="listing-count"[^>]*>([\s\S]*?)<\/h2>/.exec(html)?.[1] ?? '').trim()
/** The applied-filter chips: each link and its label, and the "clear filters" link. */
const chipsOf = (html: string) =>
  [
    ...(/<ul class="filter-chips"[\s\S]*?<\/ul>/.exec(html)?.[0] ?? '').matchAll(
      /<a href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g,
    ),
  ].map((match) => ({
    href: (match[1] as string).replace(/&amp;/g, '&'),
    label: textOf(match[2] as string)
      .replace('×', '')
      .trim(),
  }))

/** The `<input>` of a filter, as the page renders it (React writes `checked` before `value`). */
const inputOf = (html: string, name: string, value: string): string =>
  [...html.matchAll(/<input [^>]*>/g)]
    .map((match) => match[0])
    .find((tag) => tag.includes(`name="${name}"`) && tag.includes(`value="${value}"`)) ?? ''

const listing = async (path: string) => {
  const answer = await visit(path)
  return { ...answer, cards: cardsOf(answer.text), count: countOf(answer.text), chips: chipsOf(answer.text) }
}

/** Italy's bikes and e-bikes in the brand's order: featured first. */
const IT_BIKES = [
  'aurora-strada-9',
  'aurora-sterrato-gr',
  'aurora-strada-5',
  'aurora-sterrato-al',
  'aurora-citta-3',
  'aurora-vento-trail',
  'aurora-piccolo-20',
  'aurora-acciaio-tour',
]
const IT_E_BIKES = [
  'aurora-e-sterrato',
  'aurora-e-citta-500',
  'aurora-e-strada',
  'aurora-e-cargo',
  'aurora-e-vento',
  'aurora-e-compatta',
]

describe('product listings: the number of results and one h1', () => {
  it("say how many products the listing shows, one or many, in the market's language", async () => {
    const all = await listing('/it-it/products')
    expect(all.status).toBe(200)
    expect(all.cards).toHaveLength(19)
    expect(all.count).toBe(italian.listing.count.replace('{{count}}', '19'))
    const one = await listing('/it-it/products?material=steel')
    expect(one.cards).toEqual(['aurora-acciaio-tour'])
    expect(one.count).toBe(italian.listing.count_one)
    const hebrewCount = await listing('/il-he/products/type/e-bikes')
    expect(hebrewCount.count).toBe(hebrew.listing.count.replace('{{count}}', String(hebrewCount.cards.length)))
  })

  it.each([
    '/it-it/products',
    '/it-it/products/type/bikes',
    '/it-it/products?discipline=road&sort=newest',
    '/il-he/products/type/accessories',
  ])("have exactly one h1, the listing's title (%s)", async (path) => {
    const { status, text } = await visit(path)
    expect(status).toBe(200)
    expect(text.match(/<h1[ >]/g)).toHaveLength(1)
  })

  it('say so when no product matches, and still offer the filters', async () => {
    const none = await listing('/it-it/products/type/e-bikes?material=steel')
    expect(none.status).toBe(200)
    expect(none.cards).toEqual([])
    expect(none.text).toContain(italian.listing.none)
    expect(inputOf(none.text, 'material', 'steel')).toContain('checked=""')
  })
})

describe('product listings: each filter', () => {
  it('filter by discipline, one or several', async () => {
    const road = await listing('/it-it/products?discipline=road')
    expect(road.cards).toEqual(['aurora-strada-9', 'aurora-strada-5', 'aurora-e-strada'])
    const two = await listing('/it-it/products?discipline=road&discipline=gravel')
    expect(two.cards.sort()).toEqual([
      'aurora-e-sterrato',
      'aurora-e-strada',
      'aurora-sterrato-al',
      'aurora-sterrato-gr',
      'aurora-strada-5',
      'aurora-strada-9',
    ])
  })

  it('filter e-bikes in or out', async () => {
    const electric = await listing('/it-it/products?ebike=yes')
    expect(electric.cards).toEqual(IT_E_BIKES)
    const bikes = await listing('/it-it/products/type/bikes?ebike=no')
    expect(bikes.cards).toEqual(IT_BIKES)
    // Gravel bikes without a motor: filters add up.
    expect((await listing('/it-it/products?ebike=no&discipline=gravel')).cards).toEqual([
      'aurora-sterrato-gr',
      'aurora-sterrato-al',
    ])
  })

  it('filter by frame material', async () => {
    expect((await listing('/it-it/products?material=carbon')).cards).toEqual([
      'aurora-strada-9',
      'aurora-sterrato-gr',
      'aurora-e-strada',
    ])
    expect((await listing('/it-it/products?material=carbon&material=steel')).cards).toEqual([
      'aurora-strada-9',
      'aurora-sterrato-gr',
      'aurora-acciaio-tour',
      'aurora-e-strada',
    ])
  })

  it('filter by price in whole euros, both bounds included, a minimum above the maximum read the other way round', async () => {
    const range = await listing('/it-it/products/type/bikes?min=1190&max=1890')
    expect(range.cards).toEqual(['aurora-strada-5', 'aurora-sterrato-al', 'aurora-citta-3'])
    expect((await listing('/it-it/products/type/bikes?min=1890&max=1190')).cards).toEqual(range.cards)
    expect((await listing('/it-it/products/type/bikes?min=1190.01&max=1890')).cards).toEqual([
      'aurora-strada-5',
      'aurora-sterrato-al',
    ])
    expect((await listing('/it-it/products/type/accessories?max=60')).cards).toEqual([
      'aurora-luce-duo',
      'aurora-pompa-mini',
    ])
  })

  it("filter by price in Swiss francs on a Swiss page: the market's own prices and currency", async () => {
    // Piccolo 20 costs CHF 459.90 in Switzerland (EUR 449 elsewhere).
    const swiss = await listing('/ch-de/products/type/bikes?max=459.90')
    expect(swiss.cards).toEqual(['aurora-piccolo-20'])
    expect(swiss.count).toBe(german.listing.count_one)
    expect(swiss.chips[0]?.label).toBe(german.listing.price_up_to.replace('{{price}}', 'CHF\u00a0459.90'))
    expect((await listing('/ch-de/products/type/bikes?max=459')).cards).toEqual([])
    expect(swiss.text).toContain(`<legend>${german.listing.price.replace('{{currency}}', 'CHF')}</legend>`)
  })

  it('filter by price in shekels on a Hebrew page, the amounts isolated right to left', async () => {
    // Strada 5 costs ₪7,290 and Sterrato AL ₪8,090 in Israel.
    const israel = await listing('/il-he/products/type/bikes?min=7000&max=8100')
    expect(israel.cards).toEqual(['aurora-strada-5', 'aurora-sterrato-al'])
    expect(israel.chips[0]?.label).toBe(
      hebrew.listing.price_between
        .replace('{{min}}', '\u2067₪7,000.00\u2069')
        .replace('{{max}}', '\u2067₪8,100.00\u2069'),
    )
  })

  it('keep only products in stock in the market when asked', async () => {
    // Every variant of the e-Compatta is sold out.
    expect((await listing('/it-it/products/type/e-bikes')).cards).toContain('aurora-e-compatta')
    const inStock = await listing('/it-it/products/type/e-bikes?stock=1')
    expect(inStock.cards).toEqual(IT_E_BIKES.filter((slug) => slug !== 'aurora-e-compatta'))
    expect(inputOf(inStock.text, 'stock', '1')).toContain('checked=""')
  })

  it('offer only the filters that narrow the listing', async () => {
    const accessories = await visit('/it-it/products/type/accessories')
    expect(accessories.text).not.toContain('name="discipline"')
    expect(accessories.text).not.toContain('name="material"')
    expect(accessories.text).not.toContain('name="ebike"')
    expect(accessories.text).toContain('name="min"')
    expect(accessories.text).toContain('name="stock"')
    const bikes = await visit('/it-it/products/type/bikes')
    expect(bikes.text).not.toContain('name="ebike"')
    expect(inputOf(bikes.text, 'discipline', 'kids')).not.toBe('')
    expect(inputOf(bikes.text, 'discipline', 'cargo')).toBe('')
    const all = await visit('/it-it/products')
    for (const value of ['', 'yes', 'no']) expect(inputOf(all.text, 'ebike', value)).not.toBe('')
  })
})

describe('product listings: sort orders', () => {
  it("put featured products first in the brand's order by default", async () => {
    const featured = await listing('/it-it/products/type/bikes')
    expect(featured.cards.slice(0, 2)).toEqual(['aurora-strada-9', 'aurora-sterrato-gr'])
    expect((await listing('/it-it/products/type/bikes?sort=featured')).cards).toEqual(featured.cards)
  })

  it("sort by price, up and down, by the market's prices", async () => {
    const up = await listing('/it-it/products?sort=price-asc')
    expect(up.cards.slice(0, 3)).toEqual(['aurora-pompa-mini', 'aurora-luce-duo', 'aurora-blocco-pro'])
    expect(up.cards.at(-1)).toBe('aurora-e-cargo')
    const down = await listing('/it-it/products?sort=price-desc')
    expect(down.cards.slice(0, 2)).toEqual(['aurora-e-cargo', 'aurora-e-vento'])
    expect(down.text).toContain('<option value="price-desc" selected="">')
  })

  it('sort the newest first', async () => {
    const newest = await listing('/it-it/products/type/bikes?sort=newest')
    expect(newest.cards.slice(0, 3)).toEqual(['aurora-strada-9', 'aurora-sterrato-gr', 'aurora-vento-trail'])
    expect((await listing('/it-it/products?sort=newest')).cards.slice(0, 2)).toEqual([
      'aurora-e-vento',
      'aurora-e-strada',
    ])
  })
})

describe('product listings: the form, the chips and "clear filters"', () => {
  it('are a plain GET form to the listing\'s own URL, with a "show results" button and the sort select in it', async () => {
    const { text } = await visit('/it-it/products/type/bikes?discipline=gravel')
    const form = /<form [^>]*id="listing-form"[^>]*>/.exec(text)?.[0] ?? ''
    expect(form).toContain('method="get"')
    expect(form).toContain('action="/it-it/products/type/bikes"')
    expect(inputOf(text, 'discipline', 'gravel')).toContain('checked=""')
    expect(inputOf(text, 'discipline', 'road')).not.toContain('checked')
    expect(text).toContain(
      `<button type="submit" class="button filter-submit">${italian.listing.show_results}</button>`,
    )
    expect(text).toMatch(/<select name="sort" form="listing-form">/)
    // The filters sit in a <details>: a panel that opens without JavaScript on phones.
    expect(text).toMatch(/<details class="listing-filters"><summary>Filtri/)
    // The island that updates the results without a reload.
    expect(text).toContain('data-island="listing-updates"')
  })

  it('show each applied filter as a chip that removes it, and a link that clears them all but keeps the order', async () => {
    const { chips, text } = await listing('/it-it/products?discipline=road&material=carbon&stock=1&sort=price-asc')
    expect(chips).toEqual([
      { href: '/it-it/products?material=carbon&stock=1&sort=price-asc', label: italian.listing.disciplines.road },
      { href: '/it-it/products?discipline=road&stock=1&sort=price-asc', label: italian.listing.materials.carbon },
      { href: '/it-it/products?discipline=road&material=carbon&sort=price-asc', label: italian.listing.in_stock },
      { href: '/it-it/products?sort=price-asc', label: italian.listing.clear },
    ])
    expect(text).toContain(
      `aria-label="${italian.listing.remove.replace('{{filter}}', italian.listing.disciplines.road)}"`,
    )
    expect(text).toContain('<span class="listing-filters-count"> (3)</span>')
    const unfiltered = await listing('/it-it/products?sort=price-asc')
    expect(unfiltered.chips).toEqual([])
  })
})

describe('product listings: what a browser sends cannot break them', () => {
  it.each([
    '?discipline=unicycle&material=wood&ebike=maybe&stock=yes&sort=random',
    '?min=-5&max=abc',
    '?min=1e9&max=99999999999999999999',
    '?min=%ZZ&sort=%E0%A4%A&discipline=%00',
    '?discipline[]=road&min[]=5&sort=price-asc&sort=newest&',
    `?discipline=${'road,'.repeat(500)}&min=${'9'.repeat(400)}`,
  ])('ignore values they do not know, answering 200 with the whole listing (%s)', async (search) => {
    const { status, cards, chips } = await listing(`/it-it/products${search}`)
    expect(status).toBe(200)
    expect(cards).toHaveLength(19)
    expect(chips).toEqual([])
  })

  it('read the first of a repeated order', async () => {
    expect((await listing('/it-it/products?sort=price-asc&sort=newest')).cards[0]).toBe('aurora-pompa-mini')
  })
})

describe('product listings: search engines and caches', () => {
  it('give every filtered or sorted URL the unfiltered listing as canonical, never noindex, and cache it as the listing', async () => {
    const plain = await visit('/it-it/products/type/bikes')
    const filtered = await visit('/it-it/products/type/bikes?discipline=road&min=1000&sort=price-desc')
    expect(filtered.text).toContain('<link rel="canonical" href="https://site.test/it-it/products/type/bikes"/>')
    expect(filtered.text).not.toContain('noindex')
    expect(filtered.headers.get('Cache-Control')).toBe(plain.headers.get('Cache-Control'))
    expect(filtered.headers.get('Cache-Control')).not.toMatch(/private|no-store/)
  })

  it('ask the API for one page of the filtered listing: one call, whatever the catalogue holds', async () => {
    await visit('/it-it/products/type/e-bikes')
    const logs: string[] = []
    const original = console.log
    console.log = (line: string) => logs.push(line)
    try {
      await visit('/it-it/products/type/e-bikes?discipline=city&sort=newest&stock=1')
    } finally {
      console.log = original
    }
    const request = logs
      .map((line) => JSON.parse(line) as { event: string; upstreamCalls?: number })
      .find((line) => line.event === 'request')
    expect(request?.upstreamCalls).toBe(1)
  })
})

describe('prices on every product card', () => {
  it("price the home page's featured cards in the market's currency", async () => {
    const italy = await visit('/it-it')
    const featured = /<section id="featured"[\s\S]*?<\/section>/.exec(italy.text)?.[0] ?? ''
    const cards = featured.match(/<li class="card">[\s\S]*?<\/li>/g) ?? []
    expect(cards.length).toBe(4)
    for (const card of cards) expect(card).toMatch(/<p class="card-price">\d[\d.]*,\d{2}\u00a0€<\/p>/)
    expect(featured).toContain('<p class="card-price">4290,00\u00a0€</p>')
    const israel = await visit('/il-he')
    expect(/<section id="featured"[\s\S]*?<\/section>/.exec(israel.text)?.[0]).toContain(
      '<p class="card-price">\u2067₪18,390.00\u2069</p>',
    )
  })

  it('price every listing card', async () => {
    const { text } = await visit('/ch-fr/products')
    const cards = text.match(/<li class="card">[\s\S]*?<\/li>/g) ?? []
    expect(cards.length).toBeGreaterThan(10)
    for (const card of cards) expect(card).toContain('<p class="card-price">CHF')
  })
})

describe('GET api/front/products: what listings filter by', () => {
  const call = async (path: string, country = 'it', locale = 'it') => {
    const request = new Request(`http://embedded.invalid/api/${path}`, {
      headers: { 'X-Tenant': country, 'X-Locale': locale },
    })
    const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
    return (await response.json()) as { data: Array<ProductSummary & Record<string, unknown>> }
  }

  it('gives each product its discipline, frame material, e-bike flag, stock in the market and release date', async () => {
    const { data } = await call('front/products?per_page=50')
    const bySlug = new Map(data.map((product) => [product.slug, product]))
    expect(bySlug.get('aurora-strada-9')).toMatchObject({
      discipline: 'road',
      frame_material: 'carbon',
      e_bike: false,
      in_stock: true,
      released_on: '2026-03-02',
    })
    expect(bySlug.get('aurora-e-compatta')).toMatchObject({ discipline: 'folding', e_bike: true, in_stock: false })
    expect(bySlug.get('aurora-pompa-mini')).toMatchObject({
      discipline: null,
      frame_material: null,
      e_bike: false,
      in_stock: true,
    })
  })

  it("gives the menu's products their price in the market, for the home page's cards", async () => {
    const { data } = await call('front/menu/products?type_id=1', 'ch', 'de')
    expect(data.find((product) => product.slug === 'aurora-piccolo-20')?.price).toBe(45990)
  })
})
