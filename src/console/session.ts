import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { open, seal } from '../auth/seal'
import { randomToken, sha256Hex } from '../crypto/digest'
import type { AppEnv } from '../env'
import type { Staff } from '../../contract/staff-schemas'

/**
 * The staff console's own session, independent of the visitors' (`__Host-AuthTkn`): its own cookie, its own records
 * in `SESSIONS` under `console:` (sealed with `SESSION_SECRET` by src/auth/seal.ts, keyed by the SHA-256 of the id),
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
export type ConsoleSession = {
  staff: Staff
  /** The upstream staff token: it never leaves the edge. */
  token: string
  /** When the token expires. */
  expiresAt: number
  createdAt: number
  seenAt: number
}

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/
/** KV needs an expiration at least 60 s ahead. */
const KV_MIN_TTL_MS = 61_000

const keyOf = async (id: string) => `console:${await sha256Hex(id)}`

/** When a session ends at the latest: the token's expiry or the absolute lifetime, whichever comes first. */
export const consoleEndOf = (session: Pick<ConsoleSession, 'expiresAt' | 'createdAt'>) =>
  Math.min(session.expiresAt, session.createdAt + ConsoleLifetime.absoluteMs)

/** Whether a session is still alive at `now`: not past its end, not idle too long. */
export const consoleSessionLive = (session: ConsoleSession, now: number) =>
  now < consoleEndOf(session) && now - session.seenAt <= ConsoleLifetime.idleMs

export type ConsoleSessions = ReturnType<typeof consoleSessions>

/**
 * The console's sessions in a KV namespace, sealed with a secret. A record is kept in KV until its staff token expires
 * (then it cleans itself up), not only until the session goes idle or ends: a session found ended still holds its
 * token, which the guard then revokes upstream (src/console/guard.ts).
 *
 * @example
 * const started = await consoleSessions(env.SESSIONS, env.SESSION_SECRET).create({ staff, token, expiresAt })
 */
export function consoleSessions(kv: KVNamespace, secret: string) {
  const write = async (id: string, session: ConsoleSession) => {
    const until = session.expiresAt
    if (until - Date.now() < KV_MIN_TTL_MS) return end(id)
    await kv.put(await keyOf(id), await seal(secret, session), { expiration: Math.floor(until / 1000) })
  }
  const end = async (id: string) => {
    if (SESSION_ID.test(id)) await kv.delete(await keyOf(id))
  }
  return {
    /** Starts a session with a new id; null when the token expires too soon to keep. */
    async create(start: Pick<ConsoleSession, 'staff' | 'token' | 'expiresAt'>, now = Date.now()): Promise<{ id: string; end: number } | null> {
      const session: ConsoleSession = { ...start, createdAt: now, seenAt: now }
      if (consoleEndOf(session) - now < KV_MIN_TTL_MS) return null
      const id = randomToken()
      await write(id, session)
      return { id, end: consoleEndOf(session) }
    },
    /**
     * The session of an id as stored, and whether it is still live; an ended one (idle too long, past its end) is
     * deleted, and answered so that its token can be revoked. Null: unknown, altered.
     */
    async lookup(id: string, now = Date.now()): Promise<{ session: ConsoleSession; live: boolean } | null> {
      if (!SESSION_ID.test(id)) return null
      const sealed = await kv.get(await keyOf(id))
      const session = sealed === null ? null : await open<ConsoleSession>(secret, sealed)
      if (!session) return null
      const live = consoleSessionLive(session, now)
      if (!live) await end(id)
      return { session, live }
    },
    /** The live session of an id, or null (unknown, altered, idle too long, past its end: then deleted). */
    async read(id: string, now = Date.now()): Promise<ConsoleSession | null> {
      const found = await this.lookup(id, now)
      return found?.live ? found.session : null
    },
    /** Stores a session again (a refreshed `seenAt`). */
    save: write,
    /** Ends a session. */
    end,
  }
}

/** The console's session store of the request, or null when `SESSION_SECRET` is not set (the console is then closed). */
export function consoleSessionsOf(c: Context<AppEnv>): ConsoleSessions | null {
  return c.env.SESSION_SECRET ? consoleSessions(c.env.SESSIONS, c.env.SESSION_SECRET) : null
}

/** The console session id the browser sent, if any. */
export const readConsoleId = (c: Context): string | undefined => getCookie(c, CONSOLE_COOKIE)

/** Gives the browser its console session id until the session's end (HttpOnly, Secure, SameSite=Strict, Path=/). */
export function setConsoleCookie(c: Context, id: string, end: number): void {
  setCookie(c, CONSOLE_COOKIE, id, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict', expires: new Date(end) })
}

/** Takes the console cookie back. */
export function clearConsoleCookie(c: Context): void {
  deleteCookie(c, CONSOLE_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Strict' })
}
