import { env } from 'cloudflare:workers'
import { HonoRequest } from 'hono/request'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import type { ListingFacets, ProductSummary } from '../../contract/catalogue-schemas'
import {
  facetStatements,
  isRefusal,
  pageOfListing,
  readListingFilter,
} from '../../reference-api/resources/product-listing'
import { applyListingQuery, parseListingQuery } from '../../src/pages/listing-query'

type Listing = {
  data: ProductSummary[]
  meta: { page: number; per_page: number; total: number; facets: ListingFacets }
}

/** Calls the embedded API in-process for a market, as the Worker does. */
async function call<T>(path: string, country = 'it', locale = 'it'): Promise<{ status: number; json: T }> {
  const request = new Request(`http://embedded.invalid/api/${path}`, {
    headers: { 'X-Tenant': country, 'X-Locale': locale },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return { status: response.status, json: (await response.json()) as T }
}

const slugs = (products: ProductSummary[]) => products.map((product) => product.slug)

/** Every product of the market's listing, unfiltered, in the brand's order (the demo has fewer than 50). */
const everything = async (type = '') => (await call<Listing>(`front/products?per_page=50${type}`)).json.data

describe('GET api/front/products filtered, ordered and paged by the API', () => {
  it('keeps and orders what the Worker kept and ordered from the whole list, for each filter and order', async () => {
    const all = await everything()
    const queries = [
      'discipline=road',
      'discipline=road&discipline=gravel&sort=price-asc',
      'material=carbon&sort=price-desc',
      'ebike=yes&sort=newest',
      'ebike=no&stock=1',
      'min=100000&max=300000&sort=price-asc',
      'sort=newest',
    ]
    for (const text of queries) {
      const query = parseListingQuery(new URLSearchParams(text), 'EUR')
      // The API takes prices in minor units; the visitor's address in whole units.
      const api = text.replace('min=100000', 'min=10000000').replace('max=300000', 'max=30000000')
      const { status, json } = await call<Listing>(`front/products?per_page=50&${api}`)
      expect(status, text).toBe(200)
      expect(slugs(json.data), text).toEqual(slugs(applyListingQuery(all, query)))
      expect(json.meta.total, text).toBe(json.data.length)
    }
  })

  it('pages in order, the total of every page, and a page past the end empty', async () => {
    const all = await everything()
    const first = await call<Listing>('front/products?per_page=4&page=1&sort=price-asc')
    const second = await call<Listing>('front/products?per_page=4&page=2&sort=price-asc')
    const sorted = applyListingQuery(all, parseListingQuery(new URLSearchParams('sort=price-asc'), 'EUR'))
    expect(slugs([...first.json.data, ...second.json.data])).toEqual(slugs(sorted.slice(0, 8)))
    expect(second.json.meta).toMatchObject({ page: 2, per_page: 4, total: all.length })
    expect((await call<Listing>('front/products?per_page=4&page=99')).json.data).toEqual([])
  })

  it("counts each filter's values given the other filters, with and without a price bound", async () => {
    const all = await everything('&type=bikes')
    const count = (keep: (product: ProductSummary) => boolean) => all.filter(keep).length
    const { json } = await call<Listing>('front/products?type=bikes&material=carbon&discipline=road')
    const { facets } = json.meta
    expect(json.meta.total).toBe(count((p) => p.frame_material === 'carbon' && p.discipline === 'road'))
    // A discipline's count: that discipline with the material chosen (the disciplines chosen do not narrow it).
    expect(facets.discipline.gravel).toBe(count((p) => p.discipline === 'gravel' && p.frame_material === 'carbon'))
    expect(facets.discipline.road).toBe(json.meta.total)
    expect(facets.material.aluminium).toBe(count((p) => p.frame_material === 'aluminium' && p.discipline === 'road'))
    // Only the values the type has at all are offered; one the other filters empty is offered with 0.
    expect(Object.keys(facets.discipline).sort()).toEqual(
      [...new Set(all.map((p) => p.discipline).filter((value) => value != null))].sort(),
    )
    expect(Object.values(facets.material)).toContain(0)
    expect((facets.ebike.no ?? 0) + (facets.ebike.yes ?? 0)).toBe(json.meta.total)
    expect(facets.stock).toBe(count((p) => p.frame_material === 'carbon' && p.discipline === 'road' && p.in_stock))

    const priced = await call<Listing>('front/products?type=bikes&min=200000')
    expect(priced.json.meta.total).toBe(count((p) => p.price >= 200000))
    expect(priced.json.meta.facets.material.carbon).toBe(
      count((p) => p.price >= 200000 && p.frame_material === 'carbon'),
    )
    expect(priced.json.meta.facets.stock).toBe(count((p) => p.price >= 200000 && p.in_stock))
  })

  it("follows the catalogue's writes: a price, a variant's stock, a product's discipline", async () => {
    const before = await call<Listing>('front/products?type=bikes&discipline=gravel&per_page=50')
    const product = before.json.data[0]
    expect(product).toBeDefined()
    if (!product) return
    await env.DB.prepare("UPDATE products SET discipline = 'touring' WHERE id = ?").bind(product.id).run()
    const after = await call<Listing>('front/products?type=bikes&discipline=gravel&per_page=50')
    expect(slugs(after.json.data)).not.toContain(product.slug)
    expect(after.json.meta.facets.discipline.gravel).toBe((before.json.meta.facets.discipline.gravel ?? 0) - 1)
    expect(after.json.meta.facets.discipline.touring).toBe((before.json.meta.facets.discipline.touring ?? 0) + 1)

    await env.DB.prepare(
      "UPDATE product_variant_prices SET amount = 1 WHERE site = 'it' AND sku IN (SELECT sku FROM product_variants WHERE product_id = ?)",
    )
      .bind(product.id)
      .run()
    const cheapest = await call<Listing>('front/products?type=bikes&sort=price-asc&per_page=1')
    expect(cheapest.json.data[0]).toMatchObject({ slug: product.slug, price: 1 })

    await env.DB.prepare("UPDATE product_variants SET availability = 'out_of_stock' WHERE product_id = ?")
      .bind(product.id)
      .run()
    const stocked = await call<Listing>('front/products?type=bikes&stock=1&per_page=50')
    expect(slugs(stocked.json.data)).not.toContain(product.slug)

    await env.DB.prepare("DELETE FROM product_prices WHERE product_id = ? AND site = 'it'").bind(product.id).run()
    const unsold = await call<Listing>('front/products?type=bikes&per_page=50')
    expect(slugs(unsold.json.data)).not.toContain(product.slug)
    expect(unsold.json.meta.total).toBe(unsold.json.data.length)
  })

  it('refuses a wrong parameter by name (422), whatever it is', async () => {
    for (const [query, name] of [
      ['discipline=moon', 'discipline'],
      ['material=wood', 'material'],
      ['ebike=maybe', 'ebike'],
      ['min=-5', 'min'],
      ['max=1e9', 'max'],
      ['stock=yes', 'stock'],
      ['sort=random', 'sort'],
      ['type=Bikes%20!', 'type'],
    ]) {
      const { status, json } = await call<{ message: string }>(`front/products?${query}`)
      expect(status, query).toBe(422)
      expect(json.message, query).toMatch(new RegExp(`^${name} must be`))
    }
  })
})

describe("a listing's rows read do not grow with the catalogue", () => {
  /** D1's own count of the rows the listing's statements read, run as the API runs them. */
  async function rowsRead(query: string): Promise<{ page: number; facets: number }> {
    const request = new Request(`http://embedded.invalid/api/front/products?${query}`, {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
    })
    const c = { req: new HonoRequest(request) } as unknown as Parameters<typeof readListingFilter>[0]
    const filter = readListingFilter(c)
    if (isRefusal(filter)) throw new Error(filter.name)
    const page = pageOfListing(filter, 24, 0)
    const [ids, ...counts] = await env.DB.batch([
      env.DB.prepare(`SELECT product_id FROM (${page.sql}) WHERE ?1 IS NOT NULL`).bind('it', 'it', ...page.args),
      ...facetStatements(filter).map(({ sql, args }) => env.DB.prepare(sql).bind('it', 'it', ...args)),
    ])
    return {
      page: ids?.meta.rows_read ?? 0,
      facets: counts.reduce((sum, answer) => sum + (answer.meta.rows_read ?? 0), 0),
    }
  }

  it('reads a page of rows and the same few dozen counts after 600 more bikes, not the 600', async () => {
    const queries = ['type=bikes', 'discipline=road&material=carbon', 'type=bikes&stock=1&sort=price-asc']
    const before = await Promise.all(queries.map(rowsRead))
    const grow = (from: number) =>
      env.DB.prepare(
        `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 + 199)
         INSERT INTO products (id, type_id, slug, featured, position, discipline, frame_material, electric, released_on)
         SELECT 100000 + i, (SELECT id FROM product_types WHERE slug = 'bikes'), 'grown-' || i, 0, i,
                CASE i % 3 WHEN 0 THEN 'road' WHEN 1 THEN 'gravel' ELSE 'city' END,
                CASE i % 2 WHEN 0 THEN 'carbon' ELSE 'aluminium' END, 0, '2020-01-01' FROM n`,
      )
        .bind(from)
        .run()
    for (const from of [0, 200, 400]) await grow(from)
    await env.DB.prepare(
      "INSERT INTO product_prices (product_id, site, amount) SELECT id, 'it', 100000 + id FROM products WHERE id > 100000",
    ).run()
    expect((await call<Listing>('front/products?type=bikes&per_page=1')).json.meta.total).toBeGreaterThan(600)

    for (const [index, query] of queries.entries()) {
      const read = await rowsRead(query)
      // The counts read the combinations of values (a few new ones at most), never the products.
      expect(read.facets, query).toBeLessThanOrEqual((before[index]?.facets ?? 0) + 40)
      // The page reads its own rows and those its filters skip on the way, never the 600.
      expect(read.page, query).toBeLessThan(24 * 8)
    }
  })
})
