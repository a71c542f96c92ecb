import type { MiddlewareHandler } from 'hono'
import type { Staff, StaffRole } from '../contract/staff-schemas'
import type { ApiContext, ApiEnv } from './context'
import { tokenHash } from './passwords'
import { bearerToken, unauthorized } from './resources/auth'

/** How long a staff token lives: the console's absolute session (8 h). */
export const STAFF_TOKEN_HOURS = 8

/** The staff member of the request's bearer token, if it is known, not expired and the member still active. */
export async function bearerStaff(c: ApiContext): Promise<Staff | null> {
  const token = bearerToken(c)
  if (!token) return null
  return c.env.DB.prepare(
    `SELECT s.id, s.email, s.name, s.role
       FROM staff_tokens t JOIN staff_users s ON s.id = t.staff_id
      WHERE t.token_hash = ? AND s.active = 1 AND t.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
  )
    .bind(await tokenHash(token))
    .first<Staff>()
}

/**
 * Staff calls need a staff bearer token (401 otherwise) and, given a role, that role (403 otherwise): the case handler
 * never reads a lead, the editor never a case.
 *
 * @example
 * cases.use('/staff/cases/*', staffOnly('case_handler'))
 */
export const staffOnly =
  (role?: StaffRole): MiddlewareHandler<ApiEnv> =>
  async (c, next) => {
    const staff = await bearerStaff(c)
    if (!staff) return unauthorized(c)
    if (role && staff.role !== role) return c.json({ message: 'This action is unauthorized.' }, 403)
    c.set('staff', staff)
    await next()
  }
