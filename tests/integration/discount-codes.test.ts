import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { type DiscountRule, discountAmountOf, discountRefusalOf } from '../../reference-api/discounts'
import { type Cart, cartAnswer } from '../../contract/cart-schemas'
import { type Checkout, checkoutAnswer } from '../../contract/checkout-schemas'
import { orderAnswer } from '../../contract/account-schemas'
import { staffDiscountCodeAnswer, staffDiscountCodeListAnswer } from '../../contract/discount-schemas'
import { demoStaff, forgetUsedCode, totpCode } from '../fixtures/console'

/**
 * Discount codes (issue 28, item 6; docs/decisions/051) through the reference API in-process, as the Worker calls it:
 * the rules at their edges, in EUR, CHF, USD with sales tax, AED and ILS; the last use taken once by two placements at
 * once; a code that expired between the review and the placement refused there.
 */

type Market = { tenant: string; locale: string }
const IT: Market = { tenant: 'it', locale: 'it' }
const CH: Market = { tenant: 'ch', locale: 'de' }
const US: Market = { tenant: 'us', locale: 'en' }
const AE: Market = { tenant: 'ae', locale: 'ar' }
const IL: Market = { tenant: 'il', locale: 'he' }

type Call = { token?: string; method?: string; body?: unknown } & Partial<Market>

/** Calls the embedded API in-process (market `it`, Italian, unless said). */
async function call(path: string, { token, method = 'GET', body, tenant = 'it', locale = 'it' }: Call = {}) {
  const headers: Record<string, string> = { 'X-Tenant': tenant, 'X-Locale': locale }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const request = new Request(`http://embedded.invalid/api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const ctx = createExecutionContext()
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env, ctx)
  const json = (await response.json().catch(() => null)) as Record<string, unknown> & {
    code?: string
    errors?: Record<string, string[]>
  }
  await waitOnExecutionContext(ctx)
  return { status: response.status, json }
}

async function tokenOf(email: string, password: string): Promise<string> {
  const { json } = await call('auth/login', { method: 'POST', body: { email, password } })
  return json.access_token as string
}

let keys = 0
const newKey = () => `discount-key-${Date.now()}-${keys++}-abcdefgh`

/** The customer's cart of a market, emptied of earlier lines, choices and orders, then filled: its code. */
async function freshCart(token: string, lines: Record<string, number>, market: Market = IT): Promise<string> {
  const { id } = (await call('account/profile', { token, ...market })).json.data as { id: number }
  await env.DB.prepare('DELETE FROM carts WHERE user_id = ? AND site = ?').bind(id, market.tenant).run()
  let code = ''
  for (const [sku, quantity] of Object.entries(lines)) {
    const { status, json } = await call('account/cart/items', {
      token,
      method: 'POST',
      body: { sku, quantity, key: newKey() },
      ...market,
    })
    expect(status, sku).toBeLessThan(300)
    code = cartAnswer.parse(json).data.code
  }
  return code
}

const apply = (token: string, code: string, market: Market = IT) =>
  call('account/cart/discount', { token, method: 'PUT', body: { code }, ...market })
const cartOf = (json: unknown): Cart => cartAnswer.parse(json).data
const checkoutOf = (json: unknown): Checkout => checkoutAnswer.parse(json).data

/** A new address in each market's country (home delivery goes only there); the US one in California. */
const ADDRESS = {
  first_name: 'Giulia',
  last_name: 'Rossi',
  line1: 'Via Tasso 8',
  postal_code: '24121',
  city: 'Bergamo',
  country_code: 'IT',
  phone: '+39 035 555 0199',
}
const ADDRESS_IN: Record<string, Record<string, string>> = {
  it: ADDRESS,
  ch: { ...ADDRESS, line1: 'Bahnhofstrasse 1', postal_code: '8001', city: 'Zürich', country_code: 'CH' },
  us: {
    ...ADDRESS,
    line1: '500 Market St',
    postal_code: '94105',
    city: 'San Francisco',
    region: 'CA',
    country_code: 'US',
  },
  // The UAE has no postcode but an emirate (docs/decisions/058).
  ae: { ...ADDRESS, line1: 'Sheikh Zayed Rd 1', postal_code: '', city: 'Dubai', region: 'Dubai', country_code: 'AE' },
  il: { ...ADDRESS, line1: 'Rothschild Blvd 1', postal_code: '6688101', city: 'Tel Aviv', country_code: 'IL' },
}

/** The checkout of a cart after choosing home delivery to a new address of the market's country, paying by card. */
async function reviewed(token: string, code: string, market: Market = IT): Promise<Checkout> {
  const { status, json } = await call(`account/checkout/${code}`, {
    token,
    method: 'PUT',
    body: {
      delivery: { method: 'home' },
      shipping_address: { address: ADDRESS_IN[market.tenant] },
      billing_address: null,
      payment_method: 'card',
    },
    ...market,
  })
  expect(status, JSON.stringify(json)).toBe(200)
  return checkoutOf(json)
}

const place = (token: string, code: string, reviewKey: string, market: Market = IT) =>
  call(`account/checkout/${code}/orders`, { token, method: 'POST', body: { review_key: reviewKey }, ...market })

let codes = 0
/** A discount code of a market, stored as the console's call stores it (the staff API itself is tested below). */
async function discountCode(site: string, rule: Partial<Omit<DiscountRule, 'id' | 'code'>> = {}): Promise<string> {
  const code = `TEST${Date.now().toString(36).toUpperCase()}${codes++}`
  await env.DB.prepare(
    `INSERT INTO discount_codes (site, code, kind, value, minimum_subtotal, valid_from, valid_until, usage_limit, per_customer_limit, active)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      site,
      code,
      rule.kind ?? 'percentage',
      rule.value ?? 1000,
      rule.minimum_subtotal ?? 0,
      rule.valid_from ?? null,
      rule.valid_until ?? null,
      rule.usage_limit ?? null,
      rule.per_customer_limit ?? null,
      rule.active ?? 1,
    )
    .run()
  return code
}

