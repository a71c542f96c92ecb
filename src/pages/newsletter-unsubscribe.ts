import type { Context } from 'hono'
import type { MarketEnv } from '../env'
import { unsubscribedAddress } from '../mail/unsubscribe-link'
import { sendNewsletterPage } from './newsletter'

/**
 * The newsletter's one-click unsubscribe (RFC 8058, docs/mail.md): the link of a newsletter mail's
 * `List-Unsubscribe` header and footer. A `GET` shows the address and one button (it unsubscribes nobody: mail scanners
 * follow links); a `POST` — the mail program's `List-Unsubscribe=One-Click`, or the button — unsubscribes. The signed
 * token is the only proof: no cookie, no session, no same-origin rule (app.ts `allowCrossSite`).
 */

/** `GET /{m}/newsletter/unsubscribe/{token}`: the address and the button, in the market's language. */
export async function newsletterUnsubscribePage(c: Context<MarketEnv>): Promise<Response> {
  const email = await addressOf(c)
  if (!email) return sendNewsletterPage(c, { kind: 'invalid' }, 404)
  return sendNewsletterPage(c, { kind: 'unsubscribe', email })
}

/** `POST /{m}/newsletter/unsubscribe/{token}`: the market's newsletter ends for the address; "you are unsubscribed". */
export async function submitNewsletterUnsubscribe(c: Context<MarketEnv>): Promise<Response> {
  const email = await addressOf(c)
  if (!email) return sendNewsletterPage(c, { kind: 'invalid' }, 404)
  await c.var.api.newsletter.unsubscribe(email)
  return sendNewsletterPage(c, { kind: 'unsubscribed' })
}

/** The address the link's token names, when this site signed it for this market. */
async function addressOf(c: Context<MarketEnv>): Promise<string | null> {
  const secret = c.env.SESSION_SECRET
  if (!secret) return null
  return unsubscribedAddress(secret, c.var.market.segment, c.req.param('token') ?? '', c.env.SESSION_SECRET_PREVIOUS)
}
