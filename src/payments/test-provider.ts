import type { ExecutionContext } from 'hono'
import type { Bindings } from '../env'
import { logEvent } from '../ops/log'
import { type PaymentEvent, paymentEvent } from '../../contract/payment-schemas'
import {
  type CreatedPayment,
  type CreatePayment,
  checkedPayment,
  EVENT_TYPES,
  PaymentError,
  type PaymentProvider,
  type PaymentState,
  type StartedRefund,
  verifySignedEvent,
} from './provider'
import { signWebhook } from './signature'

/** Where the test provider's page lives, in the Worker's own tier (`/_test-payments/{paymentId}`). */
export const TEST_PAYMENTS_PATH = '/_test-payments'

/** The Worker's webhook route, which every provider calls (src/payments/webhook.ts). */
export const WEBHOOK_PATH = '/_webhooks/payments'

/** The test provider's signature header (Stripe's is `Stripe-Signature`; the scheme is the same). */
export const TEST_SIGNATURE_HEADER = 'Payment-Signature'

/** Whom the test page says the buyer pays. */
export const TEST_MERCHANT = 'Aurora Cycles'

/** What a test payment id looks like: `tp_` and 24 hex digits (96 random bits). */
export const TEST_PAYMENT_ID = /^tp_[0-9a-f]{24}$/

/** What the buyer can do on the test page: pay, fail, or leave the payment pending (and settle it later). */
export type TestAction = 'succeed' | 'fail' | 'pending'
export const TEST_ACTIONS: Record<TestAction, PaymentState> = { succeed: 'paid', fail: 'failed', pending: 'pending' }

export type TestPayment = {
  id: string
  order_code: string
  amount: number
  currency: string
  market: string
  description: string
  return_url: string
  state: PaymentState
  idempotency_key: string
  /** The way to pay the buyer chose at checkout (`card`, `paypal`), or null. */
  method: string | null
  created_at: string
  updated_at: string
}

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('')

/** Where the test provider delivers the webhooks of its refunds: the Worker's own `fetch` with these (its request's). */
export type TestDelivery = { env: Bindings; ctx: ExecutionContext }

/**
 * The embedded test provider: the PaymentProvider of src/payments/provider.ts over the `payments` table of D1 (its
 * own ledger, as a real provider keeps one), its page `/_test-payments/{id}` (src/payments/test-payment-page.tsx)
 * standing for the provider's hosted checkout, and its webhooks signed with `PAYMENT_WEBHOOK_SECRET` and delivered
 * to the Worker's webhook route through the Worker's own `fetch`, as an HTTP call from a provider arrives. A refund
 * is recorded in its ledger (`payment_refunds`) and its `payment.refunded` webhook delivered at once when `delivery`
 * is given. No network, no money.
 */
export function testProvider(
  db: D1Database,
  secret: string,
  publicOrigin: string,
  delivery?: TestDelivery,
): PaymentProvider {
  return {
    name: 'test',

    async createPayment(input: CreatePayment): Promise<CreatedPayment> {
      const { orderCode, amount, currency, market, description, returnUrl, idempotencyKey, method } = checkedPayment(
        input,
        publicOrigin,
      )
      await db
        .prepare(
          `INSERT INTO payments (id, order_code, amount, currency, market, description, return_url, idempotency_key, method)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`,
        )
        .bind(
          `tp_${randomHex(12)}`,
          orderCode,
          amount,
          currency,
          market,
          description,
          returnUrl,
          idempotencyKey,
          method ?? null,
        )
        .run()
      const payment = await db
        .prepare('SELECT * FROM payments WHERE idempotency_key = ?')
        .bind(idempotencyKey)
        .first<TestPayment>()
      if (!payment) throw new PaymentError('unavailable')
      // A key names one payment: the same key for another order or amount is a caller's bug, never a second payment.
      if (payment.order_code !== orderCode || payment.amount !== amount || payment.currency !== currency) {
        throw new PaymentError('idempotency_conflict')
      }
      return {
        paymentId: payment.id,
        redirectUrl: `${publicOrigin}${TEST_PAYMENTS_PATH}/${payment.id}`,
        state: payment.state,
      }
    },

    async paymentStatus(paymentId: string): Promise<PaymentState | null> {
      if (!TEST_PAYMENT_ID.test(paymentId)) return null
      return (await readTestPayment(db, paymentId))?.state ?? null
    },

    verifyWebhook(request: Request) {
      return verifySignedEvent(
        request,
        secret,
        TEST_SIGNATURE_HEADER,
        (json) => paymentEvent.safeParse(json).data ?? null,
      )
    },

    async refund(paymentId: string, amount: number, idempotencyKey: string): Promise<StartedRefund> {
      const payment = await readTestPayment(db, paymentId)
      if (payment?.state !== 'paid' || !Number.isInteger(amount) || amount <= 0) throw new PaymentError('invalid')
      const [, refunds] = await db.batch<{ id: string; amount: number; idempotency_key: string }>([
        // Never more than the payment less what was refunded: a provider refuses that too.
        db
          .prepare(
            `INSERT INTO payment_refunds (id, payment_id, amount, idempotency_key)
             SELECT ?1, ?2, ?3, ?4 WHERE ?3 <= ?5 - (SELECT COALESCE(SUM(amount), 0) FROM payment_refunds WHERE payment_id = ?2)
             ON CONFLICT (idempotency_key) DO NOTHING`,
          )
          .bind(`tr_${randomHex(12)}`, paymentId, amount, idempotencyKey, payment.amount),
        db.prepare('SELECT id, amount, idempotency_key FROM payment_refunds WHERE payment_id = ?').bind(paymentId),
      ])
      const all = refunds?.results ?? []
      const refund = all.find((row) => row.idempotency_key === idempotencyKey)
      if (!refund || refund.amount !== amount) throw new PaymentError('invalid')
      const event = testEvent(payment, 'payment.refunded', {
        state: 'refunded',
        refunded: all.reduce((sum, row) => sum + row.amount, 0),
      })
      if (delivery) await deliverTestWebhook(event, { secret, publicOrigin, ...delivery })
      return { refundId: refund.id }
    },

    async cancelPayment(paymentId: string): Promise<void> {
      await db
        .prepare(
          `UPDATE payments SET state = 'cancelled', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND state = 'pending'`,
        )
        .bind(paymentId)
        .run()
    },
  }
}

