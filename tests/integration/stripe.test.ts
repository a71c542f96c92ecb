import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest'
import { paymentKeyOf } from '../../contract/payment-key'
import { configOf, STRIPE_API } from '../../src/config'
import { PaymentError } from '../../src/payments/provider'
import { paymentProviderOf } from '../../src/payments/providers'
import { stripeLocaleOf } from '../../src/payments/stripe-locale'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { consoleLogin } from '../fixtures/console'
import { BILLING_ADDRESS } from '../fixtures/orders'
import { DEMO, formPost, logIn, visitAs } from '../fixtures/session'
import { stripeSignature } from '../fixtures/stripe-stand-in.mjs'
import { STAND_IN_WEBHOOK_SECRET } from '../fixtures/stripe-stand-in-setup'
import { ORIGIN, visit } from '../fixtures/worker'

/** The site with Stripe, its API the stand-in started by vitest's global setup (tests/fixtures/stripe-stand-in.mjs). */
const STRIPE = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_stand_in_key',
  STRIPE_API_URL: inject('stripeApiUrl'),
  PAYMENT_TEST_PROVIDER_ALLOWED: '',
}
const standIn = inject('stripeApiUrl')
const stripe = () => {
  const choice = paymentProviderOf({ ...env, ...STRIPE })
  if (choice.kind !== 'ready') throw new Error(`Stripe is ${choice.kind}`)
  return choice.provider
}

type StandInSession = {
  id: string
  amount_total: number
  currency: string
  locale: string
  client_reference_id: string
  metadata: Record<string, string>
  success_url: string
  cancel_url: string
  payment_method_types: string[]
  _idempotency_key: string
  _params: {
    line_items: Array<{ quantity: string; price_data: { unit_amount: string } }>
    payment_method_types?: string[]
  }
}
const sessionsAtStandIn = async () => (await (await fetch(`${standIn}/_stand-in/sessions`)).json()) as StandInSession[]

let orders = 0
/** An order as placement leaves it: pending payment, in the demo customer's account. */
async function placeOrder({ total = 174900, currency = 'EUR', market = 'it-it' } = {}) {
  const code = `AUR-STR${++orders}-${Date.now() % 100000}`
  await env.DB.prepare(
    `INSERT INTO orders (code, user_id, market, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
     VALUES (?, 1, ?, 'pending_payment', ?, ?, ?, ?, 'pickup', 'card', 'pending', '2026-11-23T09:00:00Z')`,
  )
    .bind(code, market, currency, total, total, BILLING_ADDRESS)
    .run()
  return { code, total, currency, market, key: await paymentKeyOf({ code, payment_attempt: 1 }) }
}
type Placed = Awaited<ReturnType<typeof placeOrder>>

const pay = (order: Placed, overrides: { amount?: number; method?: 'card' | 'paypal' } = {}) =>
  stripe().createPayment({
    orderCode: order.code,
    amount: overrides.amount ?? order.total,
    currency: order.currency,
    market: order.market,
    returnUrl: `${ORIGIN}/${order.market}/checkout/${'c'.repeat(32)}/result`,
    idempotencyKey: order.key,
    description: `Aurora Cycles order ${order.code}`,
    method: overrides.method,
  })

const orderState = (code: string) =>
  env.DB.prepare('SELECT status, payment_state FROM orders WHERE code = ?')
    .bind(code)
    .first<{ status: string; payment_state: string }>()

