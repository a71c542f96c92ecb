import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { isUpstreamError } from '../upstream/errors'
import { userAnswer } from '../upstream/schemas'
import { clearSessionCookie, readSessionId } from './session-cookie'
import { type Session, SessionLifetime, type SessionStore, type SessionUser, sessionStore } from './session-store'

/** The logged-in visitor of a request: their session id, user and (edge-only) token. */
export type Viewer = { sessionId: string; user: SessionUser; token: string }

/** The store of the request's environment, or null when `SESSION_SECRET` is not set (login is then unavailable). */
export function sessionsOf(c: Context<AppEnv>): SessionStore | null {
  return c.env.SESSION_SECRET ? sessionStore(c.env.SESSIONS, c.env.SESSION_SECRET) : null
}

/** The fields of an upstream user that the session keeps. */
export const sessionUser = ({ id, name, first_name, email }: SessionUser): SessionUser => ({ id, name, first_name, email })

/**
 * Sets `c.var.viewer` from the session cookie (null for anonymous visitors: no store read, no cookie written). A
 * session not seen for a while is checked against `GET api/auth/user` first: a 401 ends it and the page renders
 * as anonymous; any other failure keeps it as it was.
 *
 * @example
 * app.use(viewer())
 */
export const viewer = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.set('viewer', null)
  const id = readSessionId(c)
  const sessions = id ? sessionsOf(c) : null
  if (id && sessions) {
    const session = await sessions.read(id)
    const current = session && (await refreshed(c, sessions, id, session))
    if (current) c.set('viewer', { sessionId: id, user: current.user, token: current.token })
    else clearSessionCookie(c)
  }
  await next()
}

async function refreshed(c: Context<AppEnv>, sessions: SessionStore, id: string, session: Session): Promise<Session | null> {
  const now = Date.now()
  if (now - session.seenAt < SessionLifetime.refreshMs) return session
  try {
    const answer = await c.var.upstream.withToken(session.token).get('auth/user', userAnswer)
    if (!answer) return session
    const next = { ...session, user: sessionUser(answer.data), seenAt: now }
    c.executionCtx.waitUntil(sessions.save(id, next))
    return next
  } catch (error) {
    if (isUpstreamError(error) && error.failure === 'unauthorized') {
      await sessions.end(id, session.user.id)
      return null
    }
    logEvent('warn', 'session_check_failed', { error: errorName(error) })
    return session
  }
}
