import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { cartAnswer } from '../../contract/cart-schemas'
import { type Checkout, checkoutAnswer, type PlacedOrder, placedOrderAnswer } from '../../contract/checkout-schemas'
import { paymentKeyOf } from '../../contract/payment-key'
import { checkoutCalls } from '../../src/upstream/contract/checkout'
import { createUpstream } from '../../src/upstream/client'
import { UpstreamError } from '../../src/upstream/errors'
import { testProvider } from '../../src/payments/test-provider'
import { signWebhook } from '../../src/payments/signature'
import { ORIGIN, visit } from '../fixtures/worker'

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
  const json = (await response.json().catch(() => null)) as Record<string, unknown> & {
    data?: unknown
    errors?: Record<string, string[]>
  }
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

const read = (token: string, code: string, market: Market = IT) =>
  call(`account/checkout/${code}`, { token, ...market })
const choose = (token: string, code: string, body: unknown, market: Market = IT) =>
  call(`account/checkout/${code}`, { token, method: 'PUT', body, ...market })
const place = (token: string, code: string, reviewKey: string, market: Market = IT) =>
  call(`account/checkout/${code}/orders`, { token, method: 'POST', body: { review_key: reviewKey }, ...market })
const attempt = (token: string, orderCode: string) =>
  call(`account/orders/${orderCode}/payment-attempts`, { token, method: 'POST', body: {} })
const record = (token: string, orderCode: string, body: unknown) =>
  call(`account/orders/${orderCode}/payment`, { token, method: 'PUT', body })

/** A new address as the checkout form sends it. */
const NEW_ADDRESS = {
  first_name: 'Giulia',
  last_name: 'Rossi',
  line1: 'Via Tasso 8',
  postal_code: '24121',
  city: 'Bergamo',
  country_code: 'it',
  phone: '+39 035 555 0199',
}
const HOME_SAVED = {
  delivery: { method: 'home' },
  shipping_address: { saved: 1 },
  billing_address: null,
  payment_method: 'card',
}
/** Home delivery to a new address in a market's country (home delivery goes only there). */
const ADDRESS_IN = {
  es: { ...NEW_ADDRESS, line1: 'Calle Mayor 5', postal_code: '28013', city: 'Madrid', country_code: 'ES' },
  us: {
    ...NEW_ADDRESS,
    line1: '500 Market St',
    postal_code: '94105',
    city: 'San Francisco',
    region: 'CA',
    country_code: 'US',
  },
  // The UAE has no postcode: one sent along is not kept; the emirate is asked for instead.
  ae: {
    ...NEW_ADDRESS,
    line1: 'Sheikh Zayed Rd 1',
    postal_code: '',
    city: 'Dubai',
    region: 'Dubai',
    country_code: 'AE',
  },
  il: { ...NEW_ADDRESS, line1: 'Rothschild Blvd 1', postal_code: '6688101', city: 'Tel Aviv', country_code: 'IL' },
}
const homeIn = (country: keyof typeof ADDRESS_IN) => ({
  ...HOME_SAVED,
  shipping_address: { address: ADDRESS_IN[country] },
})

let giulia = ''
let lukas = ''
afterEach(() => {
  vi.restoreAllMocks()
})

beforeAll(async () => {
  giulia = await tokenOf('customer@example.com', 'Demo-Rider-2026!')
  lukas = await tokenOf('second@example.com', 'Second-Rider-2026!')
})

describe('reading a checkout', () => {
  it("answers the customer's cart with the amounts of home delivery, the market's ways to pay, nothing chosen, not ready, no order", async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const { status, json } = await read(giulia, code)
    expect(status).toBe(200)
    const checkout = checkoutOf(json)
    expect(checkout.code).toBe(code)
    expect(checkout.cart.lines.map((line) => line.sku)).toEqual(['POMP-OS-GRY'])
    expect(checkout.amounts).toEqual({
      items: 2990,
      discount: 0,
      delivery: 990,
      vat: { rate: 2200, included: true, amount: Math.round((3980 * 2200) / 12200) },
      total: 3980,
    })
    // Italy names a bank account (demo/markets.json), so it also takes bank transfers.
    expect(checkout.payment_methods).toEqual(['card', 'paypal', 'bank_transfer'])
    expect(checkout.choices).toEqual({
      delivery: null,
      shipping_address: null,
      billing_address: null,
      billing_same: true,
      payment_method: null,
    })
    expect(checkout.ready).toBe(false)
    expect(checkout.review_key).toMatch(/^[A-Za-z0-9_-]{44}$/)
    expect(checkout.order).toBeNull()
  })

  it("answers 404 for another customer's cart, an anonymous cart, another market's code and a malformed code", async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    expect((await read(lukas, code)).status).toBe(404)
    expect((await read(giulia, code, { tenant: 'es', locale: 'es' })).status).toBe(404)
    const anonymous = cartAnswer.parse(
      (
        await call('carts/items', {
          method: 'POST',
          body: { cart: null, sku: 'POMP-OS-GRY', quantity: 1, key: newKey() },
        })
      ).json,
    ).data.code
    expect((await read(giulia, anonymous)).status).toBe(404)
    expect((await read(giulia, 'not-a-code')).status).toBe(404)
    expect((await read(giulia, '..%2F..%2Fcarts')).status).toBe(404)
  })

  it('answers 404 in a market that stopped selling online to reading, choosing and placing a checkout', async () => {
    const es = { tenant: 'es', locale: 'es' }
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, es)
    const { review_key } = checkoutOf((await choose(giulia, code, homeIn('es'), es)).json)
    const settings = await env.DB.prepare(`SELECT settings FROM sites WHERE slug = 'es'`).first<string>('settings')
    await env.DB.prepare(`UPDATE sites SET settings = ? WHERE slug = 'es'`)
      .bind(JSON.stringify({ ...JSON.parse(settings ?? '{}'), sells_online: false }))
      .run()
    try {
      expect((await read(giulia, code, es)).status).toBe(404)
      expect((await choose(giulia, code, homeIn('es'), es)).status).toBe(404)
      expect((await place(giulia, code, review_key, es)).status).toBe(404)
    } finally {
      await env.DB.prepare(`UPDATE sites SET settings = ? WHERE slug = 'es'`).bind(settings).run()
    }
  })

  it('answers 401 without a valid token', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    for (const [method, path] of [
      ['GET', `account/checkout/${code}`],
      ['PUT', `account/checkout/${code}`],
      ['POST', `account/checkout/${code}/orders`],
      ['POST', 'account/orders/AUR-10001/payment-attempts'],
      ['PUT', 'account/orders/AUR-10001/payment'],
    ] as const) {
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
    expect(checkout.choices.shipping_address).toMatchObject({
      first_name: 'Giulia',
      line1: "Via Sant'Alessandro 42",
      postal_code: '24122',
      country_code: 'IT',
    })
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
    expect(order).toMatchObject({
      status: 'pending_payment',
      payment_state: 'pending',
      payment_attempt: 1,
      payment_id: null,
      payment_method: 'card',
      currency: 'EUR',
      total: 3980,
      market: 'it-it',
    })
    expect(order.code).toMatch(/^AUR-[0-9A-HJKMNP-TV-Z]{6}$/)
    const again = await place(giulia, code, review_key)
    expect(again.status).toBe(200)
    expect(orderOf(again.json)).toEqual(order)
    expect(checkoutOf((await read(giulia, code)).json).order).toEqual(order)
  })

  it("records the provider's payment of the current attempt; a new attempt only after a failure, with a new payment key", async () => {
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
    expect(retried).toMatchObject({
      payment_attempt: 2,
      payment_state: 'pending',
      payment_id: null,
      status: 'pending_payment',
    })
    expect(await paymentKeyOf(retried)).not.toBe(await paymentKeyOf(order))
    const stale = await record(giulia, order.code, { attempt: 1, payment_id: 'tp_111111111111111111111111' })
    expect(stale.status).toBe(409)
    expect(stale.json.code).toBe('stale_attempt')
  })
})

