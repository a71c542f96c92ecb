import { Hono } from 'hono'
import { TOKEN_FORMAT } from '../../contract/tokens'
import { errorName, logEvent } from '../log'
import { acknowledgedAnswer } from '../../contract/account-schemas'
import {
  newsletterConfirmRequest,
  newsletterLinkAnswer,
  type NewsletterRequest,
  newsletterRequest,
  newsletterStatusAnswer,
  newsletterUnsubscribeRequest,
} from '../../contract/newsletter-schemas'
import { siteSettingsSchema } from '../../contract/schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, parseJson, refuse, respond } from '../context'
import { mailText, queueMail } from '../outbox'
import { newToken, tokenHash } from '../passwords'

/** How long a confirmation link works. */
export const NEWSLETTER_LINK_HOURS = 48
/** At most this many confirmation mails to one address in an hour (nobody can flood a mailbox through the form). */
export const NEWSLETTER_MAILS_PER_HOUR = 3

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
const ACCEPTED = 'If the address can be subscribed, a confirmation link is on its way.'

/**
 * The newsletter (docs/api.md "Newsletter"), double opt-in: `POST api/newsletter/subscriptions` stores a pending
 * request and mails its link; `GET api/newsletter/confirm/{token}` tells a link's address (and confirms nothing: mail
 * scanners follow links); `POST api/newsletter/confirm` makes the address a subscriber of the market;
 * `POST api/newsletter/unsubscribe` ends the address's subscription and pending sign-ups of the market (the site checks
 * the signed link first); `POST api/newsletter/status` tells whether an address is subscribed to the market, or waits
 * for its confirmation (the site asks it for a logged-in customer's own address only).
 */
export const newsletter = new Hono<ApiEnv>()
  .post('/newsletter/subscriptions', async (c) => {
    const tenant = await liveMarket(c)
    if (!tenant) return notFound(c)
    const body = newsletterRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    // The same answer, after the same work, whether or not the address is subscribed: what depends on it runs after
    // the answer has left.
    c.executionCtx.waitUntil(
      subscribe(c.env.DB, tenant, c.var.locale, body.data).catch((error: unknown) =>
        logEvent('error', 'newsletter_request_failed', { error: errorName(error) }),
      ),
    )
    return respond(c, acknowledgedAnswer, { message: ACCEPTED }, 202)
  })
  .get('/newsletter/confirm/:token', async (c) => {
    const link = await findRequest(c, c.req.param('token'))
    if (!link) return notFound(c)
    if (!link.usable) return refuse(c, 410, 'confirmation_expired')
    return respond(c, newsletterLinkAnswer, { data: { email: link.email, expires_at: link.expires_at } })
  })
  .post('/newsletter/confirm', async (c) => {
    const body = newsletterConfirmRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const link = await findRequest(c, body.data.token)
    if (!link) return notFound(c)
    if (!link.usable) return refuse(c, 410, 'confirmation_expired')
    const hash = await tokenHash(body.data.token)
    const stillUsable = `EXISTS (SELECT 1 FROM newsletter_requests WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ${NOW})`
    // One transaction whose every statement requires the link to be unused: of two concurrent uses, one wins; the
    // address's other pending links for the market are spent with it.
    const db = c.env.DB
    await db.batch([
      db
        .prepare(
          `INSERT INTO newsletter_subscribers (site, email, locale) SELECT site, email, locale FROM newsletter_requests
          WHERE token_hash = ?1 AND ${stillUsable} ON CONFLICT (site, email) DO NOTHING`,
        )
        .bind(hash),
      db
        .prepare(
          `UPDATE newsletter_requests SET used_at = ${NOW} WHERE site = ?2 AND email = ?3 AND used_at IS NULL AND ${stillUsable}`,
        )
        .bind(hash, link.site, link.email),
    ])
    return respond(c, newsletterLinkAnswer, { data: { email: link.email, expires_at: link.expires_at } })
  })
  .post('/newsletter/unsubscribe', async (c) => {
    const tenant = c.var.tenant
    if (!tenant) return notFound(c)
    const body = newsletterUnsubscribeRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const email = body.data.email.trim().toLowerCase()
    const db = c.env.DB
    await db.batch([
      db.prepare('DELETE FROM newsletter_subscribers WHERE site = ? AND lower(email) = ?').bind(tenant, email),
      db.prepare('DELETE FROM newsletter_requests WHERE site = ? AND lower(email) = ?').bind(tenant, email),
    ])
    return respond(c, acknowledgedAnswer, { message: 'The address receives no more newsletters of this market.' })
  })
  .post('/newsletter/status', async (c) => {
    const tenant = c.var.tenant
    if (!tenant) return notFound(c)
    const body = newsletterUnsubscribeRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const row = await c.env.DB.prepare(
      `SELECT EXISTS (SELECT 1 FROM newsletter_subscribers WHERE site = ?1 AND lower(email) = ?2) AS subscribed,
              EXISTS (SELECT 1 FROM newsletter_requests WHERE site = ?1 AND lower(email) = ?2 AND used_at IS NULL
                        AND expires_at > ${NOW}) AS pending`,
    )
      .bind(tenant, body.data.email)
      .first<{ subscribed: number; pending: number }>()
    return respond(c, newsletterStatusAnswer, {
      data: { subscribed: row?.subscribed === 1, pending: row?.pending === 1 },
    })
  })