const iso = (offsetSeconds: number) =>
  new Date(Date.now() + offsetSeconds * 1000).toISOString().replace(/\.[0-9]+Z$/, 'Z')
const vatIncluded = (amount: number, rate: number) => Math.round((amount * rate) / (10_000 + rate))

let giulia = ''
let lukas = ''
beforeAll(async () => {
  giulia = await tokenOf('customer@example.com', 'Demo-Rider-2026!')
  lukas = await tokenOf('second@example.com', 'Second-Rider-2026!')
})

describe('the rules at their edges', () => {
  const rule: DiscountRule = {
    id: 1,
    code: 'EDGE',
    kind: 'percentage',
    value: 1500,
    minimum_subtotal: 10_000,
    valid_from: '2026-12-01T00:00:00Z',
    valid_until: '2026-12-24T00:00:00Z',
    usage_limit: 3,
    per_customer_limit: 1,
    active: 1,
  }
  const none = { total: 0, customer: 0 }

  it('applies from its first second (valid_from counts) to the second before valid_until (which does not)', () => {
    expect(discountRefusalOf(rule, 10_000, '2026-11-30T23:59:59Z', none)).toBe('discount_not_yet')
    expect(discountRefusalOf(rule, 10_000, '2026-12-01T00:00:00Z', none)).toBeNull()
    expect(discountRefusalOf(rule, 10_000, '2026-12-23T23:59:59Z', none)).toBeNull()
    expect(discountRefusalOf(rule, 10_000, '2026-12-24T00:00:00Z', none)).toBe('discount_expired')
  })

  it('applies at its minimum subtotal, not one minor unit below', () => {
    expect(discountRefusalOf(rule, 9_999, '2026-12-10T00:00:00Z', none)).toBe('discount_minimum')
    expect(discountRefusalOf(rule, 10_000, '2026-12-10T00:00:00Z', none)).toBeNull()
  })

  it('applies until its last use in all and per customer, then no more; a disabled code is unknown', () => {
    const at = '2026-12-10T00:00:00Z'
    expect(discountRefusalOf(rule, 10_000, at, { total: 2, customer: 0 })).toBeNull()
    expect(discountRefusalOf(rule, 10_000, at, { total: 3, customer: 0 })).toBe('discount_used_up')
    expect(discountRefusalOf(rule, 10_000, at, { total: 1, customer: 1 })).toBe('discount_used_by_you')
    expect(discountRefusalOf({ ...rule, active: 0 }, 10_000, at, none)).toBe('discount_unknown')
    expect(discountRefusalOf(null, 10_000, at, none)).toBe('discount_unknown')
  })

  it('rounds a percentage once to the minor unit (half up) and never takes off more than the subtotal', () => {
    expect(discountAmountOf({ kind: 'percentage', value: 1500 }, 2990)).toBe(449) // 448.5
    expect(discountAmountOf({ kind: 'percentage', value: 1500 }, 2989)).toBe(448) // 448.35
    expect(discountAmountOf({ kind: 'percentage', value: 333 }, 1)).toBe(0)
    expect(discountAmountOf({ kind: 'percentage', value: 10_000 }, 2990)).toBe(2990)
    expect(discountAmountOf({ kind: 'amount', value: 5000 }, 2990)).toBe(2990)
  })
})