/** A checkout chosen and reviewed: its code and review key. */
async function reviewed(
  token: string,
  lines: Record<string, number>,
  choices: unknown = HOME_SAVED,
  market: Market = IT,
) {
  const code = await freshCart(token, lines, market)
  const { status, json } = await choose(token, code, choices, market)
  expect(status, JSON.stringify(json)).toBe(200)
  const checkout = checkoutOf(json)
  expect(checkout.ready).toBe(true)
  return { code, checkout }
}

const pickup = (dealer: string, billing: unknown = { saved: 1 }) => ({
  delivery: { method: 'pickup', dealer },
  billing_address: billing,
  payment_method: 'paypal',
})
const vatIncluded = (amount: number, rate: number) => Math.round((amount * rate) / (10_000 + rate))

describe('prices and VAT per market, home delivery and pick-up', () => {
  it('it-it, EUR: VAT included; home delivery €9.90 below €150; pick-up free, VAT then on the items alone', async () => {
    const home = (await reviewed(giulia, { 'POMP-OS-GRY': 1 })).checkout
    expect(home.amounts).toEqual({
      items: 2990,
      discount: 0,
      delivery: 990,
      vat: { rate: 2200, included: true, amount: vatIncluded(3980, 2200) },
      total: 3980,
    })
    const atDealer = (await reviewed(giulia, { 'POMP-OS-GRY': 1 }, pickup('cicli-bergamasca'))).checkout
    expect(atDealer.amounts).toEqual({
      items: 2990,
      discount: 0,
      delivery: 0,
      vat: { rate: 2200, included: true, amount: vatIncluded(2990, 2200) },
      total: 2990,
    })
    expect(atDealer.choices.delivery).toEqual({
      method: 'pickup',
      dealer: { slug: 'cicli-bergamasca', name: expect.any(String), address: expect.any(String), city: 'Bergamo' },
    })
    expect(atDealer.choices).toMatchObject({ shipping_address: null, billing_same: false, payment_method: 'paypal' })
    expect(atDealer.choices.billing_address).toMatchObject({ line1: "Via Sant'Alessandro 42" })
    const bike = (await reviewed(giulia, { 'STR9-M-RED': 1 })).checkout
    expect(bike.amounts).toEqual({
      items: 429000,
      discount: 0,
      delivery: 0,
      vat: { rate: 2200, included: true, amount: vatIncluded(429000, 2200) },
      total: 429000,
    })
  })

  it("us-en, USD: the state's sales tax added (CA 7.25 %, OR none; pick-up: the dealer's state), delivery $25 below $300", async () => {
    const us = { tenant: 'us', locale: 'en' }
    const tax = (amount: number, rate: number) => Math.round((amount * rate) / 10_000)
    const california = (await reviewed(giulia, { 'POMP-OS-GRY': 1 }, homeIn('us'), us)).checkout
    expect(california.cart.currency).toBe('USD')
    expect(california.amounts).toEqual({
      items: 2999,
      discount: 0,
      delivery: 2500,
      vat: { rate: 725, included: false, amount: tax(5499, 725) },
      total: 5499 + tax(5499, 725),
    })
    const oregon = (
      await reviewed(
        giulia,
        { 'POMP-OS-GRY': 1 },
        {
          ...HOME_SAVED,
          shipping_address: { address: { ...ADDRESS_IN.us, city: 'Portland', postal_code: '97201', region: 'or' } },
        },
        us,
      )
    ).checkout
    expect(oregon.amounts).toEqual({
      items: 2999,
      discount: 0,
      delivery: 2500,
      vat: { rate: 0, included: false, amount: 0 },
      total: 5499,
    })
    const atDealer = (await reviewed(giulia, { 'POMP-OS-GRY': 1 }, pickup('lone-spoke-bicycles'), us)).checkout
    expect(atDealer.amounts).toEqual({
      items: 2999,
      discount: 0,
      delivery: 0,
      vat: { rate: 625, included: false, amount: tax(2999, 625) },
      total: 2999 + tax(2999, 625),
    })
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, us)
    for (const region of [undefined, 'California', 'PR']) {
      const refused = await choose(
        giulia,
        code,
        { ...HOME_SAVED, shipping_address: { address: { ...ADDRESS_IN.us, region } } },
        us,
      )
      expect(refused.status, String(region)).toBe(422)
      // No state at all is `required` (the US table's rule); a name or a code without a tax rate, `region`.
      expect(refused.json.errors).toEqual({ 'shipping_address.address.region': [region ? 'region' : 'required'] })
    }
  })

  it('ch-de (CHF), ae-ar (AED) and il-he (ILS): their currency, their VAT included, their delivery price', async () => {
    const ch = (
      await reviewed(
        giulia,
        { 'STR9-M-RED': 1 },
        { ...HOME_SAVED, shipping_address: { saved: 2 } },
        { tenant: 'ch', locale: 'de' },
      )
    ).checkout
    expect(ch.cart.currency).toBe('CHF')
    expect(ch.amounts).toEqual({
      items: 439000,
      discount: 0,
      delivery: 0,
      vat: { rate: 810, included: true, amount: vatIncluded(439000, 810) },
      total: 439000,
    })
    const ae = (await reviewed(giulia, { 'POMP-OS-GRY': 1 }, homeIn('ae'), { tenant: 'ae', locale: 'ar' })).checkout
    expect(ae.cart.currency).toBe('AED')
    expect(ae.amounts).toEqual({
      items: 12900,
      discount: 0,
      delivery: 7500,
      vat: { rate: 500, included: true, amount: vatIncluded(20400, 500) },
      total: 20400,
    })
    const il = { tenant: 'il', locale: 'he' }
    const home = (await reviewed(giulia, { 'POMP-OS-GRY': 1 }, homeIn('il'), il)).checkout
    expect(home.cart.currency).toBe('ILS')
    expect(home.amounts).toEqual({
      items: 12990,
      discount: 0,
      delivery: 4900,
      vat: { rate: 1800, included: true, amount: vatIncluded(17890, 1800) },
      total: 17890,
    })
    const atDealer = (await reviewed(giulia, { 'POMP-OS-GRY': 1 }, pickup('yarkon-bikes'), il)).checkout
    expect(atDealer.amounts).toEqual({
      items: 12990,
      discount: 0,
      delivery: 0,
      vat: { rate: 1800, included: true, amount: vatIncluded(12990, 1800) },
      total: 12990,
    })
  })

  it("offers only the ways to pay the market's `payment_methods` setting allows, and refuses another (422 payment_method)", async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, { tenant: 'es', locale: 'es' })
    const settings = await env.DB.prepare(`SELECT settings FROM sites WHERE slug = 'es'`).first<string>('settings')
    await env.DB.prepare(`UPDATE sites SET settings = ? WHERE slug = 'es'`)
      .bind(JSON.stringify({ ...JSON.parse(settings ?? '{}'), payment_methods: ['card'] }))
      .run()
    try {
      const es = { tenant: 'es', locale: 'es' }
      expect(checkoutOf((await read(giulia, code, es)).json).payment_methods).toEqual(['card'])
      const refused = await choose(giulia, code, { ...homeIn('es'), payment_method: 'paypal' }, es)
      expect(refused.status).toBe(422)
      expect(refused.json.errors).toEqual({ payment_method: ['invalid'] })
    } finally {
      await env.DB.prepare(`UPDATE sites SET settings = ? WHERE slug = 'es'`).bind(settings).run()
    }
  })

  it('offers a bank transfer only where the market names a valid account to pay into, and refuses it elsewhere (422 payment_method)', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, { tenant: 'es', locale: 'es' })
    const es = { tenant: 'es', locale: 'es' }
    const settings = await env.DB.prepare(`SELECT settings FROM sites WHERE slug = 'es'`).first<string>('settings')
    const withSettings = (extra: object) =>
      env.DB.prepare(`UPDATE sites SET settings = ? WHERE slug = 'es'`)
        .bind(JSON.stringify({ ...JSON.parse(settings ?? '{}'), ...extra }))
        .run()
    const account = {
      beneficiary: 'Aurora Cycles España S.L.',
      iban: 'ES91 2100 0418 4502 0005 1332',
      bic: 'DEMOESMMXXX',
    }
    try {
      for (const bank_transfer of [
        undefined,
        { ...account, iban: 'ES91 2100 0418 4502 0005 1333' },
        { ...account, bic: 'nope' },
      ]) {
        await withSettings({ payment_methods: ['card', 'bank_transfer'], bank_transfer })
        expect(checkoutOf((await read(giulia, code, es)).json).payment_methods, JSON.stringify(bank_transfer)).toEqual([
          'card',
        ])
        const refused = await choose(giulia, code, { ...homeIn('es'), payment_method: 'bank_transfer' }, es)
        expect(refused.status).toBe(422)
        expect(refused.json.errors).toEqual({ payment_method: ['invalid'] })
      }
      await withSettings({ payment_methods: ['card', 'bank_transfer'], bank_transfer: account })
      expect(checkoutOf((await read(giulia, code, es)).json).payment_methods).toEqual(['card', 'bank_transfer'])
      expect((await choose(giulia, code, { ...homeIn('es'), payment_method: 'bank_transfer' }, es)).status).toBe(200)
    } finally {
      await env.DB.prepare(`UPDATE sites SET settings = ? WHERE slug = 'es'`).bind(settings).run()
    }
  })
})