type SignedEvent = { type: string; body: string; signature: string }
/** What the stand-in's hosted page sends when the buyer presses a button: its signed events, in order. */
async function buyerPresses(sessionId: string, action: 'pay' | 'fail' | 'abandon'): Promise<SignedEvent[]> {
  const response = await fetch(`${standIn}/_stand-in/sessions/${sessionId}/events`, {
    method: 'POST',
    body: JSON.stringify({ action }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { events: SignedEvent[] }).events
}

/** Stripe's delivery of one event to the site's webhook, from Stripe's servers (another site). */
const deliver = (event: Pick<SignedEvent, 'body' | 'signature'>, bindings: Partial<Cloudflare.Env> = STRIPE) =>
  visit(
    '/_webhooks/payments',
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': event.signature,
        'Sec-Fetch-Site': 'cross-site',
        Origin: 'https://hooks.stripe.com',
      },
      body: event.body,
    },
    bindings,
  )

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('Stripe behind the PaymentProvider interface, against its stand-in', () => {
  it("creates a hosted Checkout Session of the order's amount, currency, locale, idempotency key and metadata", async () => {
    const order = await placeOrder({ total: 249000, currency: 'CHF', market: 'ch-fr' })
    const payment = await pay(order)
    expect(payment.paymentId).toMatch(/^cs_test_/)
    expect(payment.redirectUrl).toBe(`${standIn}/pay/${payment.paymentId}`)
    expect(payment.state).toBe('pending')
    const session = (await sessionsAtStandIn()).find((s) => s.id === payment.paymentId)
    expect(session).toMatchObject({
      amount_total: 249000,
      currency: 'chf',
      locale: 'fr',
      client_reference_id: order.code,
      metadata: { order_code: order.code, payment_key: order.key, market: 'ch-fr' },
      success_url: `${ORIGIN}/ch-fr/checkout/${'c'.repeat(32)}/result`,
      cancel_url: `${ORIGIN}/ch-fr/checkout/${'c'.repeat(32)}/result`,
      _idempotency_key: order.key,
    })
    // One line of the whole total; Stripe offers the methods its Dashboard enables for the currency.
    expect(session?._params.line_items).toHaveLength(1)
    expect(session?._params.line_items[0]).toMatchObject({ quantity: '1', price_data: { unit_amount: '249000' } })
    expect(session?._params.payment_method_types).toBeUndefined()
  })

  it('answers the same session for the same idempotency key, and refuses the key for another amount', async () => {
    const order = await placeOrder()
    const first = await pay(order)
    expect((await pay(order)).paymentId).toBe(first.paymentId)
    expect((await sessionsAtStandIn()).filter((s) => s.client_reference_id === order.code)).toHaveLength(1)
    await expect(pay(order, { amount: 100 })).rejects.toEqual(new PaymentError('idempotency_conflict'))
  })

  it("offers only PayPal to a buyer who chose it, where Stripe takes PayPal in the order's currency", async () => {
    const euro = await placeOrder()
    await pay(euro, { method: 'paypal' })
    const dirham = await placeOrder({ currency: 'AED', market: 'ae-ar' })
    await pay(dirham, { method: 'paypal' })
    const sessions = await sessionsAtStandIn()
    expect(sessions.find((s) => s.client_reference_id === euro.code)?._params.payment_method_types).toEqual(['paypal'])
    const aed = sessions.find((s) => s.client_reference_id === dirham.code)
    expect(aed?._params.payment_method_types).toBeUndefined()
    expect(aed?.locale).toBe('auto')
  })

  it("reads STRIPE_API_URL as Stripe's API and hosted page origin: Stripe's own unless https, or http on this machine", () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const read = (url: string) => configOf({ ...env, ...STRIPE, STRIPE_API_URL: url })
    expect(read('')).toMatchObject({ stripeApi: STRIPE_API, paymentPageOrigin: 'https://checkout.stripe.com' })
    expect(read('http://127.0.0.1:12111')).toMatchObject({
      stripeApi: { protocol: 'http', host: '127.0.0.1', port: 12111 },
      paymentPageOrigin: 'http://127.0.0.1:12111',
    })
    expect(errors).not.toHaveBeenCalled()
    expect(read('http://stripe.attacker.example').stripeApi).toBe(STRIPE_API)
    expect(errors.mock.calls.some(([line]) => String(line).includes('STRIPE_API_URL'))).toBe(true)
  })

  it("maps the market to Stripe's languages, else auto", () => {
    expect(
      ['it-it', 'gb-en', 'us-en', 'mx-es', 'es-es', 'br-pt', 'ae-ar', 'il-he', 'ch-de'].map(stripeLocaleOf),
    ).toEqual(['it', 'en-GB', 'en', 'es-419', 'es', 'pt-BR', 'auto', 'auto', 'de'])
  })

  it('reads the state back from the session: pending, paid, failed, cancelled; null for an unknown one', async () => {
    const states = []
    for (const action of ['pay', 'fail', 'abandon'] as const) {
      const { paymentId } = await pay(await placeOrder())
      expect(await stripe().paymentStatus(paymentId)).toBe('pending')
      await buyerPresses(paymentId, action)
      states.push(await stripe().paymentStatus(paymentId))
    }
    expect(states).toEqual(['paid', 'failed', 'cancelled'])
    expect(await stripe().paymentStatus('cs_test_unknownsession000000')).toBeNull()
    expect(await stripe().paymentStatus('../v1/charges')).toBeNull()
  })

  it('is unavailable without STRIPE_SECRET_KEY (paying answers 503 with the way back), logging payment_secret_missing', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(paymentProviderOf({ ...env, ...STRIPE, STRIPE_SECRET_KEY: '' }).kind).toBe('unavailable')
    expect(errors.mock.calls.some(([line]) => String(line).includes('"payment_secret_missing"'))).toBe(true)
  })
})

