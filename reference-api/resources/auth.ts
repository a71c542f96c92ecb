import { Hono, type MiddlewareHandler } from 'hono'
import { TOKEN_FORMAT } from '../../contract/tokens'
import { errorName, logEvent } from '../log'
import {
  acknowledgedAnswer,
  type ForgotPasswordRequest,
  forgotPasswordRequest,
  loginRequestSchema,
  resetPasswordAnswer,
  resetPasswordRequest,
  resetTokenAnswer,
} from '../../contract/account-schemas'
import { withoutDirectionControls } from '../../contract/direction-controls'
import { loginAnswer, type User, userAnswer } from '../../contract/schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, refuse, respond } from '../context'
import { mailText, queueMail } from '../outbox'
import { demoAccountRefused } from '../demo-accounts'
import { hashPassword, newToken, tokenHash, verifyPassword } from '../passwords'
import { bearerTokenHash } from '../token-hashes'
import { workerCustomerUser } from '../worker-customer'
import { bearerUserOnce, lookedUpBearerUser } from '../bearer-once'

/** How long an access token lives. */
export const TOKEN_HOURS = 12
/** How long a password reset link works. */
export const RESET_MINUTES = 60
/** How many reset links one account is sent in an hour at once; past them, one every RESET_INTERVAL_MINUTES. */
export const RESETS_PER_HOUR = 3
/**
 * Past RESETS_PER_HOUR, how long after the newest link another is sent (asks in between get the same answer and no
 * mail: the newest mail, minutes old, holds a link that still works). Nobody can use up an account's links for the
 * hour, and a mailbox gets at most a handful of mails an hour.
 */