describe('choosing addresses and the dealer', () => {
  const countAddresses = async (userId: number) =>
    (await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses WHERE user_id = ?').bind(userId).first<number>('n')) ?? 0

  it('saves a new address asked to be saved, once: the same address again (or the form sent twice) is not saved twice', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const before = await countAddresses(2)
    const body = {
      ...HOME_SAVED,
      shipping_address: { address: { ...NEW_ADDRESS, first_name: 'Lukas', last_name: 'Meyer' }, save: true },
    }
    const first = checkoutOf((await choose(lukas, code, body)).json)
    expect(first.choices.shipping_address).toMatchObject({
      first_name: 'Lukas',
      line1: 'Via Tasso 8',
      country_code: 'IT',
      company: null,
    })
    expect(await countAddresses(2)).toBe(before + 1)
    await choose(lukas, code, body)
    await choose(lukas, code, { ...body, billing_address: body.shipping_address })
    expect(await countAddresses(2)).toBe(before + 1)
  })

  it('keeps a new address unsaved without `save`, and a billing address of its own', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const before = await countAddresses(2)
    const billing = {
      ...NEW_ADDRESS,
      first_name: 'Firma',
      last_name: 'Meyer',
      company: 'Meyer GmbH',
      line1: 'Hauptstraße 1',
      postal_code: '10115',
      city: 'Berlin',
      country_code: 'DE',
    }
    const checkout = checkoutOf(
      (
        await choose(lukas, code, {
          ...HOME_SAVED,
          shipping_address: { address: NEW_ADDRESS },
          billing_address: { address: billing },
        })
      ).json,
    )
    expect(checkout.choices.billing_same).toBe(false)
    expect(checkout.choices.billing_address).toMatchObject({ company: 'Meyer GmbH', city: 'Berlin' })
    expect(await countAddresses(2)).toBe(before)
  })

  it('refuses to save into a full address book (422 beside the box) and keeps nothing of that form', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const before = await countAddresses(2)
    await env.DB.batch(
      Array.from({ length: 20 - before }, (_, i) =>
        env.DB.prepare(
          `INSERT INTO addresses (user_id, first_name, last_name, line1, postal_code, city, country_code) VALUES (2, 'Lukas', 'Meyer', ?, '10115', 'Berlin', 'DE')`,
        ).bind(`Filler ${i}`),
      ),
    )
    try {
      const body = {
        ...HOME_SAVED,
        shipping_address: { address: { ...NEW_ADDRESS, line1: 'Neue Straße 5' }, save: true },
      }
      const refused = await choose(lukas, code, body)
      expect(refused.status).toBe(422)
      expect(refused.json.errors).toEqual({ 'shipping_address.save': ['too_many_addresses'] })
      expect(checkoutOf((await read(lukas, code)).json).choices.delivery).toBeNull()
      expect(
        (await choose(lukas, code, { ...body, shipping_address: { ...body.shipping_address, save: false } })).status,
      ).toBe(200)
    } finally {
      await env.DB.prepare(`DELETE FROM addresses WHERE user_id = 2 AND line1 LIKE 'Filler %'`).run()
    }
  })

  it('with room for one address only, refuses a form saving two (422 beside the billing box) and saves neither', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const before = await countAddresses(2)
    await env.DB.batch(
      Array.from({ length: 19 - before }, (_, i) =>
        env.DB.prepare(
          `INSERT INTO addresses (user_id, first_name, last_name, line1, postal_code, city, country_code) VALUES (2, 'Lukas', 'Meyer', ?, '10115', 'Berlin', 'DE')`,
        ).bind(`Filler ${i}`),
      ),
    )
    try {
      const body = {
        ...HOME_SAVED,
        shipping_address: { address: { ...NEW_ADDRESS, line1: 'Via Uno 1' }, save: true },
        billing_address: { address: { ...NEW_ADDRESS, line1: 'Via Due 2' }, save: true },
      }
      const refused = await choose(lukas, code, body)
      expect(refused.status).toBe(422)
      expect(refused.json.errors).toEqual({ 'billing_address.save': ['too_many_addresses'] })
      expect(await countAddresses(2)).toBe(19)
    } finally {
      await env.DB.prepare(`DELETE FROM addresses WHERE user_id = 2 AND line1 LIKE 'Filler %'`).run()
    }
  })

  it("refuses another customer's saved address and a dealer that does not sell or is another market's, each beside its field (422)", async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const foreign = await choose(lukas, code, {
      ...HOME_SAVED,
      shipping_address: { saved: 1 },
      billing_address: { saved: 2 },
    })
    expect(foreign.status).toBe(422)
    expect(foreign.json.errors).toEqual({ 'shipping_address.saved': ['invalid'], 'billing_address.saved': ['invalid'] })
    for (const dealer of ['ciclofficina-del-giglio', 'velowerk-limmat', 'no-such-dealer']) {
      const refused = await choose(lukas, code, pickup(dealer, { saved: 3 }))
      expect(refused.status, dealer).toBe(422)
      expect(refused.json.errors).toEqual({ 'delivery.dealer': ['dealer'] })
    }
    expect(checkoutOf((await read(lukas, code)).json).choices.delivery).toBeNull()
  })

  it("refuses home delivery to another country than the market's (422 country), new or saved; billing may be abroad", async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const abroad = { ...NEW_ADDRESS, line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country_code: 'de' }
    const typed = await choose(lukas, code, { ...HOME_SAVED, shipping_address: { address: abroad } })
    expect(typed.status).toBe(422)
    expect(typed.json.errors).toEqual({ 'shipping_address.address.country_code': ['country'] })
    const { id } = (await env.DB.prepare(
      `INSERT INTO addresses (user_id, first_name, last_name, line1, postal_code, city, country_code) VALUES (2, 'Lukas', 'Meyer', 'Auslandweg 1', '10115', 'Berlin', 'DE') RETURNING id`,
    ).first<{ id: number }>()) ?? { id: 0 }
    try {
      const saved = await choose(lukas, code, { ...HOME_SAVED, shipping_address: { saved: id } })
      expect(saved.status).toBe(422)
      expect(saved.json.errors).toEqual({ 'shipping_address.saved': ['country'] })
      expect(checkoutOf((await read(lukas, code)).json).choices.delivery).toBeNull()
      expect(
        (
          await choose(lukas, code, {
            ...HOME_SAVED,
            shipping_address: { address: NEW_ADDRESS },
            billing_address: { saved: id },
          })
        ).status,
      ).toBe(200)
    } finally {
      await env.DB.prepare('DELETE FROM addresses WHERE id = ?').bind(id).run()
    }
  })

  it('refuses home delivery without a phone (422 phone_delivery), typed or saved; pick-up needs none (decision 058)', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const typed = await choose(lukas, code, {
      ...HOME_SAVED,
      shipping_address: { address: { ...NEW_ADDRESS, phone: '' } },
    })
    expect(typed.status).toBe(422)
    expect(typed.json.errors).toEqual({ 'shipping_address.address.phone': ['phone_delivery'] })
    const { id } = (await env.DB.prepare(
      `INSERT INTO addresses (user_id, first_name, last_name, line1, postal_code, city, country_code) VALUES (2, 'Lukas', 'Meyer', 'Via Senza Telefono 1', '24121', 'Bergamo', 'IT') RETURNING id`,
    ).first<{ id: number }>()) ?? { id: 0 }
    try {
      const saved = await choose(lukas, code, { ...HOME_SAVED, shipping_address: { saved: id } })
      expect(saved.status).toBe(422)
      expect(saved.json.errors).toEqual({ 'shipping_address.saved': ['phone_delivery'] })
      const pickedUp = await choose(lukas, code, {
        delivery: { method: 'pickup', dealer: 'cicli-bergamasca' },
        billing_address: { saved: id },
        payment_method: 'card',
      })
      expect(pickedUp.status).toBe(200)
    } finally {
      await env.DB.prepare('DELETE FROM addresses WHERE id = ?').bind(id).run()
    }
  })

  it('answers 422 with every error keyed by its field path, and keeps nothing of a wrong form', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const { status, json } = await choose(lukas, code, {
      delivery: { method: 'home' },
      shipping_address: { address: { ...NEW_ADDRESS, postal_code: '!!', city: '' } },
      payment_method: 'cash',
    })
    expect(status).toBe(422)
    expect(json.errors).toEqual({
      'shipping_address.address.postal_code': ['postal_code'],
      'shipping_address.address.city': ['required'],
      payment_method: ['invalid'],
    })
    const missing = await choose(lukas, code, { delivery: { method: 'home' }, payment_method: 'card' })
    expect(missing.json.errors).toEqual({ shipping_address: ['required'] })
    const pickupWithout = await choose(lukas, code, {
      delivery: { method: 'pickup', dealer: 'cicli-bergamasca' },
      payment_method: 'card',
    })
    expect(pickupWithout.json.errors).toEqual({ billing_address: ['required'] })
    expect(checkoutOf((await read(lukas, code)).json).choices.delivery).toBeNull()
  })
})

