import type { Context, MiddlewareHandler } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { isUpstreamError } from '../upstream/errors'
import { authOf } from './auth-of'
import { clearSessionCookie, readSessionId } from './session-cookie'
import type { SessionStore } from './session-store'
import {
  nextCheckOf,
  rememberedSession,
  type Session,
  SessionLifetime,
  type SessionUser,
  sessionsOf,
  sessionUser,
} from './sessions'

/** The name the site greets a logged-in visitor by. */
export const viewerName = (user: Pick<SessionUser, 'first_name' | 'name'>) => user.first_name || user.name

/** The logged-in visitor of a request: their session id, user and (edge-only) token. */
export type Viewer = { sessionId: string; user: SessionUser; token: string }

/**
 * Sets `c.var.viewer` from the session cookie (null for anonymous visitors: no store read, no cookie written), and
 * lowers the answer's caching to the visitor's browser. A session this isolate read or wrote within `MEMO_SECONDS`,
 * and not yet due for its check, is taken from the isolate's memory as the page cache's early answer takes it: no
 * store read, no unsealing (docs/decisions/066). A session not checked for a while is checked against
 * `GET api/auth/user` first: a 401 ends it and the page renders as anonymous; any other failure keeps it as it was
 * and is not asked again for a while, so an outage costs one wait, not one per page. A store that cannot be read
 * renders the page as anonymous. On the whistleblower channel's pages the session is not read at all: they never know
 * who visits them, nor end a session with a cookie (src/whistleblower/no-trace.ts).
 *
 * @example
 * app.use(viewer())
 */
export const viewer = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.set('viewer', null)
  if (c.get('noTrace')) return next()
  const id = readSessionId(c)
  const secret = c.env.SESSION_SECRET
  if (!id || !secret) return next()
  // Remembered, it is not due for its check: the store is not even made (docs/decisions/074).
  const remembered = rememberedSession(secret, id)
  if (remembered) {
    setViewer(c, id, remembered)
    return next()
  }
  const sessions = sessionsOf(c)
  if (sessions) {
    const session = await sessions.read(id).catch((error: unknown) => {
      logEvent('error', 'session_unreadable', { error: errorName(error) })
      return undefined
    })
    const current = session && (await checkSession(c, sessions, id, session))
    if (current) setViewer(c, id, current)
    // A session that ended (not one we could not read) takes its cookie back.
    else if (session !== undefined) clearSessionCookie(c)
  }
  await next()
}

/** The request's viewer, and an answer only their browser may keep: the page names who they are. */
function setViewer(c: Context<AppEnv>, id: string, session: Session): void {
  c.set('viewer', { sessionId: id, user: session.user, token: session.token })
  c.get('caching').lower(Caching.personal)
}

/**
 * The session as it stands after its periodic check: unchanged until its next check is due; refreshed (user,
 * `seenAt`, next check in `refreshMs`) when the API still knows the token; null (and ended) when the API answers 401;
 * kept, with its next check in `retryMs`, when the API cannot answer. Saved in the background either way.
 */
async function checkSession(
  c: Context<AppEnv>,
  sessions: SessionStore<Session>,
  id: string,
  session: Session,
): Promise<Session | null> {
  const now = Date.now()
  if (now < nextCheckOf(session)) return session
  const save = (next: Session) =>
    c.executionCtx.waitUntil(
      sessions
        .save(id, next)
        .catch((error: unknown) => logEvent('warn', 'session_save_failed', { error: errorName(error) })),
    )
  try {
    const user = await authOf(c).user(session.token)
    // Checked either way: a user the API does not answer (404) keeps its name, and is not asked for on every request.
    const next = {
      ...session,
      user: user ? sessionUser(user) : session.user,
      seenAt: now,
      checkAt: now + SessionLifetime.refreshMs,
    }
    save(next)
    return next
  } catch (error) {
    if (isUpstreamError(error) && error.failure === 'unauthorized') {
      await sessions.end(id, session.user.id).catch(() => {})
      return null
    }
    logEvent('warn', 'session_check_failed', {
      error: errorName(error),
      retryInSeconds: SessionLifetime.retryMs / 1000,
    })
    const next = { ...session, seenAt: now, checkAt: now + SessionLifetime.retryMs }
    save(next)
    return next
  }
}
