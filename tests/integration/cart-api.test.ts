import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { cartAnswer, type Cart } from '../../contract/cart-schemas'

type Call = { token?: string; method?: string; body?: unknown; tenant?: string; locale?: string; raw?: string }

/** Calls the embedded API in-process, as the Worker does (market `it`, Italian, unless said). */
async function call(path: string, { token, method = 'GET', body, tenant = 'it', locale = 'it', raw }: Call = {}) {
  const headers: Record<string, string> = { 'X-Tenant': tenant, 'X-Locale': locale }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined || raw !== undefined) headers['Content-Type'] = 'application/json'
  const request = new Request(`http://embedded.invalid/api/${path}`, {
    method,
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  })
  const ctx = createExecutionContext()
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env, ctx)
  const json = (await response.json().catch(() => null)) as Record<string, unknown> & { data?: unknown }
  await waitOnExecutionContext(ctx)
  return { status: response.status, json }
}

/** The cart of an answer, checked against the contract. */
const cartOf = (json: unknown): Cart => cartAnswer.parse(json).data

let keys = 0
const newKey = () => `test-key-${Date.now()}-${keys++}-abcdefgh`

/** Adds a line anonymously (a new cart when `cart` is null) and answers the call. */
const addAnon = (sku: string, quantity: number, cart: string | null = null, extra: Call = {}, key = newKey()) =>
  call('carts/items', { method: 'POST', body: { cart, sku, quantity, key }, ...extra })

async function tokenOf(email: string, password: string): Promise<string> {
  const { json } = await call('auth/login', { method: 'POST', body: { email, password } })
  return json.access_token as string
}

let giulia = ''
let lukas = ''
beforeAll(async () => {
  giulia = await tokenOf('customer@example.com', 'Demo-Rider-2026!')
  lukas = await tokenOf('second@example.com', 'Second-Rider-2026!')
})