export const RESET_INTERVAL_MINUTES = 10

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`

type UserRow = Omit<User, 'name'> & { password_hash: string }

/**
 * `POST api/auth/login` (`{ email, password }` → `{ access_token, expires_at }`, or 422 without saying whether the
 * account exists), `GET api/auth/user` (the bearer's user, or 401), `POST api/auth/logout` (revokes the token) and
 * the password reset: `POST api/auth/forgot-password`, `GET api/auth/reset-password/{token}`,
 * `POST api/auth/reset-password`.
 */
export const auth = new Hono<ApiEnv>()
  .post('/auth/login', async (c) => {
    const body = loginRequestSchema.safeParse(await c.req.json().catch(() => null))
    if (!body.success) return c.json({ message: 'The e-mail address and the password are required.' }, 422)
    const row = await c.env.DB.prepare('SELECT id, password_hash, demo FROM users WHERE email = ?')
      .bind(body.data.email)
      .first<{ id: number; password_hash: string; demo: number }>()
    const passwordRight = await verifyPassword(body.data.password, row?.password_hash ?? null)
    if (!row || !passwordRight || demoAccountRefused(row, c.env.PUBLIC_ORIGIN)) {
      return c.json({ message: 'These credentials do not match our records.' }, 422)
    }
    const token = newToken()
    const expiresAt = new Date(Date.now() + TOKEN_HOURS * 3600 * 1000).toISOString()
    await c.env.DB.prepare('INSERT INTO access_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)')
      .bind(await tokenHash(token), row.id, expiresAt)
      .run()
    return respond(c, loginAnswer, { access_token: token, expires_at: expiresAt })
  })
  .get('/auth/user', async (c) => {
    const user = await bearerUser(c)
    return user ? respond(c, userAnswer, { data: user }) : unauthorized(c)
  })
  .post('/auth/logout', async (c) => {
    const token = bearerToken(c)
    const revoked = token
      ? await c.env.DB.prepare('DELETE FROM access_tokens WHERE token_hash = ?')
          .bind(await tokenHash(token))
          .run()
      : null
    if (!revoked?.meta.changes) return unauthorized(c)
    return respond(c, acknowledgedAnswer, { message: 'Logged out.' })
  })
  .post('/auth/forgot-password', async (c) => {
    const body = forgotPasswordRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    // The same answer, after the same work, whether or not the account exists: everything that depends on it (the
    // lookup, the link, the mail) runs after the answer has left.
    c.executionCtx.waitUntil(
      mailResetLink(c.env.DB, c.var.locale, body.data).catch((error: unknown) =>
        logEvent('error', 'reset_link_failed', { error: errorName(error) }),
      ),
    )
    return respond(
      c,
      acknowledgedAnswer,
      { message: 'If the address belongs to an account, a link is on its way.' },
      202,
    )
  })
  .get('/auth/reset-password/:token', async (c) => {
    const reset = await findReset(c, c.req.param('token'))
    if (!reset) return notFound(c)
    if (!reset.usable) return refuse(c, 410, 'reset_expired')
    return respond(c, resetTokenAnswer, { data: { email: reset.email, expires_at: reset.expires_at } })
  })
  .post('/auth/reset-password', async (c) => {
    const body = resetPasswordRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const reset = await findReset(c, body.data.token)
    if (!reset) return notFound(c)
    if (!reset.usable) return refuse(c, 410, 'reset_expired')
    const hash = await tokenHash(body.data.token)
    const stillUsable = `EXISTS (SELECT 1 FROM password_resets WHERE token_hash = ?2 AND used_at IS NULL AND expires_at > ${NOW})`
    // One transaction whose every statement requires the link to be unused: of two concurrent uses, one wins, and a
    // failure leaves both the password and the link as they were.
    const [changed] = await c.env.DB.batch([
      c.env.DB.prepare(`UPDATE users SET password_hash = ?3 WHERE id = ?1 AND ${stillUsable}`).bind(
        reset.user_id,
        hash,
        await hashPassword(body.data.password),
      ),
      // A new password ends every session of the account and every other link still out there.
      c.env.DB.prepare(`DELETE FROM access_tokens WHERE user_id = ?1 AND ${stillUsable}`).bind(reset.user_id, hash),
      c.env.DB.prepare(
        `UPDATE password_resets SET used_at = ${NOW} WHERE user_id = ?1 AND used_at IS NULL AND ${stillUsable}`,
      ).bind(reset.user_id, hash),
    ])
    if (!changed?.meta.changes) return refuse(c, 410, 'reset_expired')
    return respond(c, resetPasswordAnswer, { data: { user_id: reset.user_id } })
  })

/**
 * Mails a new reset link to the account of an address, if there is one and it may have one now: fewer than
 * RESETS_PER_HOUR links in the hour, or none in the last RESET_INTERVAL_MINUTES. Links already sent stay valid (a
 * new one never spoils the one a customer is about to open). The check and the writes are one transaction, so
 * concurrent asks cannot send more.
 */
async function mailResetLink(db: D1Database, locale: string, request: ForgotPasswordRequest): Promise<void> {
  const user = await db
    .prepare('SELECT id, email, first_name FROM users WHERE email = ?')
    .bind(request.email)
    .first<{ id: number; email: string; first_name: string }>()
  if (!user) return
  const token = newToken()
  const hash = await tokenHash(token)
  const params = {
    name: withoutDirectionControls(user.first_name),
    link: request.link_base + token,
    minutes: String(RESET_MINUTES),
  }
  const [subject, text, linkLabel] = await Promise.all([
    mailText(db, locale, 'mail.password_reset_subject', params),
    mailText(db, locale, 'mail.password_reset_body', params),
    mailText(db, locale, 'mail.open_link', params),
  ])
  const since = (interval: string) =>
    `SELECT 1 FROM password_resets WHERE user_id = ?2 AND created_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '${interval}')`
  await db.batch([
    db
      .prepare(
        `INSERT INTO password_resets (token_hash, user_id, expires_at)
       SELECT ?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?3)
        WHERE (SELECT COUNT(*) FROM (${since('-1 hour')})) < ?4 OR NOT EXISTS (${since(`-${RESET_INTERVAL_MINUTES} minutes`)})`,
      )
      .bind(hash, user.id, `+${RESET_MINUTES} minutes`, RESETS_PER_HOUR),
    // The mail goes only with a link that was written.
    queueMail(
      db,
      { recipient: user.email, subject, body: text, kind: 'password_reset', locale, linkLabel },
      {
        when: 'EXISTS (SELECT 1 FROM password_resets WHERE token_hash = ?)',
        params: [hash],
      },
    ),
  ])
}

/** A reset link's record, and whether it can still be used. */
async function findReset(c: ApiContext, token: string) {
  if (!TOKEN_FORMAT.test(token)) return null
  return c.env.DB.prepare(
    `SELECT r.user_id, u.email, r.expires_at, (r.used_at IS NULL AND r.expires_at > ${NOW}) AS usable
       FROM password_resets r JOIN users u ON u.id = r.user_id WHERE r.token_hash = ?`,
  )
    .bind(await tokenHash(token))
    .first<{ user_id: number; email: string; expires_at: string; usable: number }>()
}

/** Account calls need a bearer token: the user is set for the handler, or the answer is 401. */
export const requireBearer: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const user = await bearerUser(c)
  if (!user) return unauthorized(c)
  c.set('user', user)
  await next()
}

export function bearerToken(c: ApiContext): string | undefined {
  const token = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1]
  return token && TOKEN_FORMAT.test(token) ? token : undefined
}

/**
 * The user of the request's bearer token, if it is known and not expired; on a held shop's call, the customer the
 * Worker vouches for instead (docs/decisions/043). The in-process reads of one site request look a token up once
 * (reference-api/bearer-once.ts).
 */
export async function bearerUser(c: ApiContext): Promise<User | null> {
  if (c.env.WORKER_CUSTOMER) return workerCustomerUser(c.env.DB, c.env.WORKER_CUSTOMER)
  const token = bearerToken(c)
  if (!token) return null
  return bearerUserOnce(c.env.SITE_REQUEST, c.req.method, token, () => userOfToken(c.env.DB, token))
}

/** The user of an access token, if it is known and not expired: one statement on `access_tokens`. */
async function userOfToken(db: D1Database, token: string): Promise<User | null> {
  return userOfRow(await userOfTokenHash(db, await bearerTokenHash(token)).first<TokenUserRow>())
}

/** A user as `userOfTokenHash` reads them. */
export type TokenUserRow = Omit<UserRow, 'password_hash' | 'email_confirmed'> & { email_confirmed: number }

/** The columns of a user as an account read answers them (`TokenUserRow`), of the users table as `u`. */
export const TOKEN_USER_COLUMNS =
  'u.id, u.email, u.first_name, u.last_name, u.phone, u.locale, u.created_at, u.email_confirmed_at IS NOT NULL AS email_confirmed'

/** The statement reading the user of an access token's hash, if it is known and not expired. */
export const userOfTokenHash = (db: D1Database, hash: string) =>
  db
    .prepare(
      `SELECT ${TOKEN_USER_COLUMNS}
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.expires_at > ${NOW}`,
    )
    .bind(hash)

/** The contract's user of a row `userOfTokenHash` read, or null without one. */
export const userOfRow = (row: TokenUserRow | null | undefined): User | null =>
  row ? { ...row, email_confirmed: row.email_confirmed === 1, name: `${row.first_name} ${row.last_name}` } : null

/**
 * Who an account read is for, without reading `access_tokens` apart: the customer the Worker vouches for on a held
 * shop's call (their user), the user the same site request already looked up for this token, or else the token's
 * hash for the read's own batch to look up (`userOfTokenHash`, `ownerSql`). Null without a well-formed token.
 */
export async function bearerOwner(c: ApiContext): Promise<{ user: User } | { tokenHash: string } | null> {
  if (c.env.WORKER_CUSTOMER) {
    const user = await workerCustomerUser(c.env.DB, c.env.WORKER_CUSTOMER)
    return user && { user }
  }
  const token = bearerToken(c)
  if (!token) return null
  const known = await lookedUpBearerUser(c.env.SITE_REQUEST, token)
  if (known) return { user: known }
  return { tokenHash: await bearerTokenHash(token) }
}

/** The contract's answer to a missing, unknown or expired token. */
export const unauthorized = (c: ApiContext) => c.json({ message: 'Unauthenticated.' }, 401)
