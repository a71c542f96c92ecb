import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PaymentError } from '../../src/payments/provider'
import { signWebhook } from '../../src/payments/signature'
import { testProvider } from '../../src/payments/test-provider'
import { CONSOLE_POLICY } from '../../src/security/content-security-policy'
import type { PaymentEvent } from '../../contract/payment-schemas'
import { type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

/** The webhook secret vitest.config.ts gives the Worker. */
const SECRET = 'test-only-payment-webhook-secret'
const provider = () => testProvider(env.DB, SECRET, ORIGIN)

const now = () => Math.floor(Date.now() / 1000)
const randomKey = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24)))).replace(/[+/=]/g, 'x')
let orders = 0

/** An order as placement leaves it: pending payment, in the demo customer's account. */
async function placeOrder({ total = 174900, currency = 'EUR' } = {}): Promise<string> {
  const code = `AUR-PAY${++orders}-${Date.now() % 100000}`
  await env.DB.prepare(
    `INSERT INTO orders (code, user_id, market, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
     VALUES (?, 1, 'it-it', 'pending_payment', ?, ?, ?, '{}', 'pickup', 'card', 'pending', '2026-11-23T09:00:00Z')`,
  )
    .bind(code, currency, total, total)
    .run()
  await env.DB.prepare(
    `INSERT INTO order_events (order_id, status, at) SELECT id, 'pending_payment', placed_at FROM orders WHERE code = ?`,
  )
    .bind(code)
    .run()
  return code
}

const returnUrlOf = (code: string) => `${ORIGIN}/it-it/checkout/${code}/result`

async function createPayment(code: string, amount = 174900, currency = 'EUR') {
  return provider().createPayment({
    orderCode: code,
    amount,
    currency,
    market: 'it-it',
    returnUrl: returnUrlOf(code),
    idempotencyKey: randomKey(),
    description: `Aurora Cycles order ${code}`,
  })
}

const order = (code: string) =>
  env.DB.prepare('SELECT status, payment_state, payment_id FROM orders WHERE code = ?')
    .bind(code)
    .first<{ status: string; payment_state: string; payment_id: string | null }>()
const timeline = async (code: string) =>
  (
    await env.DB.prepare(
      'SELECT e.status FROM order_events e JOIN orders o ON o.id = e.order_id WHERE o.code = ? ORDER BY e.at, e.rowid',
    )
      .bind(code)
      .all<{ status: string }>()
  ).results.map((row) => row.status)
const eventsOf = async (code: string) =>
  (
    await env.DB.prepare('SELECT type FROM webhook_events WHERE order_code = ? ORDER BY received_at, rowid')
      .bind(code)
      .all<{ type: string }>()
  ).results.map((row) => row.type)
const paymentState = (id: string) => provider().paymentStatus(id)

const SAME_ORIGIN = {
  'Content-Type': 'application/x-www-form-urlencoded',
  'Sec-Fetch-Site': 'same-origin',
  Origin: ORIGIN,
}
const CROSS_SITE = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://pay.provider.example' }

/** The buyer presses a button of the test page. */
const press = (paymentId: string, action: string, bindings: Partial<Cloudflare.Env> = {}) =>
  visit(`/_test-payments/${paymentId}`, { method: 'POST', headers: SAME_ORIGIN, body: `action=${action}` }, bindings)

function eventFor(
  code: string,
  paymentId: string,
  state: Exclude<PaymentEvent['data']['state'], 'refunded'>,
  { amount = 174900, currency = 'EUR', id = `evt_${randomKey()}` } = {},
): PaymentEvent {
  const type = (
    {
      paid: 'payment.succeeded',
      failed: 'payment.failed',
      pending: 'payment.pending',
      cancelled: 'payment.cancelled',
    } as const
  )[state]
  return { id, type, created: now(), data: { payment_id: paymentId, order_code: code, amount, currency, state } }
}

