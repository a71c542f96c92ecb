import type { Context } from 'hono'
import { withNotice } from '../components/toast'
import type { AppEnv } from '../env'
import { readForm } from '../forms/read-form'
import { errorName, logEvent } from '../ops/log'
import { sendRedirect } from '../render/respond'
import { authOf } from './auth-of'
import { redirectTarget } from './redirect-target'
import { clearSessionCookie } from './session-cookie'
import { sessionsOf } from './sessions'
import type { Viewer } from './viewer'

/**
 * `POST /logout` (the header's button): revokes the token upstream (`POST api/auth/logout`), deletes the session from
 * the store and the cookie from the browser, so a copied cookie no longer works, then goes to the form's `redirect`.
 */
export async function logOut(c: Context<AppEnv>): Promise<Response> {
  const viewer = c.var.viewer
  const form = await readForm(c)
  if (viewer) {
    await endSession(c, viewer)
    clearSessionCookie(c)
  }
  return sendRedirect(c, withNotice(redirectTarget(form.redirect) ?? '/', 'logged_out'), 303)
}

/** Ends a visitor's session for good: its token revoked upstream (a failure is logged), the session deleted. */
export async function endSession(c: Context<AppEnv>, viewer: Viewer): Promise<void> {
  await authOf(c)
    .logout(viewer.token)
    .catch((error: unknown) => logEvent('warn', 'token_revoke_failed', { error: errorName(error) }))
  await sessionsOf(c)?.end(viewer.sessionId, viewer.user.id)
}
