import { Hono } from 'hono'
import {
  acknowledgedAnswer,
  accountErasureRequest,
  passwordChangeRequest,
  profileAnswer,
  profileInput,
} from '../../contract/account-schemas'
import { withoutDirectionControls } from '../../contract/direction-controls'
import { type ApiContext, type ApiEnv, invalid, jsonBody, refuse, respond } from '../context'
import { mailText, queueMail } from '../outbox'
import { hashPassword, tokenHash, verifyPassword } from '../passwords'
import { bearerToken } from './auth'

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`

/**
 * The customer's own changes to their account (docs/decisions/062), each with the bearer's token (the account
 * resource asks for it): `PUT api/account/profile` (names, phone), `POST api/account/password` (the current password,
 * then the new one: every other token revoked, a "your password was changed" mail) and `POST api/account/erase`
 * (the password again: the person's data erased, the orders kept, every token revoked).
 */
export const selfService = new Hono<ApiEnv>()
  .put('/account/profile', async (c) => {
    const body = profileInput.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    await c.env.DB.prepare('UPDATE users SET first_name = ?, last_name = ?, phone = ? WHERE id = ?')
      .bind(body.data.first_name, body.data.last_name, body.data.phone, c.var.user.id)
      .run()
    const { first_name, last_name, phone } = body.data
    return respond(c, profileAnswer, {
      data: { ...c.var.user, first_name, last_name, phone, name: `${first_name} ${last_name}` },
    })
  })
  .post('/account/password', async (c) => {
    const body = passwordChangeRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    const { user } = c.var
    if (!(await passwordRight(c, body.data.current_password))) {
      return refuse(c, 422, 'current_password', 'current_password')
    }
    const keep = await tokenHash(bearerToken(c) ?? '')
    const params = { name: withoutDirectionControls(user.first_name) }
    const locale = c.var.locale
    const [subject, text] = await Promise.all([
      mailText(c.env.DB, locale, 'mail.password_changed_subject', params),
      mailText(c.env.DB, locale, 'mail.password_changed_body', params),
    ])
    const db = c.env.DB
    await db.batch([
      db
        .prepare('UPDATE users SET password_hash = ? WHERE id = ?')
        .bind(await hashPassword(body.data.password), user.id),
      // Every other session of the account ends, and every reset link still out there; the one that asked stays.
      db.prepare('DELETE FROM access_tokens WHERE user_id = ? AND token_hash <> ?').bind(user.id, keep),
      db.prepare(`UPDATE password_resets SET used_at = ${NOW} WHERE user_id = ? AND used_at IS NULL`).bind(user.id),
      queueMail(db, { recipient: user.email, subject, body: text, kind: 'password_changed', locale }),
    ])
    return respond(c, acknowledgedAnswer, { message: 'The password has been changed.' })
  })
  .post('/account/erase', async (c) => {
    const body = accountErasureRequest.safeParse(await jsonBody(c))
    if (!body.success) return invalid(c, body.error)
    if (!(await passwordRight(c, body.data.password))) return refuse(c, 422, 'current_password', 'password')
    await eraseAccount(c.env.DB, c.var.user.id, c.var.user.email)
    return respond(c, acknowledgedAnswer, { message: 'The account has been erased.' })
  })

/** Whether a password is the bearer's account's. */
async function passwordRight(c: ApiContext, password: string): Promise<boolean> {
  const row = await c.env.DB.prepare('SELECT password_hash FROM users WHERE id = ?')
    .bind(c.var.user.id)
    .first<{ password_hash: string }>()
  return verifyPassword(password, row?.password_hash ?? null)
}

/**
 * Erases an account in one transaction (docs/decisions/062): its addresses, bikes, carts, links and tokens deleted,
 * its newsletter subscriptions and sign-ups in every market ended, and its row emptied (no name, phone or language, an
 * address nobody can log in with, no password) but kept, with `erased_at`, because its orders stay: the law keeps an
 * invoice's data for years, and each order carries its own billing and delivery addresses and lines.
 *
 * @example
 * await eraseAccount(env.DB, user.id, user.email)
 */
export async function eraseAccount(db: D1Database, userId: number, email: string): Promise<void> {
  const owned = (table: string) => db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).bind(userId)
  await db.batch([
    owned('addresses'),
    owned('bikes'),
    owned('carts'),
    owned('access_tokens'),
    owned('password_resets'),
    owned('email_confirmations'),
    db.prepare('DELETE FROM newsletter_subscribers WHERE lower(email) = lower(?)').bind(email),
    db.prepare('DELETE FROM newsletter_requests WHERE lower(email) = lower(?)').bind(email),
    db
      .prepare(
        `UPDATE users SET email = 'erased-' || id || '@erased.invalid', first_name = '', last_name = '', phone = NULL,
                locale = NULL, password_hash = '', email_confirmed_at = NULL, erased_at = ${NOW} WHERE id = ?`,
      )
      .bind(userId),
  ])
}
