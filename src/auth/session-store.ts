import { MEMO_SECONDS } from '../cache/policies'
import { randomToken, sha256Hex } from '../crypto/digest'
import { open, seal } from './seal'

/** What the site knows of a logged-in visitor: enough for the header and the account pages' greeting. */
export type SessionUser = { id: number; name: string; first_name: string; email: string }

/** A session as the store keeps it. Times are epoch milliseconds. */
export type Session = {
  user: SessionUser
  /** The upstream bearer token: it never leaves the edge. */
  token: string
  /** When the token expires (the cookie expires then too). */
  expiresAt: number
  createdAt: number
  /** The last request that used the session; it ends after `idle` without one. */
  seenAt: number
  /** When the token is next checked against the API (`GET api/auth/user`). */
  checkAt?: number
}

/**
 * Session lifetimes (docs/decisions/006): idle, absolute, how often a visit checks the token and refreshes `seenAt`
 * and the user, and how long after a check the API could not answer it is asked again.
 */
export const SessionLifetime = {
  idleMs: 2 * 3600_000,
  absoluteMs: 24 * 3600_000,
  refreshMs: 5 * 60_000,
  retryMs: 60_000,
} as const

/** A session id: 256 random bits, base64url. Nothing else in the cookie. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

/** KV needs an expiration at least 60 s ahead. */
const KV_MIN_TTL_MS = 61_000

export type SessionStore = ReturnType<typeof sessionStore>

/**
 * The sessions of the site, in the `SESSIONS` KV namespace: under the SHA-256 of their id (the store never holds a
 * usable cookie), sealed with `SESSION_SECRET`, expiring with the session; an index per user lets a password change
 * end all of that user's sessions.
 *
 * @example
 * const sessions = sessionStore(env.SESSIONS, env.SESSION_SECRET)
 * const id = await sessions.create({ user, token, expiresAt })
 */
export function sessionStore(kv: KVNamespace, secret: string) {
  const end = async (id: string, userId?: number) => {
    forgetSession(secret, id)
    const hash = await sha256Hex(id)
    await Promise.all([kv.delete(`session:${hash}`), userId === undefined ? null : kv.delete(`user:${userId}:${hash}`)])
  }
  const write = async (id: string, session: Session) => {
    // A session about to end is not worth keeping (and KV refuses so short a life).
    if (endOf(session) - Date.now() < KV_MIN_TTL_MS) return end(id, session.user.id)
    rememberSession(secret, id, session)
    const hash = await sha256Hex(id)
    const expiration = Math.floor(endOf(session) / 1000)
    await Promise.all([
      kv.put(`session:${hash}`, await seal(secret, session), { expiration }),
      kv.put(`user:${session.user.id}:${hash}`, '', { expiration }),
    ])
  }

  return {
    /** Starts a session: its new id and when it ends; `null` when the token expires too soon to keep. */
    async create(start: Pick<Session, 'user' | 'token' | 'expiresAt'>, now = Date.now()): Promise<{ id: string; end: number } | null> {
      const session: Session = { ...start, createdAt: now, seenAt: now }
      if (endOf(session) - now < KV_MIN_TTL_MS) return null
      const id = randomToken()
      await write(id, session)
      return { id, end: endOf(session) }
    },

    /** The live session of an id, or null (unknown, altered, idle too long, or past its end). */
    async read(id: string, now = Date.now()): Promise<Session | null> {
      if (!SESSION_ID.test(id)) return null
      const sealed = await kv.get(`session:${await sha256Hex(id)}`)
      const session = sealed === null ? null : await open<Session>(secret, sealed)
      if (!session) return null
      if (now >= endOf(session) || now - session.seenAt > SessionLifetime.idleMs) {
        await end(id, session.user.id)
        return null
      }
      rememberSession(secret, id, session)
      return session
    },

    /** Stores a session again (a refreshed `seenAt` or user). */
    save: write,

    /** Ends one session. */
    end,

    /** Ends every session of a user (after a password change). */
    async endAllOf(userId: number): Promise<void> {
      for (const [key, { session }] of remembered) if (session.user.id === userId) remembered.delete(key)
      let cursor: string | undefined
      do {
        const page = await kv.list({ prefix: `user:${userId}:`, cursor })
        await Promise.all(page.keys.flatMap(({ name }) => [kv.delete(`session:${name.split(':')[2]}`), kv.delete(name)]))
        cursor = page.list_complete ? undefined : page.cursor
      } while (cursor)
    },
  }
}

/**
 * Sessions this isolate read or wrote within `MEMO_SECONDS`, for the page cache's early answer only (every other
 * request reads the store): ending a session here forgets it at once; ended in another isolate, it is forgotten here
 * within `MEMO_SECONDS` (KV itself takes up to a minute to show a deletion everywhere). Keyed by the secret and the id.
 */
const remembered = new Map<string, { session: Session; readAt: number }>()
const REMEMBERED_LIMIT = 5000
const rememberedKey = (secret: string, id: string) => `${secret}\u0000${id}`

function rememberSession(secret: string, id: string, session: Session): void {
  const key = rememberedKey(secret, id)
  remembered.delete(key)
  if (remembered.size >= REMEMBERED_LIMIT) remembered.delete(remembered.keys().next().value as string)
  remembered.set(key, { session, readAt: Date.now() })
}

function forgetSession(secret: string, id: string): void {
  remembered.delete(rememberedKey(secret, id))
}

/**
 * The live session of an id as this isolate remembers it (read or written within `MEMO_SECONDS`), and only while it
 * needs no check against the API and no refresh; else null (the app reads the store).
 */
export function rememberedSession(secret: string, id: string, now = Date.now()): Session | null {
  const memo = remembered.get(rememberedKey(secret, id))
  if (!memo || now - memo.readAt >= MEMO_SECONDS * 1000) return null
  const { session } = memo
  const live = now < endOf(session) && now - session.seenAt <= SessionLifetime.idleMs
  return live && now < nextCheckOf(session) ? session : null
}

/** Forgets every remembered session (between tests). */
export function forgetRememberedSessions(): void {
  remembered.clear()
}

/** When a session ends at the latest: the token's expiry or the absolute lifetime, whichever comes first. */
export const endOf = (session: Pick<Session, 'expiresAt' | 'createdAt'>) =>
  Math.min(session.expiresAt, session.createdAt + SessionLifetime.absoluteMs)

/** When a session is checked next: as it was told, or (a session from before) `refreshMs` after it was last seen. */
export const nextCheckOf = (session: Pick<Session, 'checkAt' | 'seenAt'>) => session.checkAt ?? session.seenAt + SessionLifetime.refreshMs