describe('placing: what is checked again', () => {
  it('refuses a changed price with 409 prices_changed, and places the new review', async () => {
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-GRY': 1 })
    await env.DB.prepare(
      `UPDATE product_variant_prices SET amount = 3490 WHERE sku = 'POMP-OS-GRY' AND site = 'it'`,
    ).run()
    try {
      const refused = await place(giulia, code, checkout.review_key)
      expect(refused.status).toBe(409)
      expect(refused.json.code).toBe('prices_changed')
      const now = checkoutOf((await read(giulia, code)).json)
      expect(now.amounts.items).toBe(3490)
      expect(now.review_key).not.toBe(checkout.review_key)
      const placed = await place(giulia, code, now.review_key)
      expect(placed.status).toBe(201)
      expect(orderOf(placed.json).total).toBe(3490 + 990)
    } finally {
      await env.DB.prepare(
        `UPDATE product_variant_prices SET amount = 2990 WHERE sku = 'POMP-OS-GRY' AND site = 'it'`,
      ).run()
    }
  })

  it('refuses a changed checkout (a quantity, a choice) with 409 checkout_changed', async () => {
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-GRY': 1 })
    await call('account/cart/items/POMP-OS-GRY', { token: giulia, method: 'PUT', body: { quantity: 2 } })
    expect((await place(giulia, code, checkout.review_key)).json.code).toBe('checkout_changed')
    const other = checkoutOf((await choose(giulia, code, { ...HOME_SAVED, payment_method: 'paypal' })).json)
    await choose(giulia, code, HOME_SAVED)
    const refused = await place(giulia, code, other.review_key)
    expect(refused.status).toBe(409)
    expect(refused.json.code).toBe('checkout_changed')
  })

  it('refuses a line that can no longer be bought (409 unavailable) and a pick-up dealer that stopped selling (409 dealer_unavailable)', async () => {
    const first = await reviewed(giulia, { 'LUCE-OS-BLK': 1 })
    await env.DB.prepare(`UPDATE product_variants SET stock = 0 WHERE sku = 'LUCE-OS-BLK'`).run()
    try {
      const refused = await place(giulia, first.code, first.checkout.review_key)
      expect(refused.status).toBe(409)
      expect(refused.json.code).toBe('unavailable')
    } finally {
      await env.DB.prepare(`UPDATE product_variants SET stock = 25 WHERE sku = 'LUCE-OS-BLK'`).run()
    }
    const second = await reviewed(giulia, { 'LUCE-OS-BLK': 1 }, pickup('bici-felsinea'))
    await env.DB.prepare(`UPDATE dealers SET sales = 0 WHERE slug = 'bici-felsinea'`).run()
    try {
      const refused = await place(giulia, second.code, second.checkout.review_key)
      expect(refused.status).toBe(409)
      expect(refused.json.code).toBe('dealer_unavailable')
      const now = checkoutOf((await read(giulia, second.code)).json)
      expect(now.ready).toBe(false)
      expect(now.choices.delivery).toEqual({ method: 'pickup', dealer: null })
    } finally {
      await env.DB.prepare(`UPDATE dealers SET sales = 1 WHERE slug = 'bici-felsinea'`).run()
    }
  })

  it('refuses an incomplete checkout (422 incomplete) and a malformed key (422); an unconfirmed address buys (decision 057)', async () => {
    const code = await freshCart(lukas, { 'POMP-OS-GRY': 1 })
    const { review_key } = checkoutOf((await read(lukas, code)).json)
    const incomplete = await place(lukas, code, review_key)
    expect(incomplete.status).toBe(422)
    expect(incomplete.json.code).toBe('incomplete')
    expect(
      (await call(`account/checkout/${code}/orders`, { token: lukas, method: 'POST', body: { review_key: 'short' } }))
        .status,
    ).toBe(422)
    await env.DB.prepare('UPDATE users SET email_confirmed_at = NULL WHERE id = 2').run()
    try {
      expect((await read(lukas, code)).status).toBe(200)
      const unconfirmed = await place(lukas, code, review_key)
      expect(unconfirmed.json.code).not.toBe('email_unconfirmed')
      expect(unconfirmed.json.code).toBe('incomplete')
    } finally {
      await env.DB.prepare(`UPDATE users SET email_confirmed_at = '2026-01-01T00:00:00Z' WHERE id = 2`).run()
    }
    expect((await place(giulia, code, review_key)).status).toBe(404)
  })

  it("places the order in one of the market's languages: an unknown X-Locale gets the market's first", async () => {
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-GRY': 1 })
    const order = orderOf((await place(giulia, code, checkout.review_key, { tenant: 'it', locale: 'fr' })).json)
    expect(order.market).toBe('it-it')
    expect(await env.DB.prepare('SELECT locale FROM orders WHERE code = ?').bind(order.code).first('locale')).toBe('it')
  })

  it("stores the order as reviewed: lines in the caller's language with their sku, amounts, addresses, delivery, locale and a pending_payment timeline", async () => {
    const { code, checkout } = await reviewed(giulia, { 'ARIA-M-RED': 2 }, pickup('cicli-bergamasca'))
    const order = orderOf((await place(giulia, code, checkout.review_key)).json)
    const row = await env.DB.prepare('SELECT * FROM orders WHERE code = ?')
      .bind(order.code)
      .first<Record<string, unknown>>()
    expect(row).toMatchObject({
      subtotal: 29980,
      shipping: 0,
      tax: vatIncluded(29980, 2200),
      total: 29980,
      delivery_method: 'pickup',
      delivery_dealer_slug: 'cicli-bergamasca',
      shipping_address: null,
      payment_method: 'paypal',
      payment_attempt: 1,
      locale: 'it',
      market: 'it-it',
    })
    expect(JSON.parse(row?.billing_address as string)).toMatchObject({ line1: "Via Sant'Alessandro 42" })
    const items = await env.DB.prepare(
      'SELECT name, variant, sku, quantity, unit_price FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.code = ?',
    )
      .bind(order.code)
      .all()
    expect(items.results).toEqual([
      { name: 'Aurora Aria', variant: 'M · Rosso', sku: 'ARIA-M-RED', quantity: 2, unit_price: 14990 },
    ])
    const detail = await call(`account/orders/${order.code}`, { token: giulia })
    expect(detail.json.data).toMatchObject({
      status: 'pending_payment',
      timeline: [{ status: 'pending_payment' }],
      delivery: { method: 'pickup', dealer: expect.any(String) },
    })
  })
})

