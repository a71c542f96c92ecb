import { Hono } from 'hono'
import { loginAnswer, loginRequestSchema, type User, userAnswer } from '../../upstream/schemas'
import { type ApiContext, type ApiEnv, respond } from '../context'
import { newToken, tokenHash, verifyPassword } from '../passwords'

/** How long an access token lives. */
export const TOKEN_HOURS = 12

type UserRow = Omit<User, 'name'> & { password_hash: string }

/**
 * `POST api/auth/login` (`{ email, password }` → `{ access_token, expires_at }`, or 422 without saying whether the
 * account exists) and `GET api/auth/user` (the bearer's user, or 401).
 */
export const auth = new Hono<ApiEnv>()
  .post('/auth/login', async (c) => {
    const body = loginRequestSchema.safeParse(await c.req.json().catch(() => null))
    if (!body.success) return c.json({ message: 'The e-mail address and the password are required.' }, 422)
    const row = await c.env.DB.prepare('SELECT id, password_hash FROM users WHERE email = ?')
      .bind(body.data.email)
      .first<{ id: number; password_hash: string }>()
    if (!(await verifyPassword(body.data.password, row?.password_hash ?? null)) || !row) {
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

/** The user of the request's bearer token, if it is known and not expired. */
export async function bearerUser(c: ApiContext): Promise<User | null> {
  const token = /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(c.req.header('Authorization') ?? '')?.[1]
  if (!token) return null
  const row = await c.env.DB.prepare(
    `SELECT u.id, u.email, u.first_name, u.last_name, u.phone, u.locale, u.created_at
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ? AND t.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
  )
    .bind(await tokenHash(token))
    .first<Omit<UserRow, 'password_hash'>>()
  return row ? { ...row, name: `${row.first_name} ${row.last_name}` } : null
}

/** The contract's answer to a missing, unknown or expired token. */
export const unauthorized = (c: ApiContext) => c.json({ message: 'Unauthenticated.' }, 401)
