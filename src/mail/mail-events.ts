import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { embeddedReferenceApi } from '../upstream/reference-api'
import { verifySvixSignature } from './svix-signature'
import type { SuppressionReason } from '../../contract/outbox-mail'

/** The path of the mail service's webhook. */
export const MAIL_EVENTS_PATH = '/_webhooks/mail'

/** The largest event body read (Resend's are about 1 KiB). */
export const MAIL_EVENT_BODY_BYTES = 64 * 1024

type ResendEvent = { type?: unknown; data?: { to?: unknown; bounce?: { type?: unknown } } }

/**
 * `POST /_webhooks/mail`: the mail service tells of a bounce or a complaint (Resend's `email.bounced`,
 * `email.complained`; other events are acknowledged and ignored). It proves itself by its Svix signature
 * (`MAIL_WEBHOOK_SECRET`): 400 malformed, 401 forged or stale, before anything changes. A permanent bounce or a
 * complaint suppresses the address in the embedded API (its newsletter ends; a bounce stops every mail to it:
 * docs/decisions/047); a delivery replayed does the same again, harmlessly. Log lines carry the event's type and how
 * many addresses, never an address. 404 while mails are only recorded or no embedded API holds the outbox; 503 without
 * the secret.
 */
export async function receiveMailEvent(c: Context<AppEnv>): Promise<Response> {
  const referenceApi = embeddedReferenceApi()
  if (!referenceApi || (c.env.MAIL_PROVIDER?.trim() || 'record') === 'record')
    return c.json({ error: 'not_found' }, 404)
  if (!c.env.MAIL_WEBHOOK_SECRET) {
    logEvent('error', 'mail_webhook_secret_missing')
    return c.json({ error: 'unavailable' }, 503)
  }
  const body = await c.req.text()
  const check = await verifySvixSignature(
    c.env.MAIL_WEBHOOK_SECRET,
    {
      id: c.req.header('svix-id') ?? null,
      timestamp: c.req.header('svix-timestamp') ?? null,
      signature: c.req.header('svix-signature') ?? null,
    },
    body,
    Date.now() / 1000,
  )
  if (!check.ok) {
    logEvent('warn', 'mail_webhook_refused', { reason: check.reason })
    return c.json({ error: check.reason }, check.reason === 'malformed' ? 400 : 401)
  }
  const event = parseEvent(body)
  if (!event) return c.json({ error: 'malformed' }, 400)
  const reason = suppressionOf(event)
  const addresses = recipientsOf(event)
  if (!reason || !addresses.length) {
    logEvent('info', 'mail_webhook', { type: String(event.type).slice(0, 40), outcome: 'ignored' })
    return c.json({ received: true })
  }
  try {
    for (const address of addresses) await referenceApi.suppressAddress(c.env.DB, address, reason)
  } catch (error) {
    logEvent('error', 'mail_suppression_failed', { type: event.type, error: errorName(error) })
    return c.json({ error: 'unavailable' }, 503)
  }
  logEvent('info', 'mail_webhook', { type: event.type, outcome: reason, addresses: addresses.length })
  return c.json({ received: true })
}

function parseEvent(body: string): ResendEvent | null {
  try {
    const event = JSON.parse(body) as unknown
    return event && typeof event === 'object' && typeof (event as ResendEvent).type === 'string'
      ? (event as ResendEvent)
      : null
  } catch {
    return null
  }
}

/** A complaint, or a bounce that is not transient (a full mailbox comes back on its own). */
function suppressionOf(event: ResendEvent): SuppressionReason | null {
  if (event.type === 'email.complained') return 'complained'
  if (event.type === 'email.bounced' && event.data?.bounce?.type !== 'Transient') return 'bounced'
  return null
}

/** The event's recipients: Resend sends a list (a single address tolerated), at most ten taken. */
function recipientsOf(event: ResendEvent): string[] {
  const to = event.data?.to
  const list = Array.isArray(to) ? to : [to]
  return list
    .filter((address): address is string => typeof address === 'string' && /^[^\s@]+@[^\s@]+$/.test(address))
    .slice(0, 10)
}
