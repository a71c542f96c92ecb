import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { type SessionKind, type SessionStore, type StoredSession, sessionStore } from '../auth/session-store'
import type { AppEnv } from '../env'
import type { Staff } from '../../contract/staff-schemas'

/**
 * The staff console's own session, independent of the visitors' (`__Host-AuthTkn`): its own cookie, its own records
 * in `SESSIONS` under `console:` (the one session store, src/auth/session-store.ts: sealed, keyed by the SHA-256 of the id),
 * shorter lives (idle 30 min, absolute 8 h, the staff token's life), a new id at every sign-in.
 */

/** The console's cookie: an opaque id. `__Host-` pins it to this host, Secure and Path=/; Strict: no cross-site request carries it. */
export const CONSOLE_COOKIE = '__Host-Console'

export const ConsoleLifetime = {
  idleMs: 30 * 60_000,
  absoluteMs: 8 * 3600_000,
  /** A request refreshes `seenAt` (one KV write) at most this often: idle time is exact to within it. */
  touchMs: 60_000,
} as const

/** A console session as the store keeps it. Times are epoch milliseconds. */
export type ConsoleSession = StoredSession & { staff: Staff }

/**
 * Console sessions: `console:` records, kept in KV until their staff token expires (then they clean themselves up),
 * not only until the session goes idle or ends: a session found ended still holds its token, which the guard then
 * revokes upstream (src/console/guard.ts).
 */
const CONSOLE_SESSIONS: SessionKind<ConsoleSession> = {
  prefix: 'console',
  lifetime: ConsoleLifetime,
  keepsEndedSessions: true,
}

/**
 * The console's sessions in a KV namespace, sealed with a secret (a record sealed with `previous` still opens, and is
 * sealed again: docs/decisions/048).
 *
 * @example
 * const started = await consoleSessions(env.SESSIONS, env.SESSION_SECRET).create({ staff, token, expiresAt })
 */
export const consoleSessions = (kv: KVNamespace, secret: string, previous?: string): SessionStore<ConsoleSession> =>
  sessionStore(kv, secret, CONSOLE_SESSIONS, previous)

/** The console's session store of the request, or null when `SESSION_SECRET` is not set (the console is then closed). */
export function consoleSessionsOf(c: Context<AppEnv>): SessionStore<ConsoleSession> | null {
  return c.env.SESSION_SECRET
    ? consoleSessions(c.env.SESSIONS, c.env.SESSION_SECRET, c.env.SESSION_SECRET_PREVIOUS)
    : null
}

/** The console session id the browser sent, if any. */
export const readConsoleId = (c: Context): string | undefined => getCookie(c, CONSOLE_COOKIE)

/** Gives the browser its console session id until the session's end (HttpOnly, Secure, SameSite=Strict, Path=/). */
export function setConsoleCookie(c: Context, id: string, end: number): void {
  setCookie(c, CONSOLE_COOKIE, id, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Strict',
    expires: new Date(end),
  })
}

/** Takes the console cookie back. */
export function clearConsoleCookie(c: Context): void {
  deleteCookie(c, CONSOLE_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict' })
}
