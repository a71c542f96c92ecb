import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../src/api'
import type { ProductSummary } from '../../src/upstream/catalogue-schemas'
import { visit } from '../fixtures/worker'

type Listing = { data: ProductSummary[]; meta: { page: number; per_page: number; total: number } }

/** Calls the embedded API in-process for a market, as the Worker does. */
async function call<T>(path: string, country = 'it', locale = 'it'): Promise<{ status: number; json: T }> {
  const request = new Request(`http://embedded.invalid/api/${path}`, { headers: { 'X-Tenant': country, 'X-Locale': locale } })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return { status: response.status, json: (await response.json()) as T }
}

const slugs = (listing: Listing) => listing.data.map((product) => product.slug)

describe('GET api/front/products', () => {
  it('lists every type the market sells when no type is asked for, on the public /api/ too', async () => {
    const { status, json } = await call<Listing>('front/products?per_page=50')
    expect(status).toBe(200)
    expect(new Set(json.data.map((product) => product.type.slug))).toEqual(new Set(['bikes', 'e-bikes', 'accessories']))
    const perType = await Promise.all(['bikes', 'e-bikes', 'accessories'].map((type) => call<Listing>(`front/products?type=${type}&per_page=50`)))
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
    expect(none.json).toEqual({ data: [], meta: { page: 1, per_page: 24, total: 0 } })
  })

  it('pages with and without a type: pages do not overlap, the total stays, a page past the end is empty', async () => {
    for (const type of ['', '&type=bikes']) {
      const all = await call<Listing>(`front/products?per_page=50${type}`)
      const first = await call<Listing>(`front/products?per_page=3&page=1${type}`)
      const second = await call<Listing>(`front/products?per_page=3&page=2${type}`)
      expect(first.json.meta).toEqual({ page: 1, per_page: 3, total: all.json.meta.total })
      expect(second.json.meta).toEqual({ page: 2, per_page: 3, total: all.json.meta.total })
      expect([...slugs(first.json), ...slugs(second.json)]).toEqual(slugs(all.json).slice(0, 6))
      const past = await call<Listing>(`front/products?per_page=3&page=99${type}`)
      expect(past.status).toBe(200)
      expect(past.json.data).toEqual([])
    }
  })

  it.each(['type=E-Bikes', 'type=', 'type=%27%20OR%201', 'page=0', 'per_page=51', 'page=x'])('answers 422 for a malformed %s', async (query) => {
    const { status, json } = await call<{ message: string }>(`front/products?${query}`)
    expect(status).toBe(422)
    expect(json.message).toMatch(/must be/)
  })
})
