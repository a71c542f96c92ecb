import { logEvent } from './log'
import { paymentKeyOf } from '../contract/payment-key'
import type { PaymentEvent, Settlement } from '../contract/payment-schemas'
import { orderPaidStatements } from './order-paid'
import { settleRefund } from './order-refunded'

type OrderRow = {
  id: number
  code: string
  status: string
  payment_state: string
  payment_id: string | null
  payment_attempt: number
  total: number
  currency: string
  refunded: number
}

const nowIso = () => new Date().toISOString().replace(/\.[0-9]+Z$/, 'Z')

/**
 * Settles a verified payment event the API has not settled before (`POST api/payments/events`,
 * src/api/resources/payments.ts): the event applied to its order (`orders.payment_state`, `status`, the timeline in
 * `order_events`).
 *
 * - paid: `payment_state` paid, `status` pending_payment → paid, a `paid` row in the timeline; the payment becomes
 *   the order's. In the same batch, once per order whatever the deliveries, what paying means
 *   (src/api/order-paid.ts): the stock taken, the lines leaving the cart, the checkout's generation raised, the
 *   confirmation mail to the outbox (its link from `linkTemplate`); a sku ordered beyond its stock is logged `oversold`
 *   (the event id, the sku and the quantities). Paid a second time by another payment: unchanged,
 *   logged `payment_paid_twice` (a refund for staff); paid while set aside (cancelled by a later placement): the
 *   order is reopened as paid and settled as above, logged `payment_reopened_order` (staff check the newer order).
 * - failed or cancelled: `payment_state` failed while pending, for the order's current payment only (or, before
 *   placement records one, on the first attempt, any; on a later one, a payment whose idempotency key (reported
 *   by the provider) is the current attempt's: an older attempt's payment never fails a newer one); `status` stays pending_payment, so the buyer can pay again.
 * - refunded: the refunds the provider confirmed (reference-api/order-refunded.ts), once whatever the deliveries.
 * - pending: nothing changes (the order is pending from placement; a late report must not undo a failure).
 *
 * @example
 * const settlement = await settlePayment(env.DB, event, 'https://www.brand.example/{market}/my-account/orders/{code}')
 */
export async function settlePayment(db: D1Database, event: PaymentEvent, linkTemplate: string): Promise<Settlement> {
  const { order_code: code, payment_id: paymentId, amount, currency, state } = event.data
  const order = await db
    .prepare(
      'SELECT id, code, status, payment_state, payment_id, payment_attempt, total, currency, refunded FROM orders WHERE code = ?',
    )
    .bind(code)
    .first<OrderRow>()
  if (!order) return 'no_order'
  if (order.total !== amount || order.currency !== currency) {
    logEvent('error', 'payment_amount_mismatch', { event_id: event.id, type: event.type })
    return 'amount_mismatch'
  }
  if (state === 'refunded') return settleRefund(db, order, event, linkTemplate)
  if (state === 'paid') {
    // What paying means is read and prepared only when this event may make the order paid; it runs only if it does.
    // A set-aside order (cancelled by a later placement while its payment was under way) is reopened as paid.
    const payable = order.status === 'pending_payment' || order.status === 'cancelled'
    const paying =
      order.payment_state !== 'paid' && payable
        ? await orderPaidStatements(db, order.id, event.id, linkTemplate)
        : { statements: [], oversold: [] }
    const [updated] = await db.batch([
      db
        .prepare(
          `UPDATE orders SET payment_state = 'paid', payment_id = ?,
                  paid_event = CASE WHEN status IN ('pending_payment', 'cancelled') THEN ? ELSE paid_event END,
                  status = CASE WHEN status IN ('pending_payment', 'cancelled') THEN 'paid' ELSE status END
            WHERE id = ? AND payment_state <> 'paid'`,
        )
        .bind(paymentId, event.id, order.id),
      db
        .prepare(
          `INSERT OR IGNORE INTO order_events (order_id, status, at) SELECT id, 'paid', ? FROM orders WHERE id = ? AND status = 'paid'`,
        )
        .bind(nowIso(), order.id),
      ...paying.statements,
    ])
    if (updated?.meta.changes === 1) {
      // Sold beyond the stock (it stopped at 0): staff must find the missing units or tell the buyer.
      for (const { sku, ordered, stock } of paying.oversold)
        logEvent('error', 'oversold', { event_id: event.id, sku, ordered, stock })
      // Paid after being set aside: reopened and settled like any paid order; staff check the cart's newer order.
      if (order.status === 'cancelled')
        logEvent('error', 'payment_reopened_order', { event_id: event.id, type: event.type })
      else if (order.status !== 'pending_payment')
        logEvent('error', 'payment_for_closed_order', { event_id: event.id, type: event.type })
      return 'paid'
    }
    if (order.payment_id && order.payment_id !== paymentId)
      logEvent('error', 'payment_paid_twice', { event_id: event.id, type: event.type })
    return 'unchanged'
  }
  if (state === 'failed' || state === 'cancelled') {
    // Before the payment id is recorded: on the first attempt any payment of the order is that attempt's; on a later
    // one, only a payment whose idempotency key is the current attempt's (`paymentKeyOf`) is.
    const key = event.data.idempotency_key
    const currentAttempt = order.payment_attempt <= 1 || (key !== undefined && key === (await paymentKeyOf(order)))
    const updated = await db
      .prepare(
        `UPDATE orders SET payment_state = 'failed'
          WHERE id = ? AND payment_state = 'pending' AND payment_attempt = ? AND (payment_id = ? OR (payment_id IS NULL AND ?))`,
      )
      .bind(order.id, order.payment_attempt, paymentId, currentAttempt ? 1 : 0)
      .run()
    return updated.meta.changes === 1 ? 'failed' : 'unchanged'
  }
  return 'unchanged'
}