describe('the anonymous cart API', () => {
  it('creates a cart under a random code on the first add, priced by the server in the market, with the names in its language', async () => {
    const { status, json } = await addAnon('STR9-M-RED', 1)
    expect(status).toBe(201)
    const cart = cartOf(json)
    expect(cart.code).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(cart.currency).toBe('EUR')
    expect(cart.lines).toEqual([
      expect.objectContaining({
        sku: 'STR9-M-RED',
        quantity: 1,
        unit_price: 429000,
        line_total: 429000,
        available: true,
        stock: 25,
        product: expect.objectContaining({ name: 'Aurora Strada 9', slug: 'aurora-strada-9' }),
        variant: { size: 'M', colour: 'red', colour_name: 'Rosso' },
      }),
    ])
    expect(cart.item_count).toBe(1)
    expect(cart.subtotal).toBe(429000)
  })

  it("ignores any amount the caller sends: the line is priced from the variant's market price", async () => {
    const { json } = await call('carts/items', {
      method: 'POST',
      body: { cart: null, sku: 'STR9-M-RED', quantity: 1, key: newKey(), unit_price: 1, subtotal: 1 },
    })
    expect(cartOf(json).lines[0]?.unit_price).toBe(429000)
  })

  it('adds once per idempotency key: the same key again with the same cart answers it unchanged', async () => {
    const key = newKey()
    const first = cartOf((await addAnon('STR9-M-RED', 2, null, {}, key)).json)
    const again = await addAnon('STR9-M-RED', 2, first.code, {}, key)
    expect(again.status).toBe(200)
    expect(cartOf(again.json)).toMatchObject({ code: first.code, item_count: 2 })
  })

  it('never hands a cart to a caller who does not send it: a known key without that cart is 409 key_reused, the cart left as it was', async () => {
    const key = newKey()
    const first = cartOf((await addAnon('STR9-M-RED', 1, null, {}, key)).json)
    // Another browser given the same key (the same kept page), with no cart of its own yet.
    const stranger = await addAnon('STR9-L-RED', 1, null, {}, key)
    expect(stranger.status).toBe(409)
    expect(stranger.json.code).toBe('key_reused')
    expect(JSON.stringify(stranger.json)).not.toContain(first.code)
    // Or with a cart of its own.
    const other = cartOf((await addAnon('STR9-M-RED', 1)).json)
    const { status, json } = await addAnon('STR9-M-RED', 1, other.code, {}, key)
    expect(status).toBe(409)
    expect(json.code).toBe('key_reused')
    // Two callers without a cart sending one key at the same moment: one cart is made, the other caller is refused.
    const shared = newKey()
    const both = await Promise.all([
      addAnon('STR9-M-RED', 1, null, {}, shared),
      addAnon('STR9-L-RED', 2, null, {}, shared),
    ])
    expect(both.map(({ status }) => status).sort()).toEqual([201, 409])
    const made = both.find(({ status }) => status === 201)!
    expect(cartOf(made.json).lines).toHaveLength(1)
    expect(both.find(({ status }) => status === 409)?.json.code).toBe('key_reused')
    expect(cartOf((await call(`carts/${first.code}`)).json)).toMatchObject({
      item_count: 1,
      lines: [expect.objectContaining({ sku: 'STR9-M-RED', quantity: 1 })],
    })
  })

  it('adds up quantities of the same variant, changes and removes lines', async () => {
    const { code } = cartOf((await addAnon('STR9-M-RED', 1)).json)
    expect(cartOf((await addAnon('STR9-M-RED', 2, code)).json).lines[0]?.quantity).toBe(3)
    const changed = await call(`carts/${code}/items/STR9-M-RED`, { method: 'PUT', body: { quantity: 5 } })
    expect(changed.status).toBe(200)
    expect(cartOf(changed.json)).toMatchObject({ item_count: 5, subtotal: 5 * 429000 })
    const removed = await call(`carts/${code}/items/STR9-M-RED`, { method: 'DELETE' })
    expect(cartOf(removed.json)).toMatchObject({ lines: [], item_count: 0, subtotal: 0, total: 0 })
    expect((await call(`carts/${code}/items/STR9-M-RED`, { method: 'DELETE' })).status).toBe(404)
  })

  it('refuses variants that cannot be bought, with a code: not sold in the market, out of stock, not enough left', async () => {
    const notSold = await addAnon('ECRG-OS-SND', 1, null, { tenant: 'il', locale: 'he' })
    expect(notSold.status).toBe(422)
    expect(notSold.json.code).toBe('variant_not_sold')
    const unknown = await addAnon('NO-SUCH-SKU', 1)
    expect(unknown.json.code).toBe('variant_not_sold')
    const soldOut = await addAnon('STR9-XL-RED', 1)
    expect(soldOut.status).toBe(409)
    expect(soldOut.json.code).toBe('out_of_stock')
    const few = await addAnon('STR9-XS-RED', 4)
    expect(few.status).toBe(409)
    expect(few.json.code).toBe('not_enough_stock')
    const { code } = cartOf((await addAnon('STR9-XS-RED', 3)).json)
    expect((await call(`carts/${code}/items/STR9-XS-RED`, { method: 'PUT', body: { quantity: 4 } })).json.code).toBe(
      'not_enough_stock',
    )
  })

  it('has no carts in a market that does not sell online', async () => {
    expect((await addAnon('STR9-M-RED', 1, null, { tenant: 'mx', locale: 'es' })).status).toBe(404)
  })

  it("never answers a cart to another market, a customer's cart by its code, or a malformed code", async () => {
    const { code } = cartOf((await addAnon('STR9-M-RED', 1)).json)
    expect((await call(`carts/${code}`)).status).toBe(200)
    expect((await call(`carts/${code}`, { tenant: 'ch', locale: 'de' })).status).toBe(404)
    expect((await addAnon('STR9-M-RED', 1, code, { tenant: 'de', locale: 'de' })).status).toBe(404)
    const own = cartOf(
      (
        await call('account/cart/items', {
          method: 'POST',
          token: lukas,
          body: { sku: 'STR9-M-RED', quantity: 1, key: newKey() },
        })
      ).json,
    )
    expect((await call(`carts/${own.code}`)).status).toBe(404)
    expect((await call('carts/not-a-code')).status).toBe(404)
  })

  it('is not served by the public /api/ at all', async () => {
    const { code } = cartOf((await addAnon('STR9-M-RED', 1)).json)
    const { SELF } = await import('cloudflare:test')
    const response = await SELF.fetch(`https://site.test/api/carts/${code}`, { headers: { 'X-Tenant': 'it' } })
    expect(response.status).toBe(404)
  })
})

describe('VAT and delivery per market', () => {
  it('in Italy: prices include 22 % VAT, delivery €9.90 below €150 and free from it', async () => {
    const small = cartOf((await addAnon('POMP-OS-GRY', 1)).json)
    expect(small).toMatchObject({
      subtotal: 2990,
      shipping: { price: 990, free_from: 15000, days: [2, 4] },
      total: 3980,
    })
    expect(small.vat).toEqual({ rate: 2200, included: true, amount: Math.round((3980 * 2200) / 12200) })
    const bike = cartOf((await addAnon('STR9-M-RED', 1)).json)
    expect(bike).toMatchObject({ subtotal: 429000, shipping: { price: 0 }, total: 429000 })
    expect(bike.vat.amount).toBe(Math.round((429000 * 2200) / 12200))
  })

  it('in the US: in dollars, sales tax not included and worked out at checkout', async () => {
    const cart = cartOf((await addAnon('STR9-M-RED', 1, null, { tenant: 'us', locale: 'en' })).json)
    expect(cart).toMatchObject({
      currency: 'USD',
      subtotal: 469999,
      total: 469999,
      vat: { rate: null, included: false, amount: null },
    })
  })

  it('in Switzerland, Israel and the Emirates: their currency and their VAT, included', async () => {
    const ch = cartOf((await addAnon('STR9-M-RED', 1, null, { tenant: 'ch', locale: 'fr' })).json)
    expect(ch).toMatchObject({ currency: 'CHF', subtotal: 439000, vat: { rate: 810, included: true } })
    expect(ch.lines[0]?.variant.colour_name).toBe('Rouge')
    const il = cartOf((await addAnon('STR9-M-RED', 1, null, { tenant: 'il', locale: 'he' })).json)
    expect(il).toMatchObject({ currency: 'ILS', subtotal: 1839000, vat: { rate: 1800, included: true } })
    const ae = cartOf((await addAnon('STR9-M-RED', 1, null, { tenant: 'ae', locale: 'ar' })).json)
    expect(ae).toMatchObject({
      currency: 'AED',
      subtotal: 1799900,
      vat: { rate: 500, included: true, amount: Math.round((1799900 * 500) / 10500) },
    })
  })
})