/** The caller's market (`X-Tenant`) when it exists and is not under maintenance, else null. */
async function liveMarket(c: ApiContext): Promise<string | null> {
  const { tenant } = c.var
  if (!tenant) return null
  const row = await c.env.DB.prepare('SELECT settings FROM sites WHERE slug = ?')
    .bind(tenant)
    .first<{ settings: string }>()
  if (!row) return null
  const settings = siteSettingsSchema.safeParse(parseJson(row.settings, {})).data
  return settings?.under_maintenance ? null : tenant
}

/**
 * A sign-up: an address already subscribed to the market's newsletter changes nothing and is mailed nothing; any other
 * gets a pending request with a link (at most NEWSLETTER_MAILS_PER_HOUR an hour), in the visitor's language, once per
 * form and address (`submission_key`: a form sent twice, one after the other or at once, stores one request and mails
 * one link; a new form later is a new request, another link; a kept page's form, shared by its visitors, takes each
 * one's address). Spent and expired requests of everyone are deleted on the way: a request is kept no longer than its
 * link works.
 */
async function subscribe(db: D1Database, site: string, locale: string, request: NewsletterRequest): Promise<void> {
  // Two statements, each served by its own index (an OR across the two columns would read every request).
  await db.batch([
    db.prepare('DELETE FROM newsletter_requests WHERE used_at IS NOT NULL'),
    db.prepare(`DELETE FROM newsletter_requests WHERE expires_at <= ${NOW}`),
  ])
  const subscribed = await db
    .prepare('SELECT 1 AS yes FROM newsletter_subscribers WHERE site = ? AND email = ?')
    .bind(site, request.email)
    .first()
  if (subscribed) return
  const token = newToken()
  const hash = await tokenHash(token)
  const params = { link: request.link_template.replace('{token}', token), hours: String(NEWSLETTER_LINK_HOURS) }
  const [subject, text, linkLabel, unsubscribe] = await Promise.all([
    mailText(db, locale, 'mail.newsletter_confirm_subject', params),
    mailText(db, locale, 'mail.newsletter_confirm_body', params),
    mailText(db, locale, 'mail.open_link', params),
    mailText(db, locale, 'mail.unsubscribe', params),
  ])
  const link = request.unsubscribe_link
  // RFC 8058: the mail service and the reader's mail program unsubscribe in one click, by a POST to the link.
  const oneClick = link
    ? {
        headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        footer: { href: link, label: unsubscribe },
      }
    : {}
  await db.batch([
    db
      .prepare(
        `INSERT INTO newsletter_requests (token_hash, site, locale, email, expires_at, submission_key)
       SELECT ?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?5), ?7
        WHERE (SELECT COUNT(*) FROM newsletter_requests WHERE email = ?4
                 AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')) < ?6
       ON CONFLICT (submission_key, email) DO NOTHING`,
      )
      .bind(
        hash,
        site,
        locale,
        request.email,
        `+${NEWSLETTER_LINK_HOURS} hours`,
        NEWSLETTER_MAILS_PER_HOUR,
        request.submission_key,
      ),
    queueMail(
      db,
      {
        recipient: request.email,
        subject,
        body: text,
        kind: 'newsletter_confirmation',
        locale,
        linkLabel,
        ...oneClick,
      },
      {
        when: 'EXISTS (SELECT 1 FROM newsletter_requests WHERE token_hash = ?)',
        params: [hash],
      },
    ),
  ])
}

/** A confirmation link's request, and whether it can still be used. */
async function findRequest(c: ApiContext, token: string) {
  if (!TOKEN_FORMAT.test(token)) return null
  return c.env.DB.prepare(
    `SELECT site, email, expires_at, (used_at IS NULL AND expires_at > ${NOW}) AS usable FROM newsletter_requests WHERE token_hash = ?`,
  )
    .bind(await tokenHash(token))
    .first<{ site: string; email: string; expires_at: string; usable: number }>()
}