describe("Stripe's webhooks settle the order as the test provider's do", () => {
  it('a customer who pays: checkout.session.completed (paid) makes the order paid', async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [completed] = await buyerPresses(paymentId, 'pay')
    const answer = await deliver(completed as SignedEvent)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toEqual({ received: true })
    expect(await orderState(order.code)).toEqual({ status: 'paid', payment_state: 'paid' })
  })

  it("a customer whose delayed payment fails: completed unpaid changes nothing, async_payment_failed fails the order's payment", async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [completed, failed] = await buyerPresses(paymentId, 'fail')
    expect((await deliver(completed as SignedEvent)).status).toBe(200)
    expect(await orderState(order.code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
    expect(failed?.type).toBe('checkout.session.async_payment_failed')
    expect((await deliver(failed as SignedEvent)).status).toBe(200)
    expect(await orderState(order.code)).toEqual({ status: 'pending_payment', payment_state: 'failed' })
  })

  it('a customer who abandons: checkout.session.expired fails the payment, and the order waits for another', async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [expired] = await buyerPresses(paymentId, 'abandon')
    expect(expired?.type).toBe('checkout.session.expired')
    expect((await deliver(expired as SignedEvent)).status).toBe(200)
    expect(await orderState(order.code)).toEqual({ status: 'pending_payment', payment_state: 'failed' })
  })

  it('refuses a forged signature (401) and a missing one (400), and changes nothing', async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [completed] = (await buyerPresses(paymentId, 'pay')) as SignedEvent[]
    const forged = { body: completed?.body ?? '', signature: stripeSignature('whsec_not_ours', completed?.body ?? '') }
    const refused = await deliver(forged)
    expect(refused.status).toBe(401)
    expect(JSON.parse(refused.text)).toEqual({ error: 'signature' })
    const altered = completed?.body.replace(String(order.total), '1') ?? ''
    expect((await deliver({ body: altered, signature: completed?.signature ?? '' })).status).toBe(401)
    const old = stripeSignature(STAND_IN_WEBHOOK_SECRET, completed?.body ?? '', Math.floor(Date.now() / 1000) - 3600)
    expect(JSON.parse((await deliver({ body: completed?.body ?? '', signature: old })).text)).toEqual({
      error: 'stale',
    })
    expect((await deliver({ body: completed?.body ?? '', signature: '' })).status).toBe(400)
    expect(await orderState(order.code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
  })

  it('takes a replayed webhook harmlessly: settled once, the retry 200 duplicate, another body under its id 400', async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [completed] = (await buyerPresses(paymentId, 'pay')) as SignedEvent[]
    const event = completed as SignedEvent
    expect((await deliver(event)).status).toBe(200)
    const paidEvents = () =>
      env.DB.prepare(`SELECT COUNT(*) AS n FROM order_events e JOIN orders o ON o.id = e.order_id
                      WHERE o.code = ? AND e.status = 'paid'`)
        .bind(order.code)
        .first<{ n: number }>()
    expect(await paidEvents()).toEqual({ n: 1 })
    const retry = await deliver({ body: event.body, signature: stripeSignature(STAND_IN_WEBHOOK_SECRET, event.body) })
    expect(retry.status).toBe(200)
    expect(JSON.parse(retry.text)).toEqual({ received: true, duplicate: true })
    // The same event id with another session amount: not the event first received.
    const changed = event.body.replace(`"amount_total":${order.total}`, '"amount_total":100')
    expect(changed).not.toBe(event.body)
    const replayed = await deliver({ body: changed, signature: stripeSignature(STAND_IN_WEBHOOK_SECRET, changed) })
    expect(replayed.status).toBe(400)
    expect(JSON.parse(replayed.text)).toEqual({ error: 'replayed' })
    expect(await paidEvents()).toEqual({ n: 1 })
  })

  it("with the brand's backend over HTTP: the mapped event settled in one POST api/payments/events, the retry a duplicate", async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [completed] = (await buyerPresses(paymentId, 'pay')) as SignedEvent[]
    const upstream = httpUpstream()
    const backend = { ...STRIPE, UPSTREAM_URL, UPSTREAM_SERVICE_TOKEN: 'test-only-upstream-service-token' }
    const event = completed as SignedEvent
    expect((await deliver(event, backend)).status).toBe(200)
    const retry = { body: event.body, signature: stripeSignature(STAND_IN_WEBHOOK_SECRET, event.body) }
    expect(JSON.parse((await deliver(retry, backend)).text)).toEqual({ received: true, duplicate: true })
    const calls = upstream.requests.filter((request) => new URL(request.url).pathname === '/api/payments/events')
    expect(calls).toHaveLength(2)
    const sent = (await calls[0]?.json()) as { event: { type: string; data: Record<string, unknown> } }
    expect(sent.event.type).toBe('payment.succeeded')
    expect(sent.event.data).toEqual({
      payment_id: paymentId,
      order_code: order.code,
      amount: order.total,
      currency: 'EUR',
      state: 'paid',
      idempotency_key: order.key,
    })
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer test-only-upstream-service-token')
    expect(await orderState(order.code)).toEqual({ status: 'paid', payment_state: 'paid' })
  })

  it("acknowledges Stripe's other events (200, ignored) and changes nothing", async () => {
    const body = JSON.stringify({
      id: 'evt_other00000000',
      object: 'event',
      type: 'customer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'cus_1', object: 'customer' } },
    })
    const answer = await deliver({ body, signature: stripeSignature(STAND_IN_WEBHOOK_SECRET, body) })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text)).toEqual({ received: true, ignored: true })
  })
})

