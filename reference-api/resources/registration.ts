import { Hono } from 'hono'
import { TOKEN_FORMAT } from '../../contract/tokens'
import { errorName, logEvent } from '../log'
import {
  acknowledgedAnswer,
  confirmationAnswer,
  confirmEmailRequest,
  type RegisterRequest,
  registerRequest,
  resendConfirmationRequest,
} from '../../contract/account-schemas'
import { withoutDirectionControls } from '../../contract/direction-controls'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, refuse, respond } from '../context'
import { mailText, queueMail } from '../outbox'
import { hashPassword, newToken, tokenHash } from '../passwords'
import { requireBearer } from './auth'

/** How long a confirmation link works. */
export const CONFIRMATION_HOURS = 24
/** How many confirmation links one account is sent in an hour at once; past them, one every CONFIRMATION_INTERVAL_MINUTES. */
export const CONFIRMATIONS_PER_HOUR = 3
export const CONFIRMATION_INTERVAL_MINUTES = 10
/** At most one "someone tried to create an account with your address" mail per address in this many minutes. */
export const TAKEN_MAIL_INTERVAL_MINUTES = 10

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
const ACCEPTED = 'If the address can be used, a confirmation link is on its way.'

/**
 * Creating an account (docs/api.md "Creating an account"): `POST api/auth/register`, `GET api/auth/confirm-email/{token}`,
 * `POST api/auth/confirm-email` and, for a logged-in customer, `POST api/auth/resend-confirmation`.
 */
export const registration = new Hono<ApiEnv>()
  .post('/auth/register', async (c) => {
    const body = registerRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    // The same answer, after the same work, whether or not the address is taken: everything that depends on it (the
    // lookup, the account, the mail) runs after the answer has left; but inside checkout (`sign_in`) the account
    // exists before the answer, so the visitor is logged in with it at once (docs/decisions/057).
    const work = register(c.env.DB, c.var.locale, body.data).catch((error: unknown) =>
      logEvent('error', 'registration_failed', { error: errorName(error) }),
    )
    if (body.data.sign_in) await work
    else c.executionCtx.waitUntil(work)
    return respond(c, acknowledgedAnswer, { message: ACCEPTED }, 202)
  })
  .get('/auth/confirm-email/:token', async (c) => {
    const link = await findConfirmation(c, c.req.param('token'))
    if (!link) return notFound(c)
    if (!link.usable) return refuse(c, 410, 'confirmation_expired')
    return respond(c, confirmationAnswer, {
      data: { user_id: link.user_id, email: link.email, expires_at: link.expires_at },
    })
  })
  .post('/auth/confirm-email', async (c) => {
    const body = confirmEmailRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const link = await findConfirmation(c, body.data.token)
    if (!link) return notFound(c)
    if (!link.usable) return refuse(c, 410, 'confirmation_expired')
    const hash = await tokenHash(body.data.token)
    const stillUsable = `EXISTS (SELECT 1 FROM email_confirmations WHERE token_hash = ?2 AND used_at IS NULL AND expires_at > ${NOW})`
    // One transaction whose every statement requires the link to be unused: of two concurrent uses, one wins; the
    // account's other links are spent with it.
    const [confirmed] = await c.env.DB.batch([
      c.env.DB.prepare(
        `UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ${NOW}) WHERE id = ?1 AND ${stillUsable}`,
      ).bind(link.user_id, hash),
      c.env.DB.prepare(
        `UPDATE email_confirmations SET used_at = ${NOW} WHERE user_id = ?1 AND used_at IS NULL AND ${stillUsable}`,
      ).bind(link.user_id, hash),
    ])
    if (!confirmed?.meta.changes) return refuse(c, 410, 'confirmation_expired')
    return respond(c, confirmationAnswer, {
      data: { user_id: link.user_id, email: link.email, expires_at: link.expires_at },
    })
  })
  .post('/auth/resend-confirmation', requireBearer, async (c) => {
    const body = resendConfirmationRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const user = c.var.user
    if (!user.email_confirmed) {
      await mailConfirmation(
        c.env.DB,
        c.var.locale,
        { id: user.id, email: user.email, first_name: user.first_name },
        body.data.link_template,
      )
    }
    return respond(
      c,
      acknowledgedAnswer,
      { message: user.email_confirmed ? 'The address is confirmed.' : 'A link is on its way.' },
      202,
    )
  })

/**
 * Handles a registration once per form (its `submission_key`): a new address becomes an unconfirmed account with a
 * confirmation link mailed to it; a taken one changes nothing, and its owner is told someone tried (at most once in
 * TAKEN_MAIL_INTERVAL_MINUTES, and without a word the registrant typed).
 */
