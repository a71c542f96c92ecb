import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../src/api'
import { cartAnswer } from '../../src/upstream/cart-schemas'
import { type Checkout, checkoutAnswer, type PlacedOrder, placedOrderAnswer } from '../../src/upstream/checkout-schemas'
import { paymentKeyOf } from '../../src/upstream/contract/checkout'

type Call = { token?: string; method?: string; body?: unknown; tenant?: string; locale?: string; raw?: string }

/** Calls the embedded API in-process, as the Worker does (market `it`, Italian, unless said). */
async function call(path: string, { token, method = 'GET', body, tenant = 'it', locale = 'it', raw }: Call = {}) {
  const headers: Record<string, string> = { 'X-Tenant': tenant, 'X-Locale': locale }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined || raw !== undefined) headers['Content-Type'] = 'application/json'
  const request = new Request(`http://embedded.invalid/api/${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) })
  const ctx = createExecutionContext()
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env, ctx)
  const json = (await response.json().catch(() => null)) as Record<string, unknown> & { data?: unknown; errors?: Record<string, string[]> }
  await waitOnExecutionContext(ctx)
  return { status: response.status, json }
}

const checkoutOf = (json: unknown): Checkout => checkoutAnswer.parse(json).data
const orderOf = (json: unknown): PlacedOrder => placedOrderAnswer.parse(json).data

async function tokenOf(email: string, password: string): Promise<string> {
  const { json } = await call('auth/login', { method: 'POST', body: { email, password } })
  return json.access_token as string
}

let keys = 0
const newKey = () => `checkout-key-${Date.now()}-${keys++}-abcdefgh`

/** A market as the Worker speaks for it: its site (`X-Tenant`) and language (`X-Locale`). */
type Market = { tenant: string; locale: string }
const IT: Market = { tenant: 'it', locale: 'it' }

/**
 * The customer's cart of a market, emptied of any earlier lines, choices and orders, then filled with `lines`
 * (sku → quantity): answers its code.
 */
async function freshCart(token: string, lines: Record<string, number>, market: Market = IT): Promise<string> {
  const userId = (await call('account/profile', { token, ...market })).json.data as { id: number }
  await env.DB.prepare('DELETE FROM carts WHERE user_id = ? AND site = ?').bind(userId.id, market.tenant).run()
  let code = ''
  for (const [sku, quantity] of Object.entries(lines)) {
    const { status, json } = await call('account/cart/items', { token, method: 'POST', body: { sku, quantity, key: newKey() }, ...market })
    expect(status, sku).toBeLessThan(300)
    code = cartAnswer.parse(json).data.code
  }
  return code
}

const read = (token: string, code: string, market: Market = IT) => call(`account/checkout/${code}`, { token, ...market })
const choose = (token: string, code: string, body: unknown, market: Market = IT) => call(`account/checkout/${code}`, { token, method: 'PUT', body, ...market })
const place = (token: string, code: string, reviewKey: string, market: Market = IT) =>
  call(`account/checkout/${code}/orders`, { token, method: 'POST', body: { review_key: reviewKey }, ...market })
const attempt = (token: string, orderCode: string) => call(`account/orders/${orderCode}/payment-attempts`, { token, method: 'POST', body: {} })
const record = (token: string, orderCode: string, body: unknown) => call(`account/orders/${orderCode}/payment`, { token, method: 'PUT', body })

/** A new address as the checkout form sends it. */
const NEW_ADDRESS = {
  first_name: 'Giulia', last_name: 'Rossi', line1: 'Via Tasso 8', postal_code: '24121', city: 'Bergamo', country_code: 'it', phone: '+39 035 555 0199',
}
const HOME_SAVED = { delivery: { method: 'home' }, shipping_address: { saved: 1 }, billing_address: null, payment_method: 'card' }

let giulia = ''
let lukas = ''
beforeAll(async () => {
  giulia = await tokenOf('customer@example.com', 'Demo-Rider-2026!')
  lukas = await tokenOf('second@example.com', 'Second-Rider-2026!')
})

describe('reading a checkout', () => {
  it('answers the customer\'s cart with the amounts of home delivery, both ways to pay, nothing chosen, not ready, no order', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const { status, json } = await read(giulia, code)
    expect(status).toBe(200)
    const checkout = checkoutOf(json)
    expect(checkout.code).toBe(code)
    expect(checkout.cart.lines.map((line) => line.sku)).toEqual(['POMP-OS-GRY'])
    expect(checkout.amounts).toEqual({ items: 2990, delivery: 990, vat: { rate: 2200, included: true, amount: Math.round((3980 * 2200) / 12200) }, total: 3980 })
    expect(checkout.payment_methods).toEqual(['card', 'paypal'])
    expect(checkout.choices).toEqual({ delivery: null, shipping_address: null, billing_address: null, billing_same: true, payment_method: null })
    expect(checkout.ready).toBe(false)
    expect(checkout.review_key).toMatch(/^[A-Za-z0-9_-]{44}$/)
    expect(checkout.order).toBeNull()
  })

  it('answers 404 for another customer\'s cart, an anonymous cart, another market\'s code and a malformed code', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    expect((await read(lukas, code)).status).toBe(404)
    expect((await read(giulia, code, { tenant: 'es', locale: 'es' })).status).toBe(404)
    const anonymous = cartAnswer.parse((await call('carts/items', { method: 'POST', body: { cart: null, sku: 'POMP-OS-GRY', quantity: 1, key: newKey() } })).json).data.code
    expect((await read(giulia, anonymous)).status).toBe(404)
    expect((await read(giulia, 'not-a-code')).status).toBe(404)
    expect((await read(giulia, '..%2F..%2Fcarts')).status).toBe(404)
  })

  it('answers 401 without a valid token', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    for (const [method, path] of [['GET', `account/checkout/${code}`], ['PUT', `account/checkout/${code}`], ['POST', `account/checkout/${code}/orders`], ['POST', 'account/orders/AUR-10001/payment-attempts'], ['PUT', 'account/orders/AUR-10001/payment']] as const) {
      expect((await call(path, { method, body: method === 'GET' ? undefined : {} })).status, path).toBe(401)
    }
  })
})

describe('choosing', () => {
  it('home delivery to a saved address, billed to the same: ready, the delivery address copied, billing the same', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const { status, json } = await choose(giulia, code, HOME_SAVED)
    expect(status).toBe(200)
    const checkout = checkoutOf(json)
    expect(checkout.ready).toBe(true)
    expect(checkout.choices.delivery).toEqual({ method: 'home', dealer: null })
    expect(checkout.choices.shipping_address).toMatchObject({ first_name: 'Giulia', line1: "Via Sant'Alessandro 42", postal_code: '24122', country_code: 'IT' })
    expect(checkout.choices.billing_same).toBe(true)
    expect(checkout.choices.billing_address).toEqual(checkout.choices.shipping_address)
    expect(checkout.choices.payment_method).toBe('card')
    expect(checkoutOf((await read(giulia, code)).json)).toEqual(checkout)
  })
})

describe('placing and paying', () => {
  it('places the reviewed checkout once: 201 a pending order, then 200 the same order for the same review', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const { review_key } = checkoutOf((await choose(giulia, code, HOME_SAVED)).json)
    const first = await place(giulia, code, review_key)
    expect(first.status).toBe(201)
    const order = orderOf(first.json)
    expect(order).toMatchObject({ status: 'pending_payment', payment_state: 'pending', payment_attempt: 1, payment_id: null, payment_method: 'card', currency: 'EUR', total: 3980, market: 'it-it' })
    expect(order.code).toMatch(/^AUR-[0-9A-HJKMNP-TV-Z]{6}$/)
    const again = await place(giulia, code, review_key)
    expect(again.status).toBe(200)
    expect(orderOf(again.json)).toEqual(order)
    expect(checkoutOf((await read(giulia, code)).json).order).toEqual(order)
  })

  it('records the provider\'s payment of the current attempt; a new attempt only after a failure, with a new payment key', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const { review_key } = checkoutOf((await choose(giulia, code, HOME_SAVED)).json)
    const order = orderOf((await place(giulia, code, review_key)).json)
    const pending = await attempt(giulia, order.code)
    expect(pending.status).toBe(200)
    expect(orderOf(pending.json).payment_attempt).toBe(1)
    const recorded = await record(giulia, order.code, { attempt: 1, payment_id: 'tp_111111111111111111111111' })
    expect(recorded.status).toBe(200)
    expect(orderOf(recorded.json).payment_id).toBe('tp_111111111111111111111111')
    await env.DB.prepare(`UPDATE orders SET payment_state = 'failed' WHERE code = ?`).bind(order.code).run()
    const retried = orderOf((await attempt(giulia, order.code)).json)
    expect(retried).toMatchObject({ payment_attempt: 2, payment_state: 'pending', payment_id: null, status: 'pending_payment' })
    expect(await paymentKeyOf(retried)).not.toBe(await paymentKeyOf(order))
    const stale = await record(giulia, order.code, { attempt: 1, payment_id: 'tp_111111111111111111111111' })
    expect(stale.status).toBe(409)
    expect(stale.json.code).toBe('stale_attempt')
  })
})

describe('bad input', () => {
  it('never answers 5xx to fuzzed choices', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (body) => {
        const { status } = await call(`account/checkout/${code}`, { token: giulia, method: 'PUT', raw: JSON.stringify(body) ?? 'null' })
        expect(status).toBeLessThan(500)
      }),
      { numRuns: 40 },
    )
  })
})
