import type { StaffRole } from '../../contract/staff-schemas'
import { hashPassword } from '../../reference-api/passwords'
import { toBase32 } from '../../reference-api/totp'
import { sqlValue } from '../brand-data/upsert'

/** A staff member to add: the password only ever leaves here hashed. */
export type NewStaff = { email: string; name: string; role: StaffRole; password: string }

/**
 * The SQL that adds (or, for a known address, resets and re-activates) a staff member, with a fresh TOTP secret, and
 * the enrolment to show once: the secret (base32) and the otpauth:// URI an authenticator app scans.
 *
 * @example
 * const { sql, otpauth } = await staffAddition({ email, name, role: 'editor', password })
 */
export async function staffAddition(member: NewStaff): Promise<{ sql: string; secret: string; otpauth: string }> {
  const secret = toBase32(crypto.getRandomValues(new Uint8Array(20)))
  const row = {
    email: member.email,
    name: member.name,
    role: member.role,
    password_hash: await hashPassword(member.password),
    totp_secret: secret,
  }
  const sql =
    `INSERT INTO staff_users (email, name, role, password_hash, totp_secret, totp_last_step, active, demo) VALUES ` +
    `(${Object.values(row).map(sqlValue).join(', ')}, 0, 1, 0) ON CONFLICT (email) DO UPDATE SET name = excluded.name, ` +
    'role = excluded.role, password_hash = excluded.password_hash, totp_secret = excluded.totp_secret, ' +
    'totp_last_step = 0, active = 1, demo = 0;'
  const label = encodeURIComponent(`Aurora Cycles console:${member.email}`)
  const otpauth = `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent('Aurora Cycles console')}&algorithm=SHA1&digits=6&period=30`
  return { sql, secret, otpauth }
}

/** The SQL that disables a staff member: no sign-in, and the tokens already given out revoked. */
export function staffDisabling(email: string): string {
  const member = `SELECT id FROM staff_users WHERE email = ${sqlValue(email)}`
  return `UPDATE staff_users SET active = 0 WHERE email = ${sqlValue(email)};\nDELETE FROM staff_tokens WHERE staff_id IN (${member});`
}
