import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { paymentProviderOf } from './providers'
import { forgetEvent, rememberEvent, settlePayment } from './settle'

/** The largest webhook body read (a provider's event is a few KiB; Stripe's rarely pass 20). */
export const WEBHOOK_BODY_BYTES = 64 * 1024

/**
 * `POST /_webhooks/payments`: a provider tells the outcome of a payment. The only POST other sites may send
 * (`allowCrossSite()`): it proves itself by its signature instead. In order, before anything changes: the signature
 * over the raw body (constant time) and its timestamp's window (400 malformed, 401 forged, altered or stale), the
 * body as an event (400), the event's id (a retry of the same event: 200, nothing more; another body under a known
 * id: 400). Then the order is settled and 200 answered. Log lines carry the event's id and type, never its amount,
 * order or payer. 404 when no provider is configured; 503 without the webhook secret, or when settling fails (the
 * event is forgotten, so the provider's retry settles it).
 */
export async function receivePaymentWebhook(c: Context<AppEnv>): Promise<Response> {
  const choice = paymentProviderOf(c.env)
  if (choice.kind === 'off') return c.json({ error: 'not_found' }, 404)
  if (choice.kind === 'unavailable') return c.json({ error: 'unavailable' }, 503)
  const verdict = await choice.provider.verifyWebhook(c.req.raw)
  if (!verdict.ok) {
    logEvent('warn', 'payment_webhook_refused', { reason: verdict.reason })
    return c.json({ error: verdict.reason }, verdict.status)
  }
  const { event } = verdict
  const fields = { event_id: event.id, type: event.type }
  const record = await rememberEvent(c.env.DB, event, verdict.body)
  if (record === 'conflict') {
    logEvent('warn', 'payment_webhook_refused', { reason: 'replayed', ...fields })
    return c.json({ error: 'replayed' }, 400)
  }
  if (record === 'duplicate') {
    logEvent('info', 'payment_webhook', { ...fields, outcome: 'duplicate' })
    return c.json({ received: true, duplicate: true })
  }
  try {
    const outcome = await settlePayment(c.env.DB, event, { publicOrigin: configOf(c.env).publicOrigin })
    logEvent('info', 'payment_webhook', { ...fields, outcome })
    return c.json({ received: true })
  } catch (error) {
    await forgetEvent(c.env.DB, event.id).catch(() => {})
    logEvent('error', 'payment_settle_failed', { ...fields, error: errorName(error) })
    return c.json({ error: 'unavailable' }, 503)
  }
}
