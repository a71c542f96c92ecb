import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import type { Product, ProductSummary } from '../../contract/catalogue-schemas'
import type { Site } from '../../contract/schemas'
import { DEMO_MARKETS } from '../fixtures/demo-markets'
import { visit } from '../fixtures/worker'

type Listing = { data: ProductSummary[]; meta: { page: number; per_page: number; total: number } }

/** Calls the embedded API in-process for a market, as the Worker does. */
async function call<T>(path: string, country = 'it', locale = 'it'): Promise<{ status: number; json: T }> {
  const request = new Request(`http://embedded.invalid/api/${path}`, {
    headers: { 'X-Tenant': country, 'X-Locale': locale },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return { status: response.status, json: (await response.json()) as T }
}

const slugs = (listing: Listing) => listing.data.map((product) => product.slug)

describe('GET api/front/products', () => {
  it('lists every type the market sells when no type is asked for, on the public /api/ too', async () => {
    const { status, json } = await call<Listing>('front/products?per_page=50')
    expect(status).toBe(200)
    expect(new Set(json.data.map((product) => product.type.slug))).toEqual(new Set(['bikes', 'e-bikes', 'accessories']))
    const perType = await Promise.all(
      ['bikes', 'e-bikes', 'accessories'].map((type) => call<Listing>(`front/products?type=${type}&per_page=50`)),
    )
    expect(json.meta.total).toBe(perType.reduce((sum, { json }) => sum + json.meta.total, 0))
    expect(json.meta.total).toBe(json.data.length)

    const open = await visit('/api/front/products', { headers: { 'X-Tenant': 'us', 'X-Locale': 'en' } })
    expect(open.status).toBe(200)
    expect(JSON.parse(open.text).data.map((product: ProductSummary) => product.slug)).not.toContain('aurora-e-cargo')
  })

  it('lists one type, and nothing for a type the market does not sell', async () => {
    const { status, json } = await call<Listing>('front/products?type=e-bikes')
    expect(status).toBe(200)
    expect(json.data.length).toBeGreaterThan(0)
    expect(json.data.every((product) => product.type.slug === 'e-bikes')).toBe(true)
    expect(slugs(json)).toContain('aurora-e-cargo')
    const none = await call<Listing>('front/products?type=scooters')
    expect(none.status).toBe(200)
    expect(none.json).toMatchObject({ data: [], meta: { page: 1, per_page: 24, total: 0 } })
  })

  it('pages with and without a type: pages do not overlap, the total stays, a page past the end is empty', async () => {
    for (const type of ['', '&type=bikes']) {
      const all = await call<Listing>(`front/products?per_page=50${type}`)
      const first = await call<Listing>(`front/products?per_page=3&page=1${type}`)
      const second = await call<Listing>(`front/products?per_page=3&page=2${type}`)
      expect(first.json.meta).toMatchObject({ page: 1, per_page: 3, total: all.json.meta.total })
      expect(second.json.meta).toMatchObject({ page: 2, per_page: 3, total: all.json.meta.total })
      expect([...slugs(first.json), ...slugs(second.json)]).toEqual(slugs(all.json).slice(0, 6))
      const past = await call<Listing>(`front/products?per_page=3&page=99${type}`)
      expect(past.status).toBe(200)
      expect(past.json.data).toEqual([])
    }
  })

  it.each(['type=E-Bikes', 'type=', 'type=%27%20OR%201', 'page=0', 'per_page=51', 'page=x'])(
    'answers 422 for a malformed %s',
    async (query) => {
      const { status, json } = await call<{ message: string }>(`front/products?${query}`)
      expect(status).toBe(422)
      expect(json.message).toMatch(/must be/)
    },
  )
})

describe('variant prices', () => {
  it("price each variant in the market, in its currency; the product's price is the lowest of them", async () => {
    const italy = await call<{ data: Product }>('front/products/aurora-strada-9')
    expect(italy.json.data.price).toBe(429000)
    const price = (product: Product, sku: string) => product.variants.find((variant) => variant.sku === sku)?.price
    expect(price(italy.json.data, 'STR9-M-RED')).toBe(429000)
    expect(price(italy.json.data, 'STR9-M-WHT')).toBe(449000)
    expect(italy.json.data.variants.find((variant) => variant.sku === 'STR9-XL-WHT')?.availability).toBe('out_of_stock')
    const swiss = await call<{ data: Product }>('front/products/aurora-strada-9', 'ch', 'de')
    expect(swiss.json.data.price).toBe(439000)
    expect(price(swiss.json.data, 'STR9-M-WHT')).toBe(459000)
  })

  it('leave out a variant without a price in the market: it is not sold there', async () => {
    const italy = await call<{ data: Product }>('front/products/aurora-e-cargo')
    expect(italy.json.data.variants.map((variant) => variant.sku)).toContain('ECRG-OS-SND')
    const israel = await call<{ data: Product }>('front/products/aurora-e-cargo', 'il', 'he')
    expect(israel.status).toBe(200)
    expect(israel.json.data.variants.map((variant) => variant.sku)).toEqual(['ECRG-OS-GRN', 'ECRG-OS-BLK'])
  })

  it('make the listed "from" price the lowest variant price, else the product\'s own when no variant is sold', async () => {
    await env.DB.batch([
      env.DB.prepare(`UPDATE product_variant_prices SET amount = 3490 WHERE sku = 'POMP-OS-RED' AND site = 'it'`),
      env.DB.prepare(
        `UPDATE product_variant_prices SET amount = 3290 WHERE sku IN ('POMP-OS-GRY', 'POMP-OS-BLK') AND site = 'it'`,
      ),
      env.DB.prepare(`DELETE FROM product_variant_prices WHERE sku LIKE 'LUCE-%' AND site = 'it'`),
    ])
    const pump = await call<{ data: Product }>('front/products/aurora-pompa-mini')
    expect(pump.json.data.price).toBe(3290)
    const light = await call<{ data: Product }>('front/products/aurora-luce-duo')
    expect(light.json.data).toMatchObject({ price: 5990, variants: [] })
    const listed = await call<Listing>('front/products?type=accessories')
    expect(listed.json.data.find((product) => product.slug === 'aurora-pompa-mini')?.price).toBe(3290)
    expect(listed.json.data.find((product) => product.slug === 'aurora-luce-duo')?.price).toBe(5990)
  })
})

describe('site currencies', () => {
  it('give every market its ISO 4217 currency beside its display token', async () => {
    const { status, json } = await call<{ data: Site[] }>('sites')
    expect(status).toBe(200)
    const money = Object.fromEntries(
      json.data.map((site) => [site.slug, [site.currency, site.default_currency_token, site.default_currency_place]]),
    )
    expect(money).toMatchObject({
      int: ['EUR', '€', 'left'],
      it: ['EUR', '€', 'right'],
      ch: ['CHF', 'CHF', 'left'],
      us: ['USD', '$', 'left'],
      mx: ['MXN', '$', 'left'],
      il: ['ILS', '₪', 'left'],
      ae: ['AED', 'AED', 'right'],
      au: ['AUD', 'A$', 'left'],
      za: ['ZAR', 'R', 'left'],
    })
    // Every market, each as the demo data declares it.
    expect(money).toEqual(
      Object.fromEntries(
        DEMO_MARKETS.map(({ slug, currency }) => [slug, [currency.code, currency.token, currency.place]]),
      ),
    )
    const swiss = await call<{ data: Site }>('sites/ch')
    expect(swiss.json.data.currency).toBe('CHF')
  })

  it('refuse to store a currency that is not three capital letters', async () => {
    await expect(env.DB.prepare(`UPDATE sites SET currency = 'eur' WHERE slug = 'it'`).run()).rejects.toThrow(/CHECK/)
  })
})

// Last in this file: it rewrites the variant prices.
describe('migration 0005 on a database that already holds sites and variants', () => {
  const statement = (start: string) => {
    // A statement as readD1Migrations splits the file: with the comment lines above it.
    const found = env.TEST_MIGRATIONS.find((migration) => migration.name === '0005_money.sql')?.queries.find((query) =>
      query
        .replace(/^(\s*--.*\n)*/, '')
        .trim()
        .startsWith(start),
    )
    if (!found) throw new Error(`0005_money.sql has no ${start} statement`)
    return env.DB.prepare(found)
  }

  it('gives each site the currency its token names, leaves an ambiguous one to the operator, then requires one', async () => {
    // The sites as they were before the migration: no currency, no triggers.
    await env.DB.batch([
      env.DB.prepare('DROP TRIGGER sites_currency_on_insert'),
      env.DB.prepare('DROP TRIGGER sites_currency_on_update'),
      env.DB.prepare('UPDATE sites SET currency = NULL'),
      env.DB.prepare(
        `INSERT INTO sites (id, slug, name, country_code, region, currency_token, currency_place) VALUES (99, 'ca', 'Canada', 'CA', 'americas', '$', 'left')`,
      ),
      env.DB.prepare(`INSERT INTO site_locales (site_id, locale, url) VALUES (99, 'en', '/ca-en')`),
    ])
    await env.DB.batch([
      statement('UPDATE sites'),
      statement('CREATE TRIGGER sites_currency_on_insert'),
      statement('CREATE TRIGGER sites_currency_on_update'),
    ])
    const { results } = await env.DB.prepare('SELECT slug, currency FROM sites').all<{
      slug: string
      currency: string | null
    }>()
    expect(Object.fromEntries(results.map((row) => [row.slug, row.currency]))).toMatchObject({
      int: 'EUR',
      it: 'EUR',
      ch: 'CHF',
      us: 'USD',
      mx: 'MXN',
      il: 'ILS',
      ae: 'AED',
      au: 'AUD',
      za: 'ZAR',
      ca: null,
    })
    // A site left without a currency is a data error, loud rather than priced in the wrong money.
    expect((await call('sites/ca')).status).toBe(500)
    expect((await call('sites/us')).status).toBe(200)
    await expect(env.DB.prepare(`UPDATE sites SET currency = NULL WHERE slug = 'it'`).run()).rejects.toThrow(
      /sites.currency \(ISO 4217\) is required/,
    )
    await expect(
      env.DB.prepare(
        `INSERT INTO sites (id, slug, name, country_code, region) VALUES (98, 'nz', 'New Zealand', 'NZ', 'oceania')`,
      ).run(),
    ).rejects.toThrow(/sites.currency \(ISO 4217\) is required/)
    await env.DB.prepare(`UPDATE sites SET currency = 'CAD' WHERE slug = 'ca'`).run()
    expect((await call<{ data: Site }>('sites/ca')).json.data.currency).toBe('CAD')
  })

  it("sells every existing variant wherever its product was sold, at the product's price", async () => {
    await env.DB.prepare('DELETE FROM product_variant_prices').run()
    await statement('INSERT INTO product_variant_prices').run()
    const { json } = await call<{ data: Product }>('front/products/aurora-strada-9', 'us', 'en')
    expect(json.data.variants).toHaveLength(15)
    expect(new Set(json.data.variants.map((variant) => variant.price))).toEqual(new Set([469999]))
    expect(
      (await call<{ data: Product }>('front/products/aurora-e-cargo', 'il', 'he')).json.data.variants,
    ).toHaveLength(3)
  })
})