/** A provider's delivery: the body signed (by default with the right secret, now) and POSTed from another site. */
async function deliver(
  body: string,
  { secret = SECRET, timestamp = now(), header }: { secret?: string; timestamp?: number; header?: string } = {},
  bindings: Partial<Cloudflare.Env> = {},
) {
  const signature = header ?? (await signWebhook(secret, body, timestamp))
  return visit(
    '/_webhooks/payments',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Payment-Signature': signature, ...CROSS_SITE },
      body,
    },
    bindings,
  )
}

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('the test provider behind the PaymentProvider interface', () => {
  it('creates one payment per idempotency key and sends the buyer to its page', async () => {
    const code = await placeOrder()
    const input = {
      orderCode: code,
      amount: 174900,
      currency: 'EUR',
      market: 'it-it',
      returnUrl: returnUrlOf(code),
      idempotencyKey: randomKey(),
      description: `Order ${code}`,
    }
    const first = await provider().createPayment(input)
    const again = await provider().createPayment(input)
    expect(again).toEqual(first)
    expect(first.paymentId).toMatch(/^tp_[0-9a-f]{24}$/)
    expect(first.redirectUrl).toBe(`${ORIGIN}/_test-payments/${first.paymentId}`)
    expect(first.state).toBe('pending')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE order_code = ?').bind(code).first('n')).toBe(
      1,
    )
    expect(await paymentState(first.paymentId)).toBe('pending')
    expect(await paymentState('tp_000000000000000000000000')).toBeNull()
    expect(await paymentState('../etc')).toBeNull()
  })

  it('refuses a key reused for another amount (idempotency_conflict), a return URL off the site and malformed input (invalid)', async () => {
    const code = await placeOrder()
    const input = {
      orderCode: code,
      amount: 174900,
      currency: 'EUR',
      market: 'it-it',
      returnUrl: returnUrlOf(code),
      idempotencyKey: randomKey(),
      description: 'Order',
    }
    await provider().createPayment(input)
    await expect(provider().createPayment({ ...input, amount: 100 })).rejects.toEqual(
      new PaymentError('idempotency_conflict'),
    )
    await expect(
      provider().createPayment({
        ...input,
        idempotencyKey: randomKey(),
        returnUrl: 'https://evil.example/it-it/checkout/x/result',
      }),
    ).rejects.toEqual(new PaymentError('invalid'))
    for (const bad of [
      { amount: 0 },
      { amount: 12.5 },
      { currency: 'eur' },
      { orderCode: '<script>' },
      { idempotencyKey: 'short' },
      { market: 'Italy' },
      { description: '' },
    ]) {
      await expect(
        provider().createPayment({ ...input, idempotencyKey: randomKey(), ...bad }),
        JSON.stringify(bad),
      ).rejects.toEqual(new PaymentError('invalid'))
    }
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE order_code = ?').bind(code).first('n')).toBe(
      1,
    )
  })

  it('shows a page marked as a test, with the merchant, the amount, the order and three buttons: no script, never cached, not indexed', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const { status, text, headers } = await visit(`/_test-payments/${paymentId}`)
    expect(status).toBe(200)
    expect(text).toContain('TEST PAYMENT — no money moves.')
    expect(textOf(text)).toContain('Pay €1,749.00 to Aurora Cycles')
    expect(text).toContain(code)
    expect(text).toContain(`action="/_test-payments/${paymentId}"`)
    const buttons = [...text.matchAll(/<button type="submit"[^>]*>/g)].map(([tag]) => tag)
    expect(buttons.map((tag) => /value="(\w+)"/.exec(tag)?.[1])).toEqual(['succeed', 'fail', 'pending'])
    for (const tag of buttons) expect(tag).toContain('name="action"')
    expect(text).not.toContain('<script')
    expect(headers.get('Content-Security-Policy')).toBe(CONSOLE_POLICY)
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
  })

  it('shows the way to pay chosen at checkout when the payment names one', async () => {
    const code = await placeOrder()
    const { paymentId } = await provider().createPayment({
      orderCode: code,
      amount: 174900,
      currency: 'EUR',
      market: 'it-it',
      returnUrl: returnUrlOf(code),
      idempotencyKey: randomKey(),
      description: `Order ${code}`,
      method: 'paypal',
    })
    expect(textOf((await visit(`/_test-payments/${paymentId}`)).text)).toMatch(/Paying with\s+PayPal/)
    const { paymentId: plain } = await createPayment(code, 174900, 'EUR')
    expect((await visit(`/_test-payments/${plain}`)).text).not.toContain('Paying with')
  })

  it('succeed: the payment is paid, its signed webhook settles the order (paid, in its timeline) and the buyer goes back to the shop', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const { status, headers } = await press(paymentId, 'succeed')
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(returnUrlOf(code))
    expect(await paymentState(paymentId)).toBe('paid')
    expect(await order(code)).toEqual({ status: 'paid', payment_state: 'paid', payment_id: paymentId })
    expect(await timeline(code)).toEqual(['pending_payment', 'paid'])
    expect(await eventsOf(code)).toEqual(['payment.succeeded'])
  })

  it("fail: the payment fails, and so does the order's payment; the order still waits for one (the buyer may try again)", async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const { status, headers } = await press(paymentId, 'fail')
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(returnUrlOf(code))
    expect(await paymentState(paymentId)).toBe('failed')
    expect(await order(code)).toMatchObject({ status: 'pending_payment', payment_state: 'failed' })
    expect(await timeline(code)).toEqual(['pending_payment'])
    expect(await eventsOf(code)).toEqual(['payment.failed'])
  })

  it('leave pending, then settle later from the same page: each choice sends its own webhook', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    expect((await press(paymentId, 'pending')).status).toBe(303)
    expect(await paymentState(paymentId)).toBe('pending')
    expect(await order(code)).toMatchObject({ status: 'pending_payment', payment_state: 'pending' })
    const later = await visit(`/_test-payments/${paymentId}`)
    expect(later.text).toContain('This payment was left pending. Settle it now')
    expect(later.text).toContain('value="succeed"')
    expect((await press(paymentId, 'succeed')).status).toBe(303)
    expect(await paymentState(paymentId)).toBe('paid')
    expect(await order(code)).toMatchObject({ status: 'paid', payment_state: 'paid' })
    expect(await eventsOf(code)).toEqual(['payment.pending', 'payment.succeeded'])
  })

  it('answers 409 to a button of a payment already paid or failed, and sends nothing', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    await press(paymentId, 'succeed')
    const { status, text } = await press(paymentId, 'fail')
    expect(status).toBe(409)
    expect(text).toContain('This payment is already paid: nothing changed.')
    expect(text).toContain('Back to the shop')
    expect(text).not.toContain('value="fail"')
    expect(await paymentState(paymentId)).toBe('paid')
    expect(await eventsOf(code)).toEqual(['payment.succeeded'])
  })

  it('answers 400 to a press without one of the three actions, and changes nothing', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    for (const body of ['action=refund', 'action=', '', 'action=constructor']) {
      const { status, text } = await visit(`/_test-payments/${paymentId}`, {
        method: 'POST',
        headers: SAME_ORIGIN,
        body,
      })
      expect(status, body).toBe(400)
      expect(text).toContain('Choose one of the buttons')
    }
    expect(await paymentState(paymentId)).toBe('pending')
    expect(await eventsOf(code)).toEqual([])
  })

  it('refuses the buttons posted from another site (403) and changes nothing', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const { status, text } = await visit(`/_test-payments/${paymentId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...CROSS_SITE },
      body: 'action=succeed',
    })
    expect(status).toBe(403)
    expect(text).toContain('This form was sent from another site.')
    expect(await paymentState(paymentId)).toBe('pending')
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
  })

  it('answers 404 for an unknown or malformed payment id', async () => {
    expect((await visit('/_test-payments/tp_000000000000000000000000')).status).toBe(404)
    expect((await visit('/_test-payments/..%2F..%2Fapi')).status).toBe(404)
    expect((await press('tp_000000000000000000000000', 'succeed')).status).toBe(404)
  })

  it("takes no payment with a deployed backend unless the deployment names staging: its page and its buttons answer 404 (a brand's orders are never paid for nothing)", async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const http = { UPSTREAM_URL, PAYMENT_TEST_PROVIDER_ALLOWED: '' }
    expect((await visit(`/_test-payments/${paymentId}`, {}, http)).status).toBe(404)
    expect((await press(paymentId, 'succeed', http)).status).toBe(404)
    expect(await paymentState(paymentId)).toBe('pending')
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
  })

  it('takes payments with a backend on this machine (an http: upstream on 127.0.0.1, as the reference API served alone): its page answers', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const local = { UPSTREAM_URL: 'http://127.0.0.1:8788' }
    const page = await visit(`/_test-payments/${paymentId}`, {}, local)
    expect(page.status).toBe(200)
    expect(page.text).toContain('no money moves')
  })

  it('answers 503 without PAYMENT_WEBHOOK_SECRET (page and webhook), logging payment_secret_missing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const noSecret = { PAYMENT_WEBHOOK_SECRET: undefined } as unknown as Partial<Cloudflare.Env>
    expect((await visit(`/_test-payments/${paymentId}`, {}, noSecret)).status).toBe(503)
    expect((await deliver(JSON.stringify(eventFor(code, paymentId, 'paid')), {}, noSecret)).status).toBe(503)
    expect(
      errors.mock.calls.map(([line]) => String(line)).some((line) => line.includes('"payment_secret_missing"')),
    ).toBe(true)
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
  })
})

describe('the payment webhook, POST /_webhooks/payments', () => {
  it('accepts a well-signed event from another site (it proves itself by its signature) and settles the order', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const { status, text } = await deliver(JSON.stringify(eventFor(code, paymentId, 'paid')))
    expect(status).toBe(200)
    expect(JSON.parse(text)).toEqual({ received: true })
    expect(await order(code)).toEqual({ status: 'paid', payment_state: 'paid', payment_id: paymentId })
  })

  it.each([
    [
      'a forged signature (another secret)',
      async (body: string) => deliver(body, { secret: 'not-the-secret' }),
      401,
      'signature',
    ],
    [
      'an altered body (signed, then changed)',
      async (body: string) =>
        deliver(body.replace('"paid"', '"paid" '), { header: await signWebhook(SECRET, body, now()) }),
      401,
      'signature',
    ],
    [
      'a stale timestamp (6 minutes old)',
      async (body: string) => deliver(body, { timestamp: now() - 360 }),
      401,
      'stale',
    ],
    ['a timestamp 6 minutes ahead', async (body: string) => deliver(body, { timestamp: now() + 360 }), 401, 'stale'],
    [
      'no signature header',
      async (body: string) =>
        visit('/_webhooks/payments', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...CROSS_SITE },
          body,
        }),
      400,
      'malformed',
    ],
    ['a malformed signature header', async (body: string) => deliver(body, { header: 'sha256=abc' }), 400, 'malformed'],
  ])('refuses %s and changes nothing', async (_what, send, status, reason) => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const answer = await send(JSON.stringify(eventFor(code, paymentId, 'paid')))
    expect(answer.status).toBe(status)
    expect(JSON.parse(answer.text)).toEqual({ error: reason })
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending', payment_id: null })
    expect(await eventsOf(code)).toEqual([])
  })

  it('refuses a well-signed body that is no event (400 "body") and changes nothing', async () => {
    const code = await placeOrder()
    for (const body of [
      'not json',
      '[]',
      '{}',
      JSON.stringify({ ...eventFor(code, 'tp_000000000000000000000000', 'paid'), type: 'charge.refunded' }),
    ]) {
      const { status, text } = await deliver(body)
      expect(status, body).toBe(400)
      expect(JSON.parse(text)).toEqual({ error: 'body' })
    }
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
  })

  it('takes the same event twice harmlessly: 200 both times, and nothing changes the second time', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const failed = JSON.stringify(eventFor(code, paymentId, 'failed'))
    expect((await deliver(failed)).status).toBe(200)
    expect(await order(code)).toMatchObject({ payment_state: 'failed' })
    // The buyer tries again (placement puts the order back to pending); the provider retries the old delivery.
    await env.DB.prepare(`UPDATE orders SET payment_state = 'pending' WHERE code = ?`).bind(code).run()
    const retry = await deliver(failed)
    expect(retry.status).toBe(200)
    expect(JSON.parse(retry.text)).toEqual({ received: true, duplicate: true })
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
    expect(await eventsOf(code)).toEqual(['payment.failed'])
  })

  it('refuses another event under a known event id (400 "replayed") and changes nothing', async () => {
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const first = eventFor(code, paymentId, 'failed')
    expect((await deliver(JSON.stringify(first))).status).toBe(200)
    await env.DB.prepare(`UPDATE orders SET payment_state = 'pending' WHERE code = ?`).bind(code).run()
    const { status, text } = await deliver(JSON.stringify(eventFor(code, paymentId, 'paid', { id: first.id })))
    expect(status).toBe(400)
    expect(JSON.parse(text)).toEqual({ error: 'replayed' })
    expect(await order(code)).toMatchObject({ status: 'pending_payment', payment_state: 'pending' })
  })

  it('a paid event counts once: a second paid event of the order changes nothing, and is logged as paid twice when another payment paid', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    expect((await deliver(JSON.stringify(eventFor(code, paymentId, 'paid')))).status).toBe(200)
    expect((await deliver(JSON.stringify(eventFor(code, paymentId, 'paid')))).status).toBe(200)
    expect(await timeline(code)).toEqual(['pending_payment', 'paid'])
    expect(errors).not.toHaveBeenCalled()
    expect((await deliver(JSON.stringify(eventFor(code, 'tp_111111111111111111111111', 'paid')))).status).toBe(200)
    expect(await order(code)).toEqual({ status: 'paid', payment_state: 'paid', payment_id: paymentId })
    expect(
      errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"payment_paid_twice"')),
    ).toHaveLength(1)
  })

  it("never lets a failed or cancelled event undo a paid order, nor fail the order's newer payment", async () => {
    const code = await placeOrder()
    const paid = await createPayment(code)
    await deliver(JSON.stringify(eventFor(code, paid.paymentId, 'paid')))
    await deliver(JSON.stringify(eventFor(code, paid.paymentId, 'failed')))
    await deliver(JSON.stringify(eventFor(code, paid.paymentId, 'cancelled')))
    expect(await order(code)).toMatchObject({ status: 'paid', payment_state: 'paid' })

    const other = await placeOrder()
    await env.DB.prepare('UPDATE orders SET payment_id = ? WHERE code = ?')
      .bind('tp_222222222222222222222222', other)
      .run()
    await deliver(JSON.stringify(eventFor(other, 'tp_333333333333333333333333', 'failed')))
    expect(await order(other)).toMatchObject({ payment_state: 'pending' })
    await deliver(JSON.stringify(eventFor(other, 'tp_222222222222222222222222', 'cancelled')))
    expect(await order(other)).toMatchObject({ status: 'pending_payment', payment_state: 'failed' })
  })

  it('never settles an order with a payment of another amount or currency (logged payment_amount_mismatch)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await placeOrder({ total: 174900, currency: 'EUR' })
    expect(
      (await deliver(JSON.stringify(eventFor(code, 'tp_444444444444444444444444', 'paid', { amount: 100 })))).status,
    ).toBe(200)
    expect(
      (await deliver(JSON.stringify(eventFor(code, 'tp_444444444444444444444444', 'paid', { currency: 'CHF' }))))
        .status,
    ).toBe(200)
    expect(await order(code)).toMatchObject({ status: 'pending_payment', payment_state: 'pending' })
    expect(
      errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"payment_amount_mismatch"')),
    ).toHaveLength(2)
  })

  it('records an event for an order it does not know, and answers 200 (the provider need not retry)', async () => {
    const event = eventFor('AUR-NOSUCH', 'tp_555555555555555555555555', 'paid')
    expect((await deliver(JSON.stringify(event))).status).toBe(200)
    expect(await eventsOf('AUR-NOSUCH')).toEqual(['payment.succeeded'])
  })

  it("answers 503 when settling fails, and forgets the event so that the provider's retry settles the order", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    const body = JSON.stringify(eventFor(code, paymentId, 'paid'))
    const failing = new Proxy(env.DB, {
      get(db, name) {
        if (name === 'prepare')
          return (sql: string) =>
            /FROM orders/.test(sql)
              ? { bind: () => ({ first: () => Promise.reject(new Error('D1 is down')) }) }
              : db.prepare(sql)
        const value = Reflect.get(db, name)
        return typeof value === 'function' ? value.bind(db) : value
      },
    })
    const { status } = await deliver(body, {}, { DB: failing })
    expect(status).toBe(503)
    expect(
      errors.mock.calls.map(([line]) => String(line)).some((line) => line.includes('"payment_settle_failed"')),
    ).toBe(true)
    expect(await eventsOf(code)).toEqual([])
    expect((await deliver(body)).status).toBe(200)
    expect(await order(code)).toMatchObject({ payment_state: 'paid' })
  })

  it("logs the event's id and type, never its order, amount or payment", async () => {
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
    const code = await placeOrder()
    const { paymentId } = await createPayment(code)
    await press(paymentId, 'succeed')
    const events = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.event === 'payment_webhook')
    expect(events).toHaveLength(1)
    expect(events[0]).toEqual({
      level: 'info',
      event: 'payment_webhook',
      event_id: expect.stringMatching(/^evt_/),
      type: 'payment.succeeded',
      outcome: 'paid',
    })
    for (const line of lines) {
      expect(line).not.toContain(code)
      expect(line).not.toContain(paymentId)
      expect(line).not.toContain('174900')
    }
  })

  it('leaves settling out of the public /api/: a POST of an event there is refused (403 from another site, 405 from this one)', async () => {
    const code = await placeOrder()
    const body = JSON.stringify({
      event: eventFor(code, 'tp_121212121212121212121212', 'paid'),
      link_template: `${ORIGIN}/{market}/my-account/orders/{code}`,
    })
    const post = (headers: Record<string, string>) =>
      visit('/api/payments/events', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      })
    expect((await post(CROSS_SITE)).status).toBe(403)
    expect((await post({ 'Sec-Fetch-Site': 'same-origin', Origin: ORIGIN })).status).toBe(405)
    expect(await order(code)).toMatchObject({ status: 'pending_payment', payment_state: 'pending' })
    expect(await eventsOf(code)).toEqual([])
  })

  it('never answers 5xx to fuzzed bodies and signature headers, signed or not', async () => {
    const code = await placeOrder()
    const json = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({
          id: fc.oneof(fc.string(), fc.constant(`evt_${randomKey()}`)),
          type: fc.constantFrom('payment.succeeded', 'payment.failed', 'x', ''),
          created: fc.oneof(fc.integer(), fc.double()),
          data: fc.record({
            payment_id: fc.string(),
            order_code: fc.constantFrom(code, 'AUR-NOSUCH', ''),
            amount: fc.oneof(fc.integer(), fc.constant(174900)),
            currency: fc.constantFrom('EUR', 'eur', ''),
            state: fc.constantFrom('paid', 'failed', 'refunded'),
          }),
        })
        .map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 200 }),
    )
    const header = fc.oneof(
      fc.constant<'sign' | 'stale'>('sign'),
      fc.constant<'sign' | 'stale'>('stale'),
      fc.string({ maxLength: 120 }),
      fc
        .tuple(fc.integer({ min: 0, max: 2 ** 40 }), fc.stringMatching(/^[0-9a-f]{64}$/))
        .map(([t, v]) => `t=${t},v1=${v}`),
    )
    await fc.assert(
      fc.asyncProperty(json, header, async (body, how) => {
        const { status } =
          how === 'sign'
            ? await deliver(body)
            : how === 'stale'
              ? await deliver(body, { timestamp: now() - 3600 })
              : await deliver(body, { header: how.replace(/[^\x20-\x7e]/g, '') })
        expect(status).toBeLessThan(500)
      }),
      { numRuns: 80 },
    )
    expect(await order(code)).toMatchObject({ status: expect.any(String) })
  })
})

describe("the payment webhook with the brand's backend over HTTP (UPSTREAM_URL)", () => {
  const TOKEN = 'test-only-upstream-service-token'
  const backend = {
    UPSTREAM_URL,
    UPSTREAM_SERVICE_TOKEN: TOKEN,
    UPSTREAM_TIMEOUT_MS: '300',
  } as unknown as Partial<Cloudflare.Env>
  const settleCalls = (upstream: HttpUpstream) =>
    upstream.requests.filter((request) => new URL(request.url).pathname === '/api/payments/events')

  it('tells the backend a verified event in exactly one POST api/payments/events, with the service token, and answers 200', async () => {
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
    const upstream = httpUpstream()
    const code = await placeOrder()
    const event = eventFor(code, 'tp_666666666666666666666666', 'paid')
    const { status, text } = await deliver(JSON.stringify(event), {}, backend)
    expect(status).toBe(200)
    expect(JSON.parse(text)).toEqual({ received: true })
    expect(upstream.requests).toHaveLength(1)
    const [call] = upstream.requests
    expect(call?.method).toBe('POST')
    expect(call?.url).toBe(`${UPSTREAM_URL}/api/payments/events`)
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`)
    expect(await call?.json()).toEqual({ event, link_template: `${ORIGIN}/{market}/my-account/orders/{code}` })
    expect(await order(code)).toMatchObject({ status: 'paid', payment_state: 'paid' })
    expect(lines.some((line) => line.includes('"outcome":"paid"'))).toBe(true)
    for (const line of lines) expect(line).not.toContain(TOKEN)
  })

  it('answers the provider 503 when the call fails, times out, is refused or answers garbage (it retries), and the retry settles the order', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const upstream = httpUpstream()
    const code = await placeOrder()
    const body = JSON.stringify(eventFor(code, 'tp_777777777777777777777777', 'paid'))
    const faults = [500, 503, 'slow', 'refused', 'garbage'] as const
    for (const fault of faults) {
      upstream.fail('payments/events', fault)
      expect((await deliver(body, {}, backend)).status, String(fault)).toBe(503)
    }
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
    expect(
      errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"payment_settle_failed"')),
    ).toHaveLength(faults.length)
    upstream.heal()
    expect((await deliver(body, {}, backend)).status).toBe(200)
    expect(await order(code)).toMatchObject({ status: 'paid', payment_state: 'paid' })
    expect(settleCalls(upstream)).toHaveLength(faults.length + 1)
  })

  it('answers 400 "replayed" to the backend\'s 409 event_conflict, and 503 to its 409 event_in_progress (the provider retries)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const upstream = httpUpstream()
    const code = await placeOrder()
    const body = JSON.stringify(eventFor(code, 'tp_888888888888888888888888', 'paid'))
    const refusal = (reason: string) => () =>
      Response.json({ message: reason.replace(/_/g, ' '), code: reason }, { status: 409 })
    upstream.fail('payments/events', refusal('event_conflict'))
    const replayed = await deliver(body, {}, backend)
    expect(replayed.status).toBe(400)
    expect(JSON.parse(replayed.text)).toEqual({ error: 'replayed' })
    upstream.fail('payments/events', refusal('event_in_progress'))
    expect((await deliver(body, {}, backend)).status).toBe(503)
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
  })

  it('answers 503 without UPSTREAM_SERVICE_TOKEN, logged upstream_service_token_missing, and calls nothing', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const upstream = httpUpstream()
    const code = await placeOrder()
    const body = JSON.stringify(eventFor(code, 'tp_999999999999999999999999', 'paid'))
    expect(
      (await deliver(body, {}, { ...backend, UPSTREAM_SERVICE_TOKEN: '' } as Partial<Cloudflare.Env>)).status,
    ).toBe(503)
    expect(upstream.requests).toEqual([])
    expect(
      errors.mock.calls.map(([line]) => String(line)).some((line) => line.includes('"upstream_service_token_missing"')),
    ).toBe(true)
    expect(await order(code)).toMatchObject({ payment_state: 'pending' })
  })
})