describe("Stripe's refunds: refunds.create with our key, confirmed by charge.refunded", () => {
  type StandInRefund = { id: string; amount: number; payment_intent: string; _idempotency_key: string }
  const refundsAtStandIn = async () => (await (await fetch(`${standIn}/_stand-in/refunds`)).json()) as StandInRefund[]
  const refundEvents = async () => (await (await fetch(`${standIn}/_stand-in/refund-events`)).json()) as SignedEvent[]
  const refunded = (code: string) =>
    env.DB.prepare('SELECT status, payment_state, refunded FROM orders WHERE code = ?')
      .bind(code)
      .first<{ status: string; payment_state: string; refunded: number }>()

  /** An order paid through Stripe's hosted page, its webhook delivered. */
  async function paidThroughStripe() {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    const [completed] = await buyerPresses(paymentId, 'pay')
    expect((await deliver(completed as SignedEvent)).status).toBe(200)
    return { order, paymentId }
  }

  it("refunds part of a paid order from the console: Stripe's refund of the session's PaymentIntent under the refund's key, pending until charge.refunded, which is settled once", async () => {
    const { order } = await paidThroughStripe()
    const editor = await consoleLogin('editor')
    const asked = await visit(
      `/_console/orders/${order.code}/refund`,
      formPost({ refund_amount: '250.00' }, { Cookie: editor }),
      STRIPE,
    )
    expect(asked.status).toBe(303)
    const key = await env.DB.prepare(
      `SELECT r.idempotency_key, r.state FROM order_refunds r JOIN orders o ON o.id = r.order_id WHERE o.code = ?`,
    )
      .bind(order.code)
      .first<{ idempotency_key: string; state: string }>()
    expect(key?.state).toBe('pending')
    const refund = (await refundsAtStandIn()).find((one) => one._idempotency_key === key?.idempotency_key)
    expect(refund).toMatchObject({ amount: 25000, payment_intent: expect.stringMatching(/^pi_/) })
    // Pending until Stripe says so.
    expect(await refunded(order.code)).toEqual({ status: 'paid', payment_state: 'paid', refunded: 0 })
    const event = (await refundEvents()).find((one) => one.body.includes(refund?.payment_intent ?? '?')) as SignedEvent
    expect(event.type).toBe('charge.refunded')
    expect((await deliver(event)).status).toBe(200)
    expect(await refunded(order.code)).toEqual({ status: 'paid', payment_state: 'paid', refunded: 25000 })
    const retry = await deliver({ body: event.body, signature: stripeSignature(STAND_IN_WEBHOOK_SECRET, event.body) })
    expect(JSON.parse(retry.text)).toEqual({ received: true, duplicate: true })
    const forged = await deliver({ body: event.body, signature: stripeSignature('whsec_wrong', event.body) })
    expect(forged.status).toBe(401)
    expect(await refunded(order.code)).toEqual({ status: 'paid', payment_state: 'paid', refunded: 25000 })
    const state = await env.DB.prepare(
      `SELECT r.state FROM order_refunds r JOIN orders o ON o.id = r.order_id WHERE o.code = ?`,
    )
      .bind(order.code)
      .first<{ state: string }>()
    expect(state?.state).toBe('refunded')
  })

  it('closes an open session when its order is cancelled (POST /v1/checkout/sessions/{id}/expire); a closed one is left', async () => {
    const order = await placeOrder()
    const { paymentId } = await pay(order)
    await stripe().cancelPayment(paymentId)
    expect(await stripe().paymentStatus(paymentId)).toBe('cancelled')
    await expect(stripe().cancelPayment(paymentId)).resolves.toBeUndefined()
  })

  it('takes one refund per key, and refuses more than is left to refund', async () => {
    const { order, paymentId } = await paidThroughStripe()
    const key = 'refund-key-0123456789abcdef'
    const first = await stripe().refund(paymentId, 100000, key)
    expect((await stripe().refund(paymentId, 100000, key)).refundId).toBe(first.refundId)
    await expect(stripe().refund(paymentId, order.total, 'refund-key-other-0123456789')).rejects.toEqual(
      new PaymentError('invalid'),
    )
    const intent = (await refundsAtStandIn()).find((one) => one.id === first.refundId)?.payment_intent ?? '?'
    // The charge carries no order (the stand-in's charges have no metadata): the provider asks for its PaymentIntent's.
    const full = (await refundEvents()).filter((one) => one.body.includes(intent))
    expect(full[0]?.body).not.toContain(order.code)
    expect(full).toHaveLength(1)
    expect((await deliver(full[0] as SignedEvent)).status).toBe(200)
    expect(await refunded(order.code)).toEqual({ status: 'paid', payment_state: 'paid', refunded: 100000 })
  })
})