/** A test payment by id, or null. */
export async function readTestPayment(db: D1Database, id: string): Promise<TestPayment | null> {
  if (!TEST_PAYMENT_ID.test(id)) return null
  return db.prepare('SELECT * FROM payments WHERE id = ?').bind(id).first<TestPayment>()
}

/**
 * What the buyer did on the test page, applied to a pending payment only (a paid or failed payment is final):
 * the payment with its new state and the event that tells the Worker, or `settled` (it was already paid, failed or
 * cancelled: nothing changes, nothing is sent), or null for an unknown payment.
 */
export async function actOnTestPayment(
  db: D1Database,
  id: string,
  action: TestAction,
): Promise<{ payment: TestPayment; event: PaymentEvent } | 'settled' | null> {
  const state = TEST_ACTIONS[action]
  const payment = await db
    .prepare(
      `UPDATE payments SET state = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
        WHERE id = ? AND state = 'pending' RETURNING *`,
    )
    .bind(state, id)
    .first<TestPayment>()
  if (!payment) return (await readTestPayment(db, id)) ? 'settled' : null
  return { payment, event: testEvent(payment, EVENT_TYPES[state], { state, idempotency_key: payment.idempotency_key }) }
}

/** An event about a test payment, as the test provider signs and sends it: a fresh id, now, the payment's figures. */
function testEvent(
  payment: TestPayment,
  type: PaymentEvent['type'],
  about: Pick<PaymentEvent['data'], 'state' | 'refunded' | 'idempotency_key'>,
): PaymentEvent {
  return {
    id: `evt_${randomHex(12)}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      payment_id: payment.id,
      order_code: payment.order_code,
      amount: payment.amount,
      currency: payment.currency,
      ...about,
    },
  }
}

/** The Worker's own `fetch` (src/app.ts registers it): where the test provider delivers its webhooks. */
export type WebhookReceiver = (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>
let receiver: WebhookReceiver | null = null

/** Registers the Worker's `fetch` as the receiver of the test provider's webhooks (src/app.ts, once). */
export function deliverTestWebhooksTo(worker: { fetch: WebhookReceiver }): void {
  receiver = (request, env, ctx) => worker.fetch(request, env, ctx)
}

/**
 * Delivers an event as a provider does: the JSON body signed with the webhook secret at the current time
 * (`Payment-Signature: t=…,v1=…`), POSTed to `{PUBLIC_ORIGIN}/_webhooks/payments` — here handed to the Worker's own
 * `fetch`, so it runs every middleware and check a provider's HTTP call runs. Answers the webhook's status; a
 * failure is logged (`test_webhook_failed`, the event id and status only).
 */
export async function deliverTestWebhook(
  event: PaymentEvent,
  { secret, publicOrigin, env, ctx }: { secret: string; publicOrigin: string; env: Bindings; ctx: ExecutionContext },
): Promise<number> {
  if (!receiver) throw new Error('no webhook receiver registered')
  const body = JSON.stringify(event)
  const request = new Request(`${publicOrigin}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'AuroraTestPayments/1.0',
      [TEST_SIGNATURE_HEADER]: await signWebhook(secret, body, Math.floor(Date.now() / 1000)),
    },
    body,
  })
  const response = await receiver(request, env, ctx)
  await response.body?.cancel().catch(() => {})
  if (!response.ok) logEvent('error', 'test_webhook_failed', { event_id: event.id, status: response.status })
  return response.status
}