describe('placing twice', () => {
  const ordersOfCart = async (code: string) =>
    (await env.DB.prepare('SELECT COUNT(*) AS n FROM orders o JOIN carts c ON c.id = o.cart_id WHERE c.code = ?')
      .bind(code)
      .first<number>('n')) ?? 0

  it('places the same review sent five times at once as one order: one 201, the others 200 with the same order', async () => {
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-BLK': 1 })
    const answers = await Promise.all(Array.from({ length: 5 }, () => place(giulia, code, checkout.review_key)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 201])
    expect(new Set(answers.map((answer) => orderOf(answer.json).code)).size).toBe(1)
    expect(await ordersOfCart(code)).toBe(1)
  })

  it('sets an older unpaid order of the cart aside when another review is placed; that older review cannot be placed again', async () => {
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-BLK': 1 })
    const older = orderOf((await place(giulia, code, checkout.review_key)).json)
    await call('account/cart/items/POMP-OS-BLK', { token: giulia, method: 'PUT', body: { quantity: 2 } })
    const newer = orderOf((await place(giulia, code, checkoutOf((await read(giulia, code)).json).review_key)).json)
    expect(newer.code).not.toBe(older.code)
    const olderNow = (await call(`account/orders/${older.code}`, { token: giulia })).json.data as {
      status: string
      timeline: { status: string }[]
    }
    expect(olderNow.status).toBe('cancelled')
    expect(olderNow.timeline.map((event) => event.status)).toEqual(['pending_payment', 'cancelled'])
    expect(checkoutOf((await read(giulia, code)).json).order?.code).toBe(newer.code)
    // Back to the older lines in an old tab: that review's order is closed, so it is reviewed again.
    await call('account/cart/items/POMP-OS-BLK', { token: giulia, method: 'PUT', body: { quantity: 1 } })
    const again = await place(giulia, code, checkout.review_key)
    expect(again.status).toBe(409)
    expect(again.json.code).toBe('checkout_changed')
    expect((await attempt(giulia, older.code)).json.code).toBe('order_closed')
  })

  it("raises the generation when the placement sets an older order aside: an old tab's review is refused without touching the live one; the new review sent again (old or reloaded key) answers its order", async () => {
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-BLK': 1 })
    orderOf((await place(giulia, code, checkout.review_key)).json)
    await call('account/cart/items/POMP-OS-BLK', { token: giulia, method: 'PUT', body: { quantity: 2 } })
    const newerKey = checkoutOf((await read(giulia, code)).json).review_key
    const newer = orderOf((await place(giulia, code, newerKey)).json)
    const live = checkoutOf((await read(giulia, code)).json).review_key
    expect(live).not.toBe(newerKey)
    const stale = await place(giulia, code, checkout.review_key)
    expect(stale.json.code).toBe('checkout_changed')
    expect(checkoutOf((await read(giulia, code)).json).review_key).toBe(live)
    const back = await place(giulia, code, newerKey)
    expect([back.status, orderOf(back.json).code]).toEqual([200, newer.code])
    const reloaded = await place(giulia, code, live)
    expect([reloaded.status, orderOf(reloaded.json).code]).toEqual([200, newer.code])
    expect(await ordersOfCart(code)).toBe(2)
  })

  it("draws a new order code when the random one is another order's: 201, its own lines, the other order untouched", async () => {
    const first = await reviewed(
      lukas,
      { 'POMP-OS-GRY': 1 },
      { ...HOME_SAVED, shipping_address: { address: NEW_ADDRESS } },
    )
    const zeros = (array: Uint8Array) => array.fill(0)
    const random = vi.spyOn(crypto, 'getRandomValues')
    random.mockImplementationOnce(zeros as typeof crypto.getRandomValues)
    const taken = orderOf((await place(lukas, first.code, first.checkout.review_key)).json)
    expect(taken.code).toBe('AUR-000000')
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-BLK': 2 })
    random.mockImplementationOnce(zeros as typeof crypto.getRandomValues)
    const placed = await place(giulia, code, checkout.review_key)
    expect(placed.status).toBe(201)
    expect(orderOf(placed.json).code).not.toBe('AUR-000000')
    const items = async (orderCode: string) =>
      (
        await env.DB.prepare(
          'SELECT i.sku, i.quantity FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.code = ?',
        )
          .bind(orderCode)
          .all()
      ).results
    expect(await items('AUR-000000')).toEqual([{ sku: 'POMP-OS-GRY', quantity: 1 }])
    expect(await items(orderOf(placed.json).code)).toEqual([{ sku: 'POMP-OS-BLK', quantity: 2 }])
    await env.DB.prepare(`DELETE FROM orders WHERE code = 'AUR-000000'`).run()
  })
})

