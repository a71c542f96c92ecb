import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { PICKUP_DEALERS } from '../../src/pages/checkout/checkout-form'
import { RIDE_DEALERS } from '../../src/pages/lead-forms/test-ride'
import { DEMO, formPost, logIn, visitAs } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

/**
 * The forms' dealer choices at a brand's size (docs/decisions/071): the test ride's list and the pick-up's are the
 * nearest dealers found by their grid cells, not the market's whole list, and the one a link names or the customer
 * chose stays offered wherever it is; the API's list by name is read a page at a time through its index.
 */

/** Dealers of the Italian market around its centre (42.5, 12.5), more than either form offers; all sell and ride. */
const CROWD = Array.from({ length: 80 }, (_, i) => ({
  slug: `umbria-${String(i).padStart(2, '0')}`,
  lat: 42.5 + ((i % 9) - 4) * 0.03,
  lng: 12.5 + (Math.floor(i / 9) - 4) * 0.03,
}))
const OPEN = JSON.stringify([
  ['09:00-19:00'],
  ['09:00-19:00'],
  ['09:00-19:00'],
  ['09:00-19:00'],
  ['09:00-19:00'],
  [],
  [],
])

beforeAll(async () => {
  await env.DB.batch(
    CROWD.map((d) =>
      env.DB.prepare(
        `INSERT INTO dealers (slug, site, name, address, city, country_code, lat, lng, sales, service, test_rides, hours)
         VALUES (?, 'it', ?, 'Via Roma 1', 'Perugia', 'IT', ?, ?, 1, 1, 1, ?)`,
      ).bind(d.slug, `Umbria ${d.slug.slice(-2)}`, d.lat, d.lng, OPEN),
    ),
  )
  await clearCaches()
})

/** The values of the test ride's dealer options, in order, and the one selected. */
function rideDealers(html: string) {
  const select = /<select[^>]*name="dealer"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? ''
  const options = [...select.matchAll(/<option value="([^"]+)"( selected="")?/g)]
  return { values: options.map((m) => m[1]), selected: options.find((m) => m[2])?.[1] ?? null }
}

/** The pick-up's dealers, in order. */
const pickupDealers = (html: string) =>
  [...html.matchAll(/<input[^>]*type="radio" name="dealer"[^>]*>/g)].map((m) => /value="([^"]+)"/.exec(m[0])?.[1])

describe('the test ride’s dealers', () => {
  it('offers the nearest that ride, not the market’s every dealer; a dealer its link names is offered wherever it is', async () => {
    const centre = rideDealers((await visit('/it-it/prova-su-strada')).text)
    expect(centre.values).toHaveLength(RIDE_DEALERS)
    expect(centre.values).not.toContain('cicli-bergamasca')
    const named = rideDealers((await visit('/it-it/prova-su-strada?dealer=cicli-bergamasca')).text)
    expect(named.values).toContain('cicli-bergamasca')
    expect(named.selected).toBe('cicli-bergamasca')
    const bergamo = rideDealers((await visit('/it-it/prova-su-strada?near=24125')).text)
    expect(bergamo.values[0]).toBe('cicli-bergamasca')
    expect(bergamo.values.length).toBeLessThanOrEqual(RIDE_DEALERS)
  })
})

describe('the pick-up’s dealers', () => {
  it('are the nearest that sell to the customer’s address, and the one chosen stays offered', async () => {
    const giulia = await logIn(DEMO)
    const user = await env.DB.prepare('SELECT id FROM users WHERE email = ?').bind(DEMO.email).first<{ id: number }>()
    await env.DB.prepare("UPDATE carts SET user_id = NULL WHERE user_id = ? AND site = 'it'").bind(user?.id).run()
    const added = await visitAs(
      giulia,
      '/it-it/cart/items',
      formPost({ sku: 'STR9-M-RED', quantity: '1', key: `dealer-choices-${Date.now()}-abcdefghijk` }),
    )
    expect(added.status).toBe(303)
    const cart = await env.DB.prepare("SELECT code FROM carts WHERE user_id = ? AND site = 'it'")
      .bind(user?.id)
      .first<{ code: string }>()
    const page = await visitAs(giulia, `/it-it/checkout/${cart?.code}`)
    expect(page.status).toBe(200)
    // Measured from the default address in Bergamo: its dealer first, the list no longer than the pick-up offers.
    const listed = pickupDealers(page.text)
    expect(listed).toHaveLength(PICKUP_DEALERS)
    expect(listed[0]).toBe('cicli-bergamasca')
    // A dealer farther than the nearest, chosen (as the API keeps the choice), is still offered and chosen.
    const far = CROWD.at(-1)?.slug ?? ''
    expect(listed).not.toContain(far)
    const token = /<input type="hidden" name="form_token" value="([^"]+)"/.exec(page.text)?.[1] ?? ''
    const sent = await visitAs(
      giulia,
      `/it-it/checkout/${cart?.code}`,
      formPost({ form_token: token, delivery: 'pickup', dealer: far, bill_choice: '1', payment_method: '' }),
    )
    expect(sent.status).toBe(422)
    expect(pickupDealers(sent.text)).toContain(far)
    expect(sent.text).toMatch(new RegExp(`<input[^>]*name="dealer"[^>]*checked=""[^>]*value="${far}"`))
  })
})

/** The embedded API in-process, as the Worker calls it. */
async function call(path: string) {
  const ctx = createExecutionContext()
  const response = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it', Accept: 'application/json' },
    }) as Parameters<typeof api.fetch>[0],
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return (await response.json()) as { data: Array<{ slug: string }>; meta: { total: number } }
}

describe('the market’s dealers by name', () => {
  it('answers one page of them in name order with the market’s count, services asked for included', async () => {
    const { results } = await env.DB.prepare(
      "SELECT slug FROM dealers WHERE site = 'it' AND service = 1 ORDER BY name, id",
    ).all<{ slug: string }>()
    const page = await call('front/dealers?services=service&page=3&per_page=7')
    expect(page.data.map((d) => d.slug)).toEqual(results.slice(14, 21).map((d) => d.slug))
    expect(page.meta.total).toBe(results.length)
    const all = await call('front/dealers?per_page=50&page=2')
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM dealers WHERE site = 'it'").first<{ n: number }>()
    expect(all.meta.total).toBe(count?.n)
    expect(all.data).toHaveLength(Math.min(50, (count?.n ?? 0) - 50))
  })
})
