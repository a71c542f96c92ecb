import { Hono } from 'hono'
import { sha256Hex } from '../bytes'
import {
  type PaymentEvent,
  paymentEventAnswer,
  paymentEventRequest,
  type Settlement,
} from '../../contract/payment-schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, refuse, respond } from '../context'
import { requireServiceToken } from '../service-token'
import { settlePayment } from '../settle-payment'

/**
 * How long an event may stay claimed without an outcome before a new delivery takes it over: its first delivery was
 * cut short (the Worker stopped mid-way) and left no outcome, so the provider's retry must act on it.
 */
export const EVENT_CLAIM_SECONDS = 120

/**
 * What an event's id says: `new` (this delivery settles it), `settled` (a retry: the first delivery's outcome),
 * `in_progress` (its first delivery is settling it now), `conflict` (another event under a known id).
 */
type EventClaim =
  | { kind: 'new' }
  | { kind: 'settled'; outcome: Settlement }
  | { kind: 'in_progress' }
  | { kind: 'conflict' }

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`

/**
 * `POST api/payments/events` (docs/api.md "Settling a payment"): a verified payment event settles its order, once
 * per event id. The event is remembered first (`webhook_events`, the id unique, a hash of the event): the insert is
 * the lock, so of two deliveries at once only one acts. The same event again answers the first delivery's outcome
 * (`duplicate: true`) and does nothing; another event under a known id is `409 event_conflict`, the same one while its
 * first delivery settles it `409 event_in_progress`. When settling fails the event is forgotten (500), so the
 * provider's retry settles it. Only the edge calls it: with the Worker's service token as its bearer when the API knows
 * one (401 without it), in-process otherwise (the site's public `/api/` takes no POST).
 */
export const payments = new Hono<ApiEnv>().post('/payments/events', requireServiceToken, async (c) => {
  const request = paymentEventRequest.safeParse(await jsonBody(c))
  if (!request.success) return invalid(c, request.error)
  const { event, link_template: linkTemplate } = request.data
  const claim = await claimEvent(c.env.DB, event)
  if (claim.kind === 'conflict') return refuse(c, 409, 'event_conflict')
  if (claim.kind === 'in_progress') return refuse(c, 409, 'event_in_progress')
  if (claim.kind === 'settled') return answer(c, event, claim.outcome, true)
  let outcome: Settlement
  try {
    outcome = await settlePayment(c.env.DB, event, linkTemplate)
  } catch (error) {
    await forgetEvent(c.env.DB, event.id).catch(() => {})
    throw error
  }
  await c.env.DB.prepare('UPDATE webhook_events SET outcome = ? WHERE event_id = ?').bind(outcome, event.id).run()
  return answer(c, event, outcome, false)
})

const answer = (c: ApiContext, event: PaymentEvent, outcome: Settlement, duplicate: boolean) =>
  respond(c, paymentEventAnswer, { data: { event_id: event.id, outcome, duplicate } })

/**
 * Remembers an event by its id before anything is done with it. A known id with another event (its hash, over the
 * event as the contract reads it) is a conflict; with the same one, settled or in progress, unless its claim is older
 * than `EVENT_CLAIM_SECONDS` with no outcome: then this delivery takes it over.
 */
async function claimEvent(db: D1Database, event: PaymentEvent): Promise<EventClaim> {
  const hash = await sha256Hex(JSON.stringify(event))
  const inserted = await db
    .prepare(
      `INSERT INTO webhook_events (event_id, type, body_sha256, payment_id, order_code) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (event_id) DO NOTHING`,
    )
    .bind(event.id, event.type, hash, event.data.payment_id, event.data.order_code)
    .run()
  if (inserted.meta.changes === 1) return { kind: 'new' }
  const known = await db
    .prepare('SELECT body_sha256, outcome FROM webhook_events WHERE event_id = ?')
    .bind(event.id)
    .first<{ body_sha256: string; outcome: Settlement | null }>()
  // Forgotten in between (its settling failed): the provider's next delivery settles it.
  if (!known) return { kind: 'in_progress' }
  if (known.body_sha256 !== hash) return { kind: 'conflict' }
  if (known.outcome) return { kind: 'settled', outcome: known.outcome }
  const takenOver = await db
    .prepare(
      `UPDATE webhook_events SET received_at = ${NOW}
        WHERE event_id = ? AND outcome IS NULL AND received_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`,
    )
    .bind(event.id, `-${EVENT_CLAIM_SECONDS} seconds`)
    .run()
  return takenOver.meta.changes === 1 ? { kind: 'new' } : { kind: 'in_progress' }
}

/** Forgets an event whose settling failed, so the provider's next delivery of it is acted on. */
async function forgetEvent(db: D1Database, eventId: string): Promise<void> {
  await db.prepare('DELETE FROM webhook_events WHERE event_id = ? AND outcome IS NULL').bind(eventId).run()
}
