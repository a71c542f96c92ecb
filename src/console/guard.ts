import type { Context, MiddlewareHandler } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { errorName, logEvent } from '../ops/log'
import { sendRedirect } from '../render/respond'
import { staffCalls } from '../upstream/contract/staff'
import type { StaffRole } from '../../contract/staff-schemas'
import { accessIdentityOf, sameAccessEmail } from './access'
import { CONSOLE_LOGIN_PATH } from './sections'
import { ConsoleLifetime, type ConsoleSession, clearConsoleCookie, consoleSessionsOf, readConsoleId } from './session'

/** The signed-in staff member of a request, read once: their session id and session, or null. */
export type ConsoleSignIn = { id: string; session: ConsoleSession }

/** What the 403 console page says when the session is not of the person Cloudflare Access let in. */
export const ACCESS_OTHER_PERSON =
  'This console session is not of the person Cloudflare Access let in: it has ended. Sign in with your own account.'

/**
 * The console session of a request, if it has a live one (and, once a request, its idle time refreshed). A session
 * that ended (idle, past its end) takes its cookie back and its staff token is revoked upstream; a store that cannot be
 * read counts as no session (logged). With Cloudflare Access in front, a session of another staff member than the
 * one whose address Access let in is ended the same way, and the request refused (403).
 */
export async function consoleSignIn(c: Context<AppEnv>): Promise<ConsoleSignIn | null> {
  const id = readConsoleId(c)
  const sessions = consoleSessionsOf(c)
  if (!sessions) {
    logEvent('error', 'session_secret_missing')
    throw PageError.maintenance()
  }
  if (!id) return null
  // Whoever sent a console cookie gets an answer for them alone, whatever it is.
  c.var.caching.lower(Caching.private)
  const now = Date.now()
  const found = await sessions.lookup(id, now).catch((error: unknown) => {
    logEvent('error', 'session_unreadable', { error: errorName(error) })
    return null
  })
  if (!found?.live) {
    if (found) await revokeStaffToken(c, found.session.token)
    clearConsoleCookie(c)
    return null
  }
  const { session } = found
  if (!sameAccessEmail(accessIdentityOf(c), session.staff.email)) {
    logEvent('warn', 'access_email_mismatch')
    await revokeStaffToken(c, session.token)
    await sessions.end(id)
    clearConsoleCookie(c)
    throw new PageError(403, ACCESS_OTHER_PERSON)
  }
  if (now - session.seenAt >= ConsoleLifetime.touchMs) {
    const touched = { ...session, seenAt: now }
    c.executionCtx.waitUntil(
      sessions
        .save(id, touched)
        .catch((error: unknown) => logEvent('warn', 'session_save_failed', { error: errorName(error) })),
    )
    return { id, session: touched }
  }
  return { id, session }
}

/** Revokes a staff token upstream (`POST api/staff/logout`); a failure is logged by its name and otherwise ignored. */
export async function revokeStaffToken(c: Context<AppEnv>, token: string): Promise<void> {
  await staffCalls(c.var.upstream.withToken(token))
    .logout()
    .catch((error: unknown) => logEvent('warn', 'token_revoke_failed', { error: errorName(error) }))
}

/** What the 403 console page says to a member of another role. */
export const ROLE_REFUSED = 'This part of the console is not for your role.'

/** The sign-in page's URL, coming back to `path` afterwards. */
export const consoleLoginUrl = (path: string) => `${CONSOLE_LOGIN_PATH}?next=${encodeURIComponent(path)}`

/**
 * The console's gate, before every console route but sign-in: without a live console session, 303 to
 * `/_console/login?next=…`; with one of another role than `role`, the 403 console page. Sets `c.var.staff` and
 * `c.var.staffApi` (the unbound upstream client with the staff token) and refreshes the session's idle time.
 *
 * @example
 * leads.use(consoleGate('editor'))
 */
export const consoleGate =
  (role?: StaffRole): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const signIn = await consoleSignIn(c)
    if (!signIn) {
      const url = new URL(c.req.url)
      // A form posted after the session ended comes back to its page, not to the POST's URL.
      const back = c.req.method === 'GET' ? url.pathname + url.search : (consoleReferer(c) ?? url.pathname)
      return sendRedirect(c, consoleLoginUrl(back), 303)
    }
    c.set('staff', signIn.session.staff)
    c.set('staffApi', c.var.upstream.withToken(signIn.session.token))
    if (role && signIn.session.staff.role !== role) throw new PageError(403, ROLE_REFUSED)
    await next()
  }

/** The console page a form was posted from (same origin, under /_console), if the browser said. */
function consoleReferer(c: Context): string | null {
  try {
    const referer = new URL(c.req.header('Referer') ?? '')
    return referer.origin === new URL(c.req.url).origin && referer.pathname.startsWith('/_console')
      ? referer.pathname + referer.search
      : null
  } catch {
    return null
  }
}

/** A console path to go back to after sign-in (`next`), or null: only `/_console…` paths of this site. */
export function consoleNext(value: string | null | undefined): string | null {
  if (!value || value.length > 500 || !/^\/_console(?:[/?]|$)/.test(value) || /[\\\p{Cc}]/u.test(value)) return null
  try {
    const url = new URL(value, 'https://site.invalid')
    const path = url.pathname + url.search
    return url.origin === 'https://site.invalid' && /^\/_console(?:[/?]|$)/.test(path) && path !== CONSOLE_LOGIN_PATH
      ? path
      : null
  } catch {
    return null
  }
}
