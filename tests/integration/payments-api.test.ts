import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { EVENT_CLAIM_SECONDS } from '../../reference-api/resources/payments'
import { sha256Hex } from '../../src/crypto/digest'
import { type PaymentEvent, paymentEventAnswer } from '../../contract/payment-schemas'

const LINK = 'https://site.test/{market}/my-account/orders/{code}'
const SKU = 'ARIA-S-WHT'
let orders = 0

/**
 * Calls `POST api/payments/events` of the embedded API in-process, as the Worker's upstream client does (`token`: its
 * bearer; `serviceToken`: the API's UPSTREAM_SERVICE_TOKEN).
 */
async function settle(
  event: unknown,
  linkTemplate: string = LINK,
  { token, serviceToken }: { token?: string; serviceToken?: string } = {},
) {
  const request = new Request('http://embedded.invalid/api/payments/events', {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ event, link_template: linkTemplate }),
  })
  const ctx = createExecutionContext()
  const apiEnv = serviceToken ? { ...env, UPSTREAM_SERVICE_TOKEN: serviceToken } : env
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], apiEnv, ctx)
  const json = (await response.json().catch(() => null)) as Record<string, unknown>
  await waitOnExecutionContext(ctx)
  return { status: response.status, json }
}

/** An order as placement leaves it (pending payment, the demo customer's, two of one sku), with its code. */
async function placeOrder(total = 59960): Promise<string> {
  const code = `AUR-API${++orders}-${Date.now() % 100000}`
  await env.DB.prepare(
    `INSERT INTO orders (code, user_id, market, locale, status, currency, subtotal, total, billing_address, delivery_method, payment_method,
                         payment_state, payment_attempt, placed_at)
     VALUES (?, 1, 'it-it', 'it', 'pending_payment', 'EUR', ?, ?, '{}', 'pickup', 'card', 'pending', 1, '2026-11-23T09:00:00Z')`,
  )
    .bind(code, total, total)
    .run()
  await env.DB.prepare(
    `INSERT INTO order_items (order_id, position, sku, name, variant, quantity, unit_price) SELECT id, 1, ?, 'Aurora Aria', 'S · Bianco', 2, ? FROM orders WHERE code = ?`,
  )
    .bind(SKU, total / 2, code)
    .run()
  return code
}

function eventOf(
  code: string,
  state: Exclude<PaymentEvent['data']['state'], 'refunded'>,
  { id = `evt_${crypto.randomUUID().replace(/-/g, '')}`, amount = 59960 } = {},
): PaymentEvent {
  const type = (
    {
      paid: 'payment.succeeded',
      failed: 'payment.failed',
      pending: 'payment.pending',
      cancelled: 'payment.cancelled',
    } as const
  )[state]
  return {
    id,
    type,
    created: 1763890000,
    data: { payment_id: 'tp_aaaaaaaaaaaaaaaaaaaaaaaa', order_code: code, amount, currency: 'EUR', state },
  }
}

const order = (code: string) =>
  env.DB.prepare('SELECT status, payment_state FROM orders WHERE code = ?').bind(code).first()
const stock = async () =>
  (await env.DB.prepare('SELECT stock FROM product_variants WHERE sku = ?').bind(SKU).first<number>('stock')) ?? -1
const mails = async (code: string) =>
  (
    await env.DB.prepare(`SELECT body FROM outbox WHERE kind = 'order_confirmation' AND subject LIKE ?`)
      .bind(`%${code}%`)
      .all<{ body: string }>()
  ).results

afterEach(() => {
  vi.restoreAllMocks()
})