describe("the customer's cart API", () => {
  it('answers 401 without a valid token', async () => {
    for (const [method, path] of [
      ['GET', 'account/cart'],
      ['POST', 'account/cart/items'],
      ['PUT', 'account/cart/items/X'],
      ['DELETE', 'account/cart/items/X'],
      ['POST', 'account/cart/merge'],
    ] as const) {
      expect((await call(path, { method, body: method === 'GET' ? undefined : {} })).status, path).toBe(401)
    }
  })

  it('keeps one cart per customer and market', async () => {
    const inItaly = cartOf(
      (
        await call('account/cart/items', {
          method: 'POST',
          token: giulia,
          body: { sku: 'LUCE-OS-BLK', quantity: 1, key: newKey() },
        })
      ).json,
    )
    const again = cartOf(
      (
        await call('account/cart/items', {
          method: 'POST',
          token: giulia,
          body: { sku: 'LUCE-OS-WHT', quantity: 1, key: newKey() },
        })
      ).json,
    )
    expect(again.code).toBe(inItaly.code)
    const inSwitzerland = cartOf(
      (
        await call('account/cart/items', {
          method: 'POST',
          token: giulia,
          tenant: 'ch',
          locale: 'de',
          body: { sku: 'LUCE-OS-BLK', quantity: 1, key: newKey() },
        })
      ).json,
    )
    expect(inSwitzerland.code).not.toBe(inItaly.code)
    expect(inSwitzerland.currency).toBe('CHF')
    expect(cartOf((await call('account/cart', { token: giulia })).json).code).toBe(inItaly.code)
  })

  it('merges an anonymous cart at login: quantities added up and capped by the stock, the anonymous cart deleted, its code kept', async () => {
    const customer = await tokenOf('second@example.com', 'Second-Rider-2026!')
    await call('account/cart/items', {
      method: 'POST',
      token: customer,
      body: { sku: 'STR9-XS-RED', quantity: 2, key: newKey() },
    })
    const anonymous = cartOf((await addAnon('STR9-XS-RED', 3)).json)
    await addAnon('BLOC-OS-ORA', 1, anonymous.code)
    const { status, json } = await call('account/cart/merge', {
      method: 'POST',
      token: customer,
      body: { cart: anonymous.code },
    })
    expect(status).toBe(200)
    const merged = cartOf(json)
    expect(merged.code).toBe(anonymous.code)
    expect(merged.lines.find((line) => line.sku === 'STR9-XS-RED')?.quantity).toBe(3)
    expect(merged.lines.find((line) => line.sku === 'BLOC-OS-ORA')?.quantity).toBe(1)
    expect((await call(`carts/${anonymous.code}`)).status).toBe(404)
    expect(cartOf((await call('account/cart', { token: customer })).json).code).toBe(anonymous.code)
    expect(
      (await call('account/cart/merge', { method: 'POST', token: customer, body: { cart: anonymous.code } })).status,
    ).toBe(404)
  })

  it("never merges another market's anonymous cart", async () => {
    const swiss = cartOf((await addAnon('STR9-M-RED', 1, null, { tenant: 'ch', locale: 'de' })).json)
    expect(
      (await call('account/cart/merge', { method: 'POST', token: giulia, body: { cart: swiss.code } })).status,
    ).toBe(404)
  })
})

describe('bad input', () => {
  it('answers 422 to malformed bodies and never 5xx to fuzzed ones', async () => {
    expect((await call('carts/items', { method: 'POST', raw: '{not json' })).status).toBe(422)
    expect(
      (await call('carts/items', { method: 'POST', body: { sku: 'STR9-M-RED', quantity: 0, key: newKey() } })).status,
    ).toBe(422)
    expect(
      (await call('carts/items', { method: 'POST', body: { sku: 'STR9-M-RED', quantity: 11, key: newKey() } })).status,
    ).toBe(422)
    expect(
      (await call('carts/items', { method: 'POST', body: { sku: 'STR9-M-RED', quantity: 1, key: 'short' } })).status,
    ).toBe(422)
    const { code } = cartOf((await addAnon('STR9-M-RED', 1)).json)
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.string(), async (body, sku) => {
        for (const path of ['carts/items', `carts/${code}/items/${encodeURIComponent(sku) || 'x'}`]) {
          const { status } = await call(path, {
            method: path === 'carts/items' ? 'POST' : 'PUT',
            raw: JSON.stringify(body) ?? 'null',
          })
          expect(status).toBeLessThan(500)
        }
      }),
      { numRuns: 40 },
    )
  })
})