describe('applying a code to a cart', () => {
  it('refuses a code one minor unit below its minimum subtotal (422 discount_minimum) and applies it at the minimum', async () => {
    await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const below = await discountCode('it', { minimum_subtotal: 2991 })
    const refused = await apply(giulia, below)
    expect(refused.status).toBe(422)
    expect(refused.json.code).toBe('discount_minimum')
    expect(refused.json.errors).toEqual({ code: ['discount_minimum'] })
    const at = await discountCode('it', { minimum_subtotal: 2990 })
    const { status, json } = await apply(giulia, at.toLowerCase())
    expect(status).toBe(200)
    expect(cartOf(json).discount).toEqual({
      code: at,
      kind: 'percentage',
      value: 1000,
      amount: 299,
      minimum_subtotal: 2990,
      refusal: null,
    })
  })

  it('refuses a code before its start (discount_not_yet), after its end (discount_expired), disabled or of another market (discount_unknown)', async () => {
    await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    expect((await apply(giulia, await discountCode('it', { valid_from: iso(60) }))).json.code).toBe('discount_not_yet')
    expect((await apply(giulia, await discountCode('it', { valid_until: iso(-1) }))).json.code).toBe('discount_expired')
    expect((await apply(giulia, await discountCode('it', { active: 0 }))).json.code).toBe('discount_unknown')
    expect((await apply(giulia, await discountCode('ch'))).json.code).toBe('discount_unknown')
    expect((await apply(giulia, 'NO SUCH CODE')).json.code).toBe('discount_unknown')
    const open = await apply(giulia, await discountCode('it', { valid_from: iso(-1), valid_until: iso(60) }))
    expect(open.status).toBe(200)
  })

  it('keeps a code whose minimum the cart falls below, taking nothing off and saying why; the review sends the cart back', async () => {
    const cart = await freshCart(giulia, { 'POMP-OS-GRY': 2 })
    const code = await discountCode('it', { minimum_subtotal: 5000 })
    expect((await apply(giulia, code)).status).toBe(200)
    const { json } = await call('account/cart/items/POMP-OS-GRY', {
      token: giulia,
      method: 'PUT',
      body: { quantity: 1 },
    })
    expect(cartOf(json).discount).toMatchObject({ code, amount: 0, refusal: 'discount_minimum' })
    expect(cartOf(json).total).toBe(2990 + 990)
    const checkout = await reviewed(giulia, cart)
    const refused = await place(giulia, cart, checkout.review_key)
    expect(refused.status).toBe(409)
    expect(refused.json).toMatchObject({ code: 'discount_unavailable', errors: { discount: ['discount_minimum'] } })
  })
})

