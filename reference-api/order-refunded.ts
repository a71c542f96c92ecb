import type { PaymentEvent, Settlement } from '../contract/payment-schemas'
import { logEvent } from './log'
import { refundedMail } from './order-mails'
import { queueMail } from './outbox'

type RefundedOrder = { id: number; total: number; refunded: number; status: string }

/**
 * Settles a `payment.refunded` event (`settlePayment`, reference-api/settle-payment.ts): the provider has refunded
 * `data.refunded` of the payment in all. What it adds to the order's `refunded` is confirmed: the pending refunds
 * staff asked for, oldest first, as far as it reaches (`order_refunds.state` refunded), a `refund_confirmed` action
 * by the provider, a mail to the customer with the amount refunded now; all of it refunded, the order and its payment
 * are `refunded` (and a `refunded` row in the timeline). Cumulative, so a replayed or late event changes nothing.
 *
 * @example
 * const outcome = await settleRefund(db, order, event, linkTemplate)
 */
export async function settleRefund(
  db: D1Database,
  order: RefundedOrder,
  event: PaymentEvent,
  linkTemplate: string,
): Promise<Settlement> {
  const refunded = Math.min(event.data.refunded ?? 0, order.total)
  if (refunded <= order.refunded) return 'unchanged'
  const added = refunded - order.refunded
  const whole = refunded >= order.total
  const pending = await db
    .prepare(
      `SELECT id, amount, (SELECT COALESCE(SUM(amount), 0) FROM order_refunds WHERE order_id = ?1 AND state = 'refunded') AS confirmed
         FROM order_refunds WHERE order_id = ?1 AND state = 'pending' ORDER BY id`,
    )
    .bind(order.id)
    .all<{ id: number; amount: number; confirmed: number }>()
  let reach = pending.results[0]?.confirmed ?? 0
  const confirmed: number[] = []
  for (const refund of pending.results) {
    if (reach + refund.amount > refunded) break
    reach += refund.amount
    confirmed.push(refund.id)
  }
  // A refund made at the provider's own dashboard is confirmed too: the order shows it, nothing staff asked for matches.
  if (!confirmed.length) logEvent('warn', 'refund_not_asked', { event_id: event.id, type: event.type })
  const mail = await refundedMail(db, order.id, added, linkTemplate)
  const [updated] = await db.batch([
    db
      .prepare(
        `UPDATE orders SET refunded = ?2,
                payment_state = CASE WHEN ?3 THEN 'refunded' ELSE payment_state END,
                status = CASE WHEN ?3 THEN 'refunded' ELSE status END
          WHERE id = ?1 AND refunded = ?4`,
      )
      .bind(order.id, refunded, whole ? 1 : 0, order.refunded),
    ...confirmed.map((id) =>
      db
        .prepare(
          `UPDATE order_refunds SET state = 'refunded', confirmed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND state = 'pending'`,
        )
        .bind(id),
    ),
  ])
  // Another refund's event moved it meanwhile (two at once): the later one of them carries the larger total.
  if (!updated?.meta.changes) return 'unchanged'
  await db.batch([
    db
      .prepare(`INSERT INTO order_actions (order_id, action, staff_id, detail) VALUES (?, 'refund_confirmed', NULL, ?)`)
      .bind(order.id, JSON.stringify({ amount: added, refunded })),
    ...(whole
      ? [
          db
            .prepare(
              `INSERT OR IGNORE INTO order_events (order_id, status, at) VALUES (?, 'refunded', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
            )
            .bind(order.id),
        ]
      : []),
    ...(mail ? [queueMail(db, mail)] : []),
  ])
  return 'refunded'
}