describe('POST api/payments/events', () => {
  it('settles a paid event once: the same event again answers the first outcome, pays nothing twice and queues one mail', async () => {
    const code = await placeOrder()
    const before = await stock()
    const event = eventOf(code, 'paid')
    const first = await settle(event)
    expect(first.status).toBe(200)
    expect(paymentEventAnswer.parse(first.json).data).toEqual({ event_id: event.id, outcome: 'paid', duplicate: false })
    const again = await settle(event)
    expect(again.status).toBe(200)
    expect(paymentEventAnswer.parse(again.json).data).toEqual({ event_id: event.id, outcome: 'paid', duplicate: true })
    expect(await order(code)).toEqual({ status: 'paid', payment_state: 'paid' })
    expect(await stock()).toBe(before - 2)
    const queued = await mails(code)
    expect(queued).toHaveLength(1)
    expect(queued[0]?.body).toContain(`https://site.test/it-it/my-account/orders/${code}`)
  })

  it("answers a failed event's outcome again to its retry, even after the order moved on (nothing acts twice)", async () => {
    const code = await placeOrder()
    const event = eventOf(code, 'failed')
    expect(paymentEventAnswer.parse((await settle(event)).json).data.outcome).toBe('failed')
    // The buyer tries again: the order waits for a payment once more; the provider's retry must not fail it.
    await env.DB.prepare(`UPDATE orders SET payment_state = 'pending' WHERE code = ?`).bind(code).run()
    expect(paymentEventAnswer.parse((await settle(event)).json).data).toMatchObject({
      outcome: 'failed',
      duplicate: true,
    })
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
  })

  it('refuses another event under a known id (409 event_conflict) and changes nothing', async () => {
    const code = await placeOrder()
    const first = eventOf(code, 'failed')
    await settle(first)
    await env.DB.prepare(`UPDATE orders SET payment_state = 'pending' WHERE code = ?`).bind(code).run()
    const { status, json } = await settle(eventOf(code, 'paid', { id: first.id }))
    expect(status).toBe(409)
    expect(json).toMatchObject({ code: 'event_conflict' })
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
    expect(await mails(code)).toEqual([])
  })

  it('answers amount_mismatch to a payment of another amount, and nothing changes', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await placeOrder()
    const before = await stock()
    const { status, json } = await settle(eventOf(code, 'paid', { amount: 100 }))
    expect(status).toBe(200)
    expect(paymentEventAnswer.parse(json).data).toMatchObject({ outcome: 'amount_mismatch', duplicate: false })
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
    expect(await stock()).toBe(before)
    expect(await mails(code)).toEqual([])
    expect(
      errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"payment_amount_mismatch"')),
    ).toHaveLength(1)
  })

  it('answers no_order for an order it does not know, and unchanged for a pending report', async () => {
    expect(paymentEventAnswer.parse((await settle(eventOf('AUR-NOSUCH', 'paid'))).json).data.outcome).toBe('no_order')
    const code = await placeOrder()
    expect(paymentEventAnswer.parse((await settle(eventOf(code, 'pending'))).json).data.outcome).toBe('unchanged')
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
  })

  it("answers 409 event_in_progress while the event's first delivery settles it, and takes over a claim left without an outcome", async () => {
    const code = await placeOrder()
    const event = eventOf(code, 'paid')
    // A claim of this very event (its hash as the API reads it) without an outcome: its first delivery is under way.
    const hash = await sha256Hex(JSON.stringify(event))
    await env.DB.prepare(
      'INSERT INTO webhook_events (event_id, type, body_sha256, payment_id, order_code) VALUES (?, ?, ?, ?, ?)',
    )
      .bind(event.id, event.type, hash, event.data.payment_id, code)
      .run()
    const busy = await settle(event)
    expect(busy.status).toBe(409)
    expect(busy.json).toMatchObject({ code: 'event_in_progress' })
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })

    await env.DB.prepare(
      `UPDATE webhook_events SET received_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) WHERE event_id = ?`,
    )
      .bind(`-${EVENT_CLAIM_SECONDS + 1} seconds`, event.id)
      .run()
    const takenOver = await settle(event)
    expect(takenOver.status).toBe(200)
    expect(paymentEventAnswer.parse(takenOver.json).data).toMatchObject({ outcome: 'paid', duplicate: false })
    expect(await mails(code)).toHaveLength(1)
  })

  it("refuses what is no event, or a link off the site's orders (422), and remembers nothing", async () => {
    const code = await placeOrder()
    const event = eventOf(code, 'paid')
    for (const [body, link] of [
      [{ ...event, type: 'charge.refunded' }, LINK],
      [{ ...event, data: { ...event.data, amount: -1 } }, LINK],
      [event, 'https://evil.example/{market}/account/{code}'],
      [event, 'javascript:alert(1)//{market}/my-account/orders/{code}'],
    ] as const) {
      expect((await settle(body, link)).status, JSON.stringify([body, link])).toBe(422)
    }
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE order_code = ?').bind(code).first('n'),
    ).toBe(0)
    expect(await order(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
  })

  it('forgets an event whose settling failed (500), so that its next delivery settles the order', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await placeOrder()
    const event = eventOf(code, 'paid')
    const failing = new Proxy(env.DB, {
      get(db, name) {
        if (name === 'prepare')
          return (sql: string) =>
            /FROM orders WHERE code/.test(sql)
              ? { bind: () => ({ first: () => Promise.reject(new Error('D1 is down')) }) }
              : db.prepare(sql)
        const value = Reflect.get(db, name)
        return typeof value === 'function' ? value.bind(db) : value
      },
    })
    const request = new Request('http://embedded.invalid/api/payments/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event, link_template: LINK }),
    })
    const response = await api.fetch(
      request as Parameters<typeof api.fetch>[0],
      { ...env, DB: failing },
      createExecutionContext(),
    )
    expect(response.status).toBe(500)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE event_id = ?').bind(event.id).first('n'),
    ).toBe(0)
    expect(paymentEventAnswer.parse((await settle(event)).json).data).toMatchObject({
      outcome: 'paid',
      duplicate: false,
    })
  })
})

describe("settling with the Worker's service token (UPSTREAM_SERVICE_TOKEN set on the API)", () => {
  const SERVICE_TOKEN = 'test-only-upstream-service-token'

  it('answers 401 and settles nothing without it or with another bearer, and settles the order with it', async () => {
    const code = await placeOrder()
    const event = eventOf(code, 'paid')
    for (const token of [undefined, 'not-the-service-token']) {
      const refused = await settle(event, LINK, { token, serviceToken: SERVICE_TOKEN })
      expect(refused.status, String(token)).toBe(401)
    }
    const pending = await env.DB.prepare('SELECT payment_state FROM orders WHERE code = ?').bind(code).first()
    expect(pending).toEqual({ payment_state: 'pending' })
    const settled = await settle(event, LINK, { token: SERVICE_TOKEN, serviceToken: SERVICE_TOKEN })
    expect(settled.status).toBe(200)
    expect(settled.json).toMatchObject({ data: { outcome: 'paid', duplicate: false } })
  })
})