async function register(db: D1Database, locale: string, request: RegisterRequest): Promise<void> {
  const fresh = await db
    .prepare('INSERT INTO registrations (submission_key) VALUES (?) ON CONFLICT DO NOTHING')
    .bind(request.submission_key)
    .run()
  if (!fresh.meta.changes) return
  const created = await db
    .prepare(
      `INSERT INTO users (email, first_name, last_name, locale, password_hash) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
    )
    .bind(request.email, request.first_name, request.last_name, locale, await hashPassword(request.password))
    .first<{ id: number }>()
  if (created) {
    await mailConfirmation(
      db,
      locale,
      { id: created.id, email: request.email, first_name: request.first_name },
      request.link_template,
    )
    return
  }
  const owner = await db
    .prepare('SELECT email, first_name, locale FROM users WHERE email = ?')
    .bind(request.email)
    .first<{ email: string; first_name: string; locale: string | null }>()
  if (!owner) return
  // The owner's own name and language: nothing the registrant typed reaches someone else's mailbox.
  const ownLocale = owner.locale ?? locale
  const params = {
    name: withoutDirectionControls(owner.first_name),
    login: `${new URL(request.link_template.replace('{token}', 'x')).origin}/login`,
  }
  const [subject, text, linkLabel] = await Promise.all([
    mailText(db, ownLocale, 'mail.account_exists_subject', params),
    mailText(db, ownLocale, 'mail.account_exists_body', params),
    mailText(db, ownLocale, 'mail.open_link', params),
  ])
  await queueMail(
    db,
    { recipient: owner.email, subject, body: text, kind: 'account_exists', locale: ownLocale, linkLabel },
    {
      when: `NOT EXISTS (SELECT 1 FROM outbox WHERE recipient = ? AND kind = 'account_exists'
             AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${TAKEN_MAIL_INTERVAL_MINUTES} minutes'))`,
      params: [owner.email],
    },
  ).run()
}

/**
 * Mails a new confirmation link to an account, if it may have one now: fewer than CONFIRMATIONS_PER_HOUR in the hour,
 * or none in the last CONFIRMATION_INTERVAL_MINUTES (as password links: docs/decisions/006). Links already sent stay
 * valid. The check and the writes are one transaction.
 */
async function mailConfirmation(
  db: D1Database,
  locale: string,
  user: { id: number; email: string; first_name: string },
  template: string,
) {
  const token = newToken()
  const hash = await tokenHash(token)
  const params = {
    name: withoutDirectionControls(user.first_name),
    link: template.replace('{token}', token),
    hours: String(CONFIRMATION_HOURS),
  }
  const [subject, text, linkLabel] = await Promise.all([
    mailText(db, locale, 'mail.confirm_email_subject', params),
    mailText(db, locale, 'mail.confirm_email_body', params),
    mailText(db, locale, 'mail.open_link', params),
  ])
  const since = (interval: string) =>
    `SELECT 1 FROM email_confirmations WHERE user_id = ?2 AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '${interval}')`
  await db.batch([
    db
      .prepare(
        `INSERT INTO email_confirmations (token_hash, user_id, expires_at)
       SELECT ?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?3)
        WHERE (SELECT COUNT(*) FROM (${since('-1 hour')})) < ?4 OR NOT EXISTS (${since(`-${CONFIRMATION_INTERVAL_MINUTES} minutes`)})`,
      )
      .bind(hash, user.id, `+${CONFIRMATION_HOURS} hours`, CONFIRMATIONS_PER_HOUR),
    queueMail(
      db,
      { recipient: user.email, subject, body: text, kind: 'email_confirmation', locale, linkLabel },
      {
        when: 'EXISTS (SELECT 1 FROM email_confirmations WHERE token_hash = ?)',
        params: [hash],
      },
    ),
  ])
}

/** A confirmation link's record, and whether it can still be used. */
async function findConfirmation(c: ApiContext, token: string) {
  if (!TOKEN_FORMAT.test(token)) return null
  return c.env.DB.prepare(
    `SELECT e.user_id, u.email, e.expires_at, (e.used_at IS NULL AND e.expires_at > ${NOW}) AS usable
       FROM email_confirmations e JOIN users u ON u.id = e.user_id WHERE e.token_hash = ?`,
  )
    .bind(await tokenHash(token))
    .first<{ user_id: number; email: string; expires_at: string; usable: number }>()
}
