import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { paymentCalls } from '../upstream/contract/payments'
import { isRejection } from '../upstream/errors'
import { paymentProviderOf } from './providers'

/** The largest webhook body read (a provider's event is a few KiB; Stripe's rarely pass 20). */
export const WEBHOOK_BODY_BYTES = 64 * 1024

/**
 * `POST /_webhooks/payments`: a provider tells the outcome of a payment. The only POST other sites may send
 * (`allowCrossSite()`): it proves itself by its signature instead. In order, before anything changes: the signature
 * over the raw body (constant time) and its timestamp's window (400 malformed, 401 forged, altered or stale), the
 * body as an event (400). Then the event goes to the brand's API, which settles the order once per event id
 * (`POST api/payments/events`, docs/api.md "Settling a payment"), with the Worker's service token when the API is
 * reached over HTTP: its outcome answers 200 (a retry of the same event: 200 with `duplicate`; another body under a
 * known id: 400 "replayed"); an event of a type that settles nothing (Stripe's others) is acknowledged, 200 with
 * `ignored`. Log lines carry the event's id and type, never its amount, order or payer. 404 when no
 * provider is configured; 503 without the webhook secret or, with an HTTP upstream and no held shop, the service
 * token, or when the
 * API fails, times out or is still settling the event: the provider retries, and the API acts on the retry.
 */
export async function receivePaymentWebhook(c: Context<AppEnv>): Promise<Response> {
  const choice = paymentProviderOf(c.env)
  if (choice.kind === 'off') return c.json({ error: 'not_found' }, 404)
  if (choice.kind === 'unavailable') return c.json({ error: 'unavailable' }, 503)
  const config = configOf(c.env)
  const serviceToken = c.env.UPSTREAM_SERVICE_TOKEN || undefined
  // A held shop settles on the Worker's D1, in-process (docs/decisions/043): no backend to show the token to.
  if (config.upstream.kind === 'http' && !c.var.areas.held('cart-checkout') && !serviceToken) {
    logEvent('error', 'upstream_service_token_missing')
    return c.json({ error: 'unavailable' }, 503)
  }
  const verdict = await choice.provider.verifyWebhook(c.req.raw)
  if (!verdict.ok) {
    logEvent('warn', 'payment_webhook_refused', { reason: verdict.reason })
    return c.json({ error: verdict.reason }, verdict.status)
  }
  const { event } = verdict
  if (!event) {
    logEvent('info', 'payment_webhook', {
      event_id: verdict.ignored.id,
      type: verdict.ignored.type,
      outcome: 'ignored',
    })
    return c.json({ received: true, ignored: true })
  }
  const fields = { event_id: event.id, type: event.type }
  // The confirmation mail's link to the order; a provider is only ever chosen with a public origin.
  const linkTemplate = `${config.publicOrigin}/{market}/my-account/orders/{code}`
  try {
    const settled = await paymentCalls(c.var.upstream.withToken(serviceToken)).settle(event, linkTemplate)
    if (!settled) throw new Error('POST api/payments/events answered 404')
    if (settled.duplicate) {
      logEvent('info', 'payment_webhook', { ...fields, outcome: 'duplicate' })
      return c.json({ received: true, duplicate: true })
    }
    logEvent('info', 'payment_webhook', { ...fields, outcome: settled.outcome })
    return c.json({ received: true })
  } catch (error) {
    if (isRejection(error, 409) && error.rejection.code === 'event_conflict') {
      logEvent('warn', 'payment_webhook_refused', { reason: 'replayed', ...fields })
      return c.json({ error: 'replayed' }, 400)
    }
    logEvent('error', 'payment_settle_failed', { ...fields, error: errorName(error) })
    return c.json({ error: 'unavailable' }, 503)
  }
}