describe('the discount and VAT or sales tax, per currency', () => {
  // 15 % of one pump (29.90 in EUR…) rounds half up once; the VAT included is what is left's, in proportion.
  for (const market of [IT, CH, AE, IL]) {
    it(`${market.tenant}-${market.locale}: takes 15 % off the items, the VAT included on what is paid`, async () => {
      const cart = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, market)
      const code = await discountCode(market.tenant, { value: 1500 })
      const applied = cartOf((await apply(giulia, code, market)).json)
      const off = Math.round((applied.subtotal * 1500) / 10_000)
      expect(applied.discount?.amount).toBe(off)
      const checkout = await reviewed(giulia, cart, market)
      const { items, delivery, vat } = checkout.amounts
      expect(checkout.amounts.discount).toBe(off)
      expect(vat.included).toBe(true)
      expect(vat.amount).toBe(vatIncluded(items - off + delivery, vat.rate ?? 0))
      expect(checkout.amounts.total).toBe(items - off + delivery)
    })
  }

  it('us-en, USD: the sales tax worked out after the discount (California 7.25 %)', async () => {
    const cart = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, US)
    const code = await discountCode('us', { kind: 'amount', value: 500 })
    expect(cartOf((await apply(giulia, code, US)).json).discount?.amount).toBe(500)
    const { amounts } = await reviewed(giulia, cart, US)
    const taxed = amounts.items - 500 + amounts.delivery
    expect(amounts).toMatchObject({
      discount: 500,
      vat: { rate: 725, included: false, amount: Math.round(taxed * 0.0725) },
    })
    expect(amounts.total).toBe(taxed + Math.round(taxed * 0.0725))
  })

  it('never makes a total negative: an amount above the subtotal takes the subtotal off, delivery is still paid', async () => {
    await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const cart = cartOf((await apply(giulia, await discountCode('it', { kind: 'amount', value: 100_000 }))).json)
    expect(cart.discount?.amount).toBe(2990)
    expect(cart.total).toBe(990)
    expect(cart.vat.amount).toBe(vatIncluded(990, 2200))
  })
})