/** The webhook secret vitest.config.ts gives the Worker, and the test provider over the test database. */
const SECRET = 'test-only-payment-webhook-secret'
const provider = () => testProvider(env.DB, SECRET, ORIGIN)

/** What the Worker does after placing: creates the attempt's payment (once per payment key) and records it. */
async function pay(token: string, order: PlacedOrder, cartCode: string) {
  const payment = await provider().createPayment({
    orderCode: order.code,
    amount: order.total,
    currency: order.currency,
    market: order.market,
    method: order.payment_method === 'bank_transfer' ? undefined : order.payment_method,
    returnUrl: `${ORIGIN}/${order.market}/checkout/${cartCode}/result`,
    idempotencyKey: await paymentKeyOf(order),
    description: `Aurora Cycles order ${order.code}`,
  })
  expect(
    (await record(token, order.code, { attempt: order.payment_attempt, payment_id: payment.paymentId })).status,
  ).toBe(200)
  return payment.paymentId
}

/** The buyer presses a button of the test page (its webhook settles the order). */
const press = (paymentId: string, action: 'succeed' | 'fail') =>
  visit(`/_test-payments/${paymentId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: ORIGIN },
    body: `action=${action}`,
  })

/** A provider's signed webhook for a payment of an order. */
async function webhook(order: PlacedOrder, paymentId: string, state: 'paid' | 'failed') {
  const body = JSON.stringify({
    id: `evt_${crypto.randomUUID().replace(/-/g, '')}`,
    type: state === 'paid' ? 'payment.succeeded' : 'payment.failed',
    created: Math.floor(Date.now() / 1000),
    data: { payment_id: paymentId, order_code: order.code, amount: order.total, currency: order.currency, state },
  })
  return visit('/_webhooks/payments', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Payment-Signature': await signWebhook(SECRET, body, Math.floor(Date.now() / 1000)),
    },
    body,
  })
}

const stockOf = async (sku: string) =>
  (await env.DB.prepare('SELECT stock FROM product_variants WHERE sku = ?').bind(sku).first<number>('stock')) ?? -1
const mailsOf = async (code: string) =>
  (
    await env.DB.prepare(
      `SELECT recipient, subject, body FROM outbox WHERE kind = 'order_confirmation' AND subject LIKE ?`,
    )
      .bind(`%${code}%`)
      .all<{ recipient: string; subject: string; body: string }>()
  ).results

describe('paying settles the order', () => {
  it("paid: the stock goes down, the paid lines leave the cart (lines added since stay), the checkout starts anew, one mail in the order's language", async () => {
    const { code, checkout } = await reviewed(giulia, { 'ARIA-S-WHT': 2, 'LUCE-OS-WHT': 1 })
    const order = orderOf((await place(giulia, code, checkout.review_key)).json)
    const stock = { aria: await stockOf('ARIA-S-WHT'), luce: await stockOf('LUCE-OS-WHT') }
    await call('account/cart/items/ARIA-S-WHT', { token: giulia, method: 'PUT', body: { quantity: 3 } })
    await call('account/cart/items', {
      token: giulia,
      method: 'POST',
      body: { sku: 'POMP-OS-RED', quantity: 1, key: newKey() },
    })
    const paymentId = await pay(giulia, order, code)
    expect((await press(paymentId, 'succeed')).status).toBe(303)

    expect(await stockOf('ARIA-S-WHT')).toBe(stock.aria - 2)
    expect(await stockOf('LUCE-OS-WHT')).toBe(stock.luce - 1)
    const after = checkoutOf((await read(giulia, code)).json)
    expect(after.cart.lines.map((line) => [line.sku, line.quantity])).toEqual([
      ['ARIA-S-WHT', 1],
      ['POMP-OS-RED', 1],
    ])
    expect(after.order).toMatchObject({
      code: order.code,
      status: 'paid',
      payment_state: 'paid',
      payment_id: paymentId,
    })
    const detail = (await call(`account/orders/${order.code}`, { token: giulia })).json.data as {
      timeline: { status: string }[]
    }
    expect(detail.timeline.map((event) => event.status)).toEqual(['pending_payment', 'paid'])

    const mails = await mailsOf(order.code)
    expect(mails).toHaveLength(1)
    const [mail] = mails
    expect(mail?.recipient).toBe('customer@example.com')
    expect(mail?.subject).toBe(`Il Suo ordine Aurora Cycles ${order.code}`)
    expect(mail?.body).toContain('Buongiorno Giulia,')
    expect(mail?.body).toContain('2 × Aurora Aria, S · Bianco: 299,80\u00a0€')
    expect(mail?.body).toContain(`Totale: ${(order.total / 100).toFixed(2).replace('.', ',')}\u00a0€`)
    expect(mail?.body).toContain('Consegna a domicilio')
    expect(mail?.body).toContain("Via Sant'Alessandro 42")
    expect(mail?.body).toContain(`${ORIGIN}/it-it/my-account/orders/${order.code}`)
  })

  it('paid twice at once (two different events of the same payment, concurrently): the stock goes down once, one mail', async () => {
    const { code, checkout } = await reviewed(giulia, { 'ARIA-L-WHT': 1 })
    const order = orderOf((await place(giulia, code, checkout.review_key)).json)
    const stock = await stockOf('ARIA-L-WHT')
    const paymentId = await pay(giulia, order, code)
    // Two different events (their own ids) of the same payment, delivered at once.
    const deliveries = await Promise.all([webhook(order, paymentId, 'paid'), webhook(order, paymentId, 'paid')])
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200])
    expect(await stockOf('ARIA-L-WHT')).toBe(stock - 1)
    expect(await mailsOf(order.code)).toHaveLength(1)
    expect((await place(giulia, code, checkout.review_key)).json.data).toMatchObject({
      code: order.code,
      status: 'paid',
    })
  })

  it("writes the mail in the language the order was placed in (ch-fr), with the market's money and the pick-up dealer", async () => {
    const chFr = { tenant: 'ch', locale: 'fr' }
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-GRY': 1 }, pickup('cycles-du-leman'), chFr)
    const order = orderOf((await place(giulia, code, checkout.review_key, chFr)).json)
    expect(order.market).toBe('ch-fr')
    await press(await pay(giulia, order, code), 'succeed')
    const [mail] = await mailsOf(order.code)
    expect(mail?.subject).toBe(`Votre commande Aurora Cycles ${order.code}`)
    expect(mail?.body).toContain('Retrait chez')
    expect(mail?.body).toContain('Total : CHF\u00a029,90')
    expect(mail?.body).toContain(`${ORIGIN}/ch-fr/my-account/orders/${order.code}`)
  })

  it('refuses to set aside an older order whose payment is under way (409 payment_in_progress); after its failure, sets it aside', async () => {
    const { code, checkout } = await reviewed(giulia, { 'ARIA-M-WHT': 1 })
    const older = orderOf((await place(giulia, code, checkout.review_key)).json)
    const paymentId = await pay(giulia, older, code)
    await call('account/cart/items/ARIA-M-WHT', { token: giulia, method: 'PUT', body: { quantity: 2 } })
    const refused = await place(giulia, code, checkoutOf((await read(giulia, code)).json).review_key)
    expect(refused.status).toBe(409)
    expect(refused.json.code).toBe('payment_in_progress')
    expect(await env.DB.prepare('SELECT status FROM orders WHERE code = ?').bind(older.code).first('status')).toBe(
      'pending_payment',
    )
    await press(paymentId, 'fail')
    const newer = await place(giulia, code, checkoutOf((await read(giulia, code)).json).review_key)
    expect(newer.status).toBe(201)
    expect(await env.DB.prepare('SELECT status FROM orders WHERE code = ?').bind(older.code).first('status')).toBe(
      'cancelled',
    )
  })

  it('paid while set aside (its payment created but not yet recorded): reopened as paid, stock, cart and mail as for any paid order, logged', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { code, checkout } = await reviewed(giulia, { 'ARIA-M-WHT': 1 })
    const older = orderOf((await place(giulia, code, checkout.review_key)).json)
    await call('account/cart/items/ARIA-M-WHT', { token: giulia, method: 'PUT', body: { quantity: 2 } })
    orderOf((await place(giulia, code, checkoutOf((await read(giulia, code)).json).review_key)).json)
    // The Worker created the older order's payment just before the set-aside; recording it is then refused.
    const payment = await provider().createPayment({
      orderCode: older.code,
      amount: older.total,
      currency: older.currency,
      market: older.market,
      returnUrl: `${ORIGIN}/${older.market}/checkout/${code}/result`,
      idempotencyKey: await paymentKeyOf(older),
      description: `Aurora Cycles order ${older.code}`,
    })
    expect((await record(giulia, older.code, { attempt: 1, payment_id: payment.paymentId })).json.code).toBe(
      'order_closed',
    )
    const stock = await stockOf('ARIA-M-WHT')
    await press(payment.paymentId, 'succeed')
    const row = await env.DB.prepare('SELECT status, payment_state FROM orders WHERE code = ?').bind(older.code).first()
    expect(row).toEqual({ status: 'paid', payment_state: 'paid' })
    expect(await stockOf('ARIA-M-WHT')).toBe(stock - 1)
    expect(await mailsOf(older.code)).toHaveLength(1)
    expect(checkoutOf((await read(giulia, code)).json).cart.lines.map((line) => [line.sku, line.quantity])).toEqual([
      ['ARIA-M-WHT', 1],
    ])
    expect(
      errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"payment_reopened_order"')),
    ).toHaveLength(1)
  })

  it('never lets stock go below 0, and logs the sku sold beyond it (`oversold`, the sku and quantities only)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { code, checkout } = await reviewed(giulia, { 'POMP-OS-RED': 2 })
    const order = orderOf((await place(giulia, code, checkout.review_key)).json)
    await env.DB.prepare(`UPDATE product_variants SET stock = 1 WHERE sku = 'POMP-OS-RED'`).run()
    await press(await pay(giulia, order, code), 'succeed')
    expect(await stockOf('POMP-OS-RED')).toBe(0)
    const logged = errors.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((line) => line.event === 'oversold')
    expect(logged).toEqual([
      { level: 'error', event: 'oversold', event_id: expect.any(String), sku: 'POMP-OS-RED', ordered: 2, stock: 1 },
    ])
    await env.DB.prepare(`UPDATE product_variants SET stock = 3 WHERE sku = 'POMP-OS-RED'`).run()
  })

  it("failed: the cart stays; a new attempt gets a new payment; the older payment's late failure never fails the new one", async () => {
    const { code, checkout } = await reviewed(giulia, { 'LUCE-OS-BLK': 1 })
    const order = orderOf((await place(giulia, code, checkout.review_key)).json)
    const first = await pay(giulia, order, code)
    await press(first, 'fail')
    expect(checkoutOf((await read(giulia, code)).json)).toMatchObject({
      order: { payment_state: 'failed', status: 'pending_payment' },
      cart: { item_count: 1 },
    })
    const retry = orderOf((await attempt(giulia, order.code)).json)
    expect(retry.payment_attempt).toBe(2)
    expect(orderOf((await attempt(giulia, order.code)).json).payment_attempt).toBe(2)
    expect((await webhook(order, first, 'failed')).status).toBe(200)
    expect(checkoutOf((await read(giulia, code)).json).order?.payment_state).toBe('pending')
    const second = await pay(giulia, retry, code)
    expect(second).not.toBe(first)
    await press(second, 'succeed')
    const paid = checkoutOf((await read(giulia, code)).json)
    expect(paid.order).toMatchObject({ status: 'paid', payment_id: second, payment_attempt: 2 })
    expect(paid.cart.lines).toEqual([])
    const closed = await attempt(giulia, order.code)
    expect(closed.status).toBe(409)
    expect(closed.json.code).toBe('already_paid')
    expect((await record(giulia, order.code, { attempt: 2, payment_id: second })).json.code).toBe('already_paid')
  })
})

describe('a failure before the payment is recorded', () => {
  it("fails the second attempt when its payment fails before the Worker records it (its idempotency key is the attempt's)", async () => {
    const { code, checkout } = await reviewed(giulia, { 'LUCE-OS-BLK': 1 })
    const order = orderOf((await place(giulia, code, checkout.review_key)).json)
    await press(await pay(giulia, order, code), 'fail')
    const retry = orderOf((await attempt(giulia, order.code)).json)
    const payment = await provider().createPayment({
      orderCode: order.code,
      amount: order.total,
      currency: order.currency,
      market: order.market,
      returnUrl: `${ORIGIN}/${order.market}/checkout/${code}/result`,
      idempotencyKey: await paymentKeyOf(retry),
      description: `Aurora Cycles order ${order.code}`,
    })
    await press(payment.paymentId, 'fail')
    expect(checkoutOf((await read(giulia, code)).json).order).toMatchObject({
      payment_attempt: 2,
      payment_state: 'failed',
      payment_id: null,
    })
    expect(orderOf((await attempt(giulia, order.code)).json).payment_attempt).toBe(3)
  })
})

describe("the contract's calls (src/upstream/contract/checkout.ts) over the embedded API", () => {
  const calls = (token: string) =>
    checkoutCalls(
      createUpstream({
        transport: async (request) => {
          const ctx = createExecutionContext()
          const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env, ctx)
          await waitOnExecutionContext(ctx)
          return response
        },
        baseUrl: 'http://embedded.invalid',
        timeoutMs: 10_000,
      })
        .forMarket({ country: 'it', locale: 'it' })
        .withToken(token),
    )

  it('reads, chooses, places, records and retries through the typed calls; 404s are null; refusals throw with their code', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const checkout = calls(giulia)
    expect(await calls(lukas).read(code)).toBeNull()
    const chosen = await checkout.choose(code, {
      delivery: { method: 'home' },
      shipping_address: { saved: 1 },
      billing_address: null,
      payment_method: 'card',
    })
    expect(chosen?.ready).toBe(true)
    const stale = chosen?.review_key.replace(/^./, (first) => (first === 'A' ? 'B' : 'A')) ?? ''
    const refusal = await checkout.place(code, stale).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(UpstreamError)
    expect((refusal as UpstreamError).rejection?.code).toBe('checkout_changed')
    const order = await checkout.place(code, chosen?.review_key ?? '')
    expect(order).toMatchObject({ status: 'pending_payment', payment_attempt: 1 })
    expect(await checkout.recordPayment(order?.code ?? '', 1, 'tp_333333333333333333333333')).toMatchObject({
      payment_id: 'tp_333333333333333333333333',
    })
    expect(await checkout.attempt(order?.code ?? '')).toMatchObject({ payment_attempt: 1, payment_state: 'pending' })
    expect((await checkout.read(code))?.order?.code).toBe(order?.code)
    expect(await checkout.attempt('AUR-NOSUCH')).toBeNull()
  })
})

describe('bad input', () => {
  it('never answers 5xx to fuzzed choices', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    const US = { tenant: 'us', locale: 'en' }
    const usCode = await freshCart(giulia, { 'POMP-OS-GRY': 1 }, US)
    // Bodies of the choices' shape, with the values a hand-made form sends: other customers' saved ids, pick-up with
    // a delivery address, foreign countries, regions, bad dealer slugs, wrong types.
    const address = fc.record(
      {
        first_name: fc.oneof(fc.constant('Giulia'), fc.string()),
        last_name: fc.oneof(fc.constant('Rossi'), fc.string()),
        line1: fc.oneof(fc.constant('Via Tasso 8'), fc.string()),
        postal_code: fc.oneof(fc.constant('24121'), fc.string({ maxLength: 14 })),
        city: fc.oneof(fc.constant('Bergamo'), fc.string()),
        region: fc.oneof(fc.constant(null), fc.constantFrom('BG', 'CA', 'ca', 'XX', ''), fc.string()),
        country_code: fc.oneof(fc.constantFrom('IT', 'it', 'DE', 'US', 'CH', 'ZZ', ''), fc.string({ maxLength: 3 })),
        phone: fc.oneof(fc.constant('+39 035 555 0199'), fc.string()),
      },
      { requiredKeys: [] },
    )
    const addressChoice = fc.oneof(
      fc.record({ saved: fc.oneof(fc.constantFrom(1, 2, 3, 4, 999_999, 0, -1), fc.integer(), fc.string()) }),
      fc.record({ address, save: fc.oneof(fc.boolean(), fc.anything()) }, { requiredKeys: ['address'] }),
      fc.constant(null),
      fc.anything(),
    )
    const choices = fc.record(
      {
        delivery: fc.oneof(
          fc.record({ method: fc.constant('home') }),
          fc.record({
            method: fc.constant('pickup'),
            dealer: fc.oneof(
              fc.constantFrom('cicli-bergamasca', 'velowerk-limmat', 'lone-spoke-bicycles', '../x', ''),
              fc.string(),
            ),
          }),
          fc.anything(),
        ),
        shipping_address: addressChoice,
        billing_address: addressChoice,
        payment_method: fc.oneof(fc.constantFrom('card', 'paypal', 'cash'), fc.anything()),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(choices, async (body) => {
        for (const [cart, market] of [
          [code, IT],
          [usCode, US],
        ] as const) {
          const { status } = await call(`account/checkout/${cart}`, {
            token: giulia,
            method: 'PUT',
            raw: JSON.stringify(body),
            ...market,
          })
          expect(status).toBeLessThan(500)
        }
      }),
      { numRuns: 60 },
    )
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (body) => {
        const { status } = await call(`account/checkout/${code}`, {
          token: giulia,
          method: 'PUT',
          raw: JSON.stringify(body) ?? 'null',
        })
        expect(status).toBeLessThan(500)
      }),
      { numRuns: 40 },
    )
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.anything(), async (path, body) => {
        for (const target of [
          `account/checkout/${code}/orders`,
          `account/orders/${encodeURIComponent(path)}/payment-attempts`,
        ]) {
          const { status } = await call(target, { token: giulia, method: 'POST', raw: JSON.stringify(body) ?? 'null' })
          expect(status).toBeLessThan(500)
        }
        const { status } = await call(`account/orders/${encodeURIComponent(path)}/payment`, {
          token: giulia,
          method: 'PUT',
          raw: JSON.stringify(body) ?? 'null',
        })
        expect(status).toBeLessThan(500)
      }),
      { numRuns: 30 },
    )
  })

  it('answers 422 to a body that is not JSON', async () => {
    const code = await freshCart(giulia, { 'POMP-OS-GRY': 1 })
    expect((await call(`account/checkout/${code}`, { token: giulia, method: 'PUT', raw: '{"delivery":' })).status).toBe(
      422,
    )
    expect((await call(`account/checkout/${code}/orders`, { token: giulia, method: 'POST', raw: 'x' })).status).toBe(
      422,
    )
  })
})
