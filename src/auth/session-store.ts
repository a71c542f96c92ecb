import type { IsolateMemo } from '../cache/memo'
import { randomToken, sha256Hex } from '../crypto/digest'
import { open, seal } from './seal'

/** What every session holds, a visitor's or a staff member's. Times are epoch milliseconds. */
export type StoredSession = {
  /** The upstream bearer token: it never leaves the edge. */
  token: string
  /** When the token expires. */
  expiresAt: number
  createdAt: number
  /** The last request that used the session; it ends after its kind's idle time without one. */
  seenAt: number
}

/** How long a kind of session lives: idle without a request, and at most from its start. */
export type SessionLifetimes = { idleMs: number; absoluteMs: number }

/**
 * What sets one kind of session apart in the store (each keeps its own cookie elsewhere): its records' prefix in KV,
 * its lifetimes, an index of its sessions by owner, how long an ended session's record is kept, and a memo.
 */
export type SessionKind<S extends StoredSession> = {
  /** The KV prefix of its records: `{prefix}:{SHA-256 of the id}`. */
  prefix: string
  lifetime: SessionLifetimes
  /** The user a session is indexed under (`user:{id}:{SHA-256 of the id}`), so that all of a user's sessions can end. */
  ownerOf?: (session: S) => number
  /** A record is kept until its token expires, not only until the session ends: a session found ended still holds its token, to revoke. */
  keepsEndedSessions?: boolean
  /**
   * The sessions this isolate read or wrote, for the page cache's early answer and the request's viewer (a live one
   * not due for its check is not read from the store again): ending a session here forgets it at once; ended in
   * another isolate, it is forgotten here within the memo's age.
   */
  memo?: IsolateMemo<S>
}

/** A session id: 256 random bits, base64url. Nothing else in the cookie. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

/** KV needs an expiration at least 60 s ahead. */
const KV_MIN_TTL_MS = 61_000

/** When a session ends at the latest: its token's expiry or its absolute lifetime, whichever comes first. */
export const sessionEndOf = (session: Pick<StoredSession, 'expiresAt' | 'createdAt'>, lifetime: SessionLifetimes) =>
  Math.min(session.expiresAt, session.createdAt + lifetime.absoluteMs)

/** Whether a session is still alive at `now`: not past its end, not idle too long. */
export const sessionLive = (session: StoredSession, lifetime: SessionLifetimes, now: number) =>
  now < sessionEndOf(session, lifetime) && now - session.seenAt <= lifetime.idleMs

const memoKey = (secret: string, id: string) => `${secret}\u0000${id}`

export type SessionStore<S extends StoredSession> = ReturnType<typeof sessionStore<S>>

/**
 * The sessions of one kind in a KV namespace (`SESSIONS`): under the SHA-256 of their id (the store never holds a
 * usable cookie), sealed with `SESSION_SECRET` (src/auth/seal.ts), expiring with the session (or, for a kind that
 * keeps ended sessions, with its token); a new id at every start. During a rotation (docs/decisions/048) a record
 * sealed with the `previous` secret still opens, and a live one is sealed again with `secret` as it is read.

 *
 * @example
 * const sessions = sessionStore(env.SESSIONS, env.SESSION_SECRET, VISITOR_SESSIONS)
 * const started = await sessions.create({ user, token, expiresAt })
 */
