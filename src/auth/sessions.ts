import type { Context } from 'hono'
import { isolateMemo } from '../cache/memo'
import { MEMO_SECONDS } from '../cache/policies'
import type { AppEnv } from '../env'
import { rememberedOf, type SessionKind, type SessionStore, type StoredSession, sessionStore } from './session-store'

/** What the site knows of a logged-in visitor: enough for the header and the account pages' greeting. */
export type SessionUser = { id: number; name: string; first_name: string; email: string }

/** A visitor's session as the store keeps it (the cookie expires when the session ends). Times are epoch milliseconds. */
export type Session = StoredSession & {
  user: SessionUser
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

/**
 * Visitors' sessions: `session:` records, indexed by user (a password change ends all of a user's sessions), and
 * remembered by the isolate for `MEMO_SECONDS` for the page cache's early answer and the viewer. Keyed by the secret
 * and the id.
 */
const VISITOR_SESSIONS: SessionKind<Session> = {
  prefix: 'session',
  lifetime: SessionLifetime,
  ownerOf: (session) => session.user.id,
  memo: isolateMemo<Session>({ limit: 5000, maxAgeMs: MEMO_SECONDS * 1000 }),
}

/**
 * The visitors' session store in a KV namespace, sealed with a secret (a record sealed with `previous` still opens,
 * and is sealed again: docs/decisions/048).
 *
 * @example
 * const id = await visitorSessions(env.SESSIONS, env.SESSION_SECRET).create({ user, token, expiresAt })
 */
export const visitorSessions = (kv: KVNamespace, secret: string, previous?: string): SessionStore<Session> =>
  sessionStore(kv, secret, VISITOR_SESSIONS, previous)

/** The session store of the request's environment, or null when `SESSION_SECRET` is not set (login is then unavailable). */
export function sessionsOf<E extends AppEnv>(c: Context<E>): SessionStore<Session> | null {
  return c.env.SESSION_SECRET
    ? visitorSessions(c.env.SESSIONS, c.env.SESSION_SECRET, c.env.SESSION_SECRET_PREVIOUS)
    : null
}

/** The fields of an upstream user that a session keeps. */
export const sessionUser = ({ id, name, first_name, email }: SessionUser): SessionUser => ({
  id,
  name,
  first_name,
  email,
})

/**
 * The live session of an id as this isolate remembers it (read or written within `MEMO_SECONDS`), and only while it
 * needs no check against the API and no refresh; else null (the app reads the store).
 */
export function rememberedSession(secret: string, id: string, now = Date.now()): Session | null {
  const session = rememberedOf(VISITOR_SESSIONS, secret, id, now)
  return session && now < nextCheckOf(session) ? session : null
}

/** When a session is checked next: as it was told, or (a session from before) `refreshMs` after it was last seen. */
export const nextCheckOf = (session: Pick<Session, 'checkAt' | 'seenAt'>) =>
  session.checkAt ?? session.seenAt + SessionLifetime.refreshMs

/** Forgets every session this isolate remembers, as a new isolate starts (tests of the store itself). */
export const forgetRememberedSessions = (): void => VISITOR_SESSIONS.memo?.clear()