describe('placing with a code', () => {
  it('stores the discount on the order, which the customer sees', async () => {
    const cart = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const code = await discountCode('it', { value: 2000 })
    await apply(giulia, code)
    const checkout = await reviewed(giulia, cart)
    const placed = await place(giulia, cart, checkout.review_key)
    expect(placed.status).toBe(201)
    const order = (placed.json.data as { code: string; total: number }) ?? { code: '', total: 0 }
    expect(order.total).toBe(2990 - 598 + 990)
    const { json } = await call(`account/orders/${order.code}`, { token: giulia })
    expect(orderAnswer.parse(json).data).toMatchObject({
      subtotal: 2990,
      discount: { code, amount: 598 },
      total: 2392 + 990,
    })
  })

  it('gives the last use to one of two placements at once: the other is refused (409 discount_unavailable), no order', async () => {
    const code = await discountCode('it', { usage_limit: 1 })
    const carts = [await freshCart(giulia, { 'POMP-OS-GRY': 1 }), await freshCart(lukas, { 'POMP-OS-GRY': 1 })]
    await apply(giulia, code)
    await apply(lukas, code)
    const [first, second] = [await reviewed(giulia, carts[0] ?? ''), await reviewed(lukas, carts[1] ?? '')]
    const placed = await Promise.all([
      place(giulia, carts[0] ?? '', first.review_key),
      place(lukas, carts[1] ?? '', second.review_key),
    ])
    expect(placed.map(({ status }) => status).sort()).toEqual([201, 409])
    expect(placed.find(({ status }) => status === 409)?.json).toMatchObject({ code: 'discount_unavailable' })
    const orders = await env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE discount_code = ?')
      .bind(code)
      .first('n')
    expect(orders).toBe(1)
    // Used up now: the code is refused where it is applied.
    await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    expect((await apply(lukas, code)).json.code).toBe('discount_used_up')
  })

  it("counts a customer's own uses: once paid, a code of one use per customer is theirs no more, another's still", async () => {
    const code = await discountCode('it', { per_customer_limit: 1 })
    const cart = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    await apply(giulia, code)
    const placed = await place(giulia, cart, (await reviewed(giulia, cart)).review_key)
    expect(placed.status).toBe(201)
    // Placing again from the same cart (its payment failed, say) is not a second use.
    expect((await apply(giulia, code)).status).toBe(200)
    await env.DB.prepare("UPDATE orders SET status = 'paid', payment_state = 'paid' WHERE discount_code = ?")
      .bind(code)
      .run()
    expect((await apply(giulia, code)).json.code).toBe('discount_used_by_you')
    await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    expect((await apply(lukas, code)).status).toBe(200)
  })

  it('refuses at placement a code that expired after the review (409 discount_unavailable, discount_expired): no order at a stale price', async () => {
    const cart = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const code = await discountCode('it', { valid_until: iso(3600) })
    await apply(giulia, code)
    const checkout = await reviewed(giulia, cart)
    expect(checkout.amounts.discount).toBe(299)
    await env.DB.prepare('UPDATE discount_codes SET valid_until = ? WHERE code = ?').bind(iso(-1), code).run()
    const refused = await place(giulia, cart, checkout.review_key)
    expect(refused.status).toBe(409)
    expect(refused.json).toMatchObject({ code: 'discount_unavailable', errors: { discount: ['discount_expired'] } })
    const orders = await env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE discount_code = ?')
      .bind(code)
      .first('n')
    expect(orders).toBe(0)
  })
})

describe('staff: api/staff/discount-codes', () => {
  let token = ''
  beforeAll(async () => {
    const member = demoStaff('editor')
    await forgetUsedCode('editor')
    const { json } = await call('staff/login', {
      method: 'POST',
      body: { email: member.email, password: member.password, code: await totpCode(member.totp_secret) },
    })
    token = json.access_token as string
  })

  it('creates a code (once per market and code), lists it with its uses, disables it; editors only', async () => {
    const body = { market: 'ch', code: 'velo20', kind: 'amount', value: 2000, minimum_subtotal: 10_000 }
    const created = await call('staff/discount-codes', { token, method: 'POST', body })
    expect(created.status).toBe(201)
    const code = staffDiscountCodeAnswer.parse(created.json).data
    expect(code).toMatchObject({ market: 'ch', code: 'VELO20', kind: 'amount', value: 2000, active: true, uses: 0 })
    expect((await call('staff/discount-codes', { token, method: 'POST', body })).status).toBe(409)
    const list = staffDiscountCodeListAnswer.parse((await call('staff/discount-codes?market=ch', { token })).json).data
    expect(list.map(({ code }) => code)).toContain('VELO20')
    const disabled = await call(`staff/discount-codes/${code.id}/disable`, { token, method: 'POST', body: {} })
    expect(staffDiscountCodeAnswer.parse(disabled.json).data.active).toBe(false)
    const events = await env.DB.prepare(
      "SELECT action FROM staff_events WHERE target = 'discount:ch:VELO20' ORDER BY id",
    ).all<{ action: string }>()
    expect(events.results.map(({ action }) => action)).toEqual(['discount_created', 'discount_disabled'])
    expect((await call('staff/discount-codes')).status).toBe(401)
    expect(
      (
        await call('staff/discount-codes', {
          token,
          method: 'POST',
          body: { ...body, kind: 'percentage', value: 10_001 },
        })
      ).status,
    ).toBe(422)
  })
})