export function sessionStore<S extends StoredSession>(
  kv: KVNamespace,
  secret: string,
  kind: SessionKind<S>,
  previous?: string,
) {
  const { prefix, lifetime, ownerOf, memo } = kind
  const end = async (id: string, owner?: number) => {
    if (!SESSION_ID.test(id)) return
    memo?.delete(memoKey(secret, id))
    const hash = await sha256Hex(id)
    await Promise.all([kv.delete(`${prefix}:${hash}`), owner === undefined ? null : kv.delete(`user:${owner}:${hash}`)])
  }
  const write = async (id: string, session: S) => {
    const until = kind.keepsEndedSessions ? session.expiresAt : sessionEndOf(session, lifetime)
    // A record about to end is not worth keeping (and KV refuses so short a life).
    if (until - Date.now() < KV_MIN_TTL_MS) return end(id, ownerOf?.(session))
    memo?.set(memoKey(secret, id), session)
    const hash = await sha256Hex(id)
    const expiration = Math.floor(until / 1000)
    const owner = ownerOf?.(session)
    await Promise.all([
      kv.put(`${prefix}:${hash}`, await seal(secret, session), { expiration }),
      owner === undefined ? null : kv.put(`user:${owner}:${hash}`, '', { expiration }),
    ])
  }
  const lookup = async (id: string, now = Date.now()): Promise<{ session: S; live: boolean } | null> => {
    if (!SESSION_ID.test(id)) return null
    const sealed = await kv.get(`${prefix}:${await sha256Hex(id)}`)
    const current = sealed === null ? null : await open<S>(secret, sealed)
    const earlier = sealed === null || current || !previous ? null : await open<S>(previous, sealed)
    const session = current ?? earlier
    if (!session) return null
    const live = sessionLive(session, lifetime, now)
    // Sealed with the previous secret: sealed again with the current one, so it outlives the overlap.
    if (live && earlier) await write(id, session)
    else if (live) memo?.set(memoKey(secret, id), session)
    else await end(id, ownerOf?.(session))
    return { session, live }
  }

  return {
    /** Starts a session: its new id and when it ends; `null` when the token expires too soon to keep. */
    async create(
      start: Omit<S, 'createdAt' | 'seenAt'>,
      now = Date.now(),
    ): Promise<{ id: string; end: number } | null> {
      const session = { ...start, createdAt: now, seenAt: now } as S
      if (sessionEndOf(session, lifetime) - now < KV_MIN_TTL_MS) return null
      const id = randomToken()
      await write(id, session)
      return { id, end: sessionEndOf(session, lifetime) }
    },

    /**
     * The session of an id as stored, and whether it is still live; an ended one (idle too long, past its end) is
     * deleted, and answered so that its token can be revoked. Null: unknown, altered.
     */
    lookup,

    /** The live session of an id, or null (unknown, altered, idle too long, past its end: then deleted). */
    async read(id: string, now = Date.now()): Promise<S | null> {
      const found = await lookup(id, now)
      return found?.live ? found.session : null
    },

    /** Stores a session again (a refreshed `seenAt` or user). */
    save: write,

    /** Ends one session (its index entry too, given its owner). */
    end,

    /**
     * Ends every session of a user (after a password reset, an erased account), or every one but `keep`, the id of
     * the session that changed the password from the account.
     */
    async endAllOf(owner: number, keep?: string): Promise<void> {
      const kept = keep && SESSION_ID.test(keep) ? await sha256Hex(keep) : null
      const keptKey = keep ? memoKey(secret, keep) : null
      memo?.clear((key, session) => ownerOf?.(session) === owner && key !== keptKey)
      let cursor: string | undefined
      do {
        const page = await kv.list({ prefix: `user:${owner}:`, cursor })
        await Promise.all(
          page.keys
            .filter(({ name }) => name.split(':')[2] !== kept)
            .flatMap(({ name }) => [kv.delete(`${prefix}:${name.split(':')[2]}`), kv.delete(name)]),
        )
        cursor = page.list_complete ? undefined : page.cursor
      } while (cursor)
    },
  }
}

/** The live session of an id as a kind's memo holds it (read or written within the memo's age), else null. */
export function rememberedOf<S extends StoredSession>(
  kind: SessionKind<S>,
  secret: string,
  id: string,
  now = Date.now(),
): S | null {
  const session = kind.memo?.get(memoKey(secret, id), now)
  return session && sessionLive(session, kind.lifetime, now) ? session : null
}