describe('the test provider only where it belongs', () => {
  beforeEach(() => {
    // The refused checkout pages' own warning lines (page_unavailable).
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })
  const checkoutAs = async (bindings: Partial<Cloudflare.Env>) =>
    visitAs(await logIn(DEMO), `/it-it/checkout/${'c'.repeat(32)}`, {}, bindings)
  const configLines = (errors: { mock: { calls: unknown[][] } }) =>
    errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"config_invalid"'))

  it('refuses it on a deployment whose PUBLIC_ORIGIN is not this machine: config_invalid, checkout 503, no test page', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const production = { PAYMENT_PROVIDER: 'test', PAYMENT_TEST_PROVIDER_ALLOWED: '' }
    const checkout = await checkoutAs(production)
    expect(checkout.status).toBe(503)
    expect(checkout.text).toContain('temporarily unavailable')
    expect(configLines(errors).some((line) => line.includes('PAYMENT_PROVIDER'))).toBe(true)
    expect(paymentProviderOf({ ...env, ...production }).kind).toBe('off')
    expect((await visit('/_test-payments/tp_000000000000000000000000', {}, production)).status).toBe(404)
    // Empty is the test provider too: refused the same way.
    expect((await checkoutAs({ PAYMENT_PROVIDER: '', PAYMENT_TEST_PROVIDER_ALLOWED: '' })).status).toBe(503)
  })

  it('refuses a provider name this Worker does not have (config_invalid, checkout 503)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect((await checkoutAs({ PAYMENT_PROVIDER: 'paypal-direct' })).status).toBe(503)
    expect(configLines(errors).some((line) => line.includes('PAYMENT_PROVIDER'))).toBe(true)
  })

  it('takes it on a staging deployment that names it, and on this machine with a backend on this machine', () => {
    const ready = (bindings: Partial<Cloudflare.Env>) => paymentProviderOf({ ...env, ...bindings }).kind
    expect(ready({ PAYMENT_PROVIDER: 'test', PAYMENT_TEST_PROVIDER_ALLOWED: 'staging' })).toBe('ready')
    const local = {
      PAYMENT_PROVIDER: 'test',
      PAYMENT_TEST_PROVIDER_ALLOWED: '',
      PUBLIC_ORIGIN: 'http://127.0.0.1:8787',
    }
    expect(ready(local)).toBe('ready')
    expect(ready({ ...local, UPSTREAM_URL: 'http://127.0.0.1:8788' })).toBe('ready')
    vi.spyOn(console, 'error').mockImplementation(() => {})
    // On this machine but against a deployed backend: its orders are real.
    expect(ready({ ...local, UPSTREAM_URL: 'https://api.brand.example' })).toBe('off')
    expect(ready({ ...local, PAYMENT_TEST_PROVIDER_ALLOWED: 'production' })).toBe('ready')
    expect(ready({ PAYMENT_PROVIDER: 'test', PAYMENT_TEST_PROVIDER_ALLOWED: 'yes' })).toBe('off')
  })
})
