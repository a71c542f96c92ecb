import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { logEvent } from '../ops/log'
import { isUpstreamError, unlessRefused, UpstreamError } from '../upstream/errors'
import type { LoginRequest } from '../../contract/account-schemas'
import { mergeHeldCarts } from '../cart/merge-at-login'
import { authOf } from './auth-of'
import { endSession } from './log-out'
import { setSessionCookie } from './session-cookie'
import { sessionsOf, sessionUser } from './sessions'

/** How a login attempt ended. */
export type LoginOutcome = 'logged-in' | 'refused' | 'limited'

/**
 * Logs a visitor in (PRODUCT.md §4): `POST api/auth/login` for a token, `GET api/auth/user` with it, then a new
 * session whose id alone goes to the browser. A session the browser already held (another account's, or this one's)
 * ends first, its token revoked: every login gets a new id. The API refusing the credentials is `refused`, never
 * saying whether the account exists, and changes nothing (a 401, as many Laravel login controllers answer wrong
 * credentials, is a refusal too, never an outage); its own rate limit is `limited`; any other failure throws
 * (the 503 page). The anonymous carts the browser holds are merged into the customer's.
 */
export async function logIn(
  c: Context<AppEnv>,
  market: { country: string; locale: string },
  credentials: LoginRequest,
): Promise<LoginOutcome> {
  const sessions = sessionsOf(c)
  if (!sessions) {
    logEvent('error', 'session_secret_missing')
    throw PageError.maintenance()
  }
  const auth = authOf(c, market)
  const { answer, refused } = await unlessRefused(auth.login(credentials).catch(asRefusal), [400, 401, 422, 429])
  if (refused) return refused.status === 429 ? 'limited' : 'refused'
  const user = answer && (await auth.user(answer.access_token))
  const expiresAt = Date.parse(answer?.expires_at ?? '')
  if (!answer || !user || Number.isNaN(expiresAt)) throw new UpstreamError('invalid', 'auth/login')
  const previous = c.var.viewer
  if (previous) await endSession(c, previous)
  const started = await sessions.create({ user: sessionUser(user), token: answer.access_token, expiresAt })
  if (!started) throw new UpstreamError('invalid', 'auth/login')
  setSessionCookie(c, started.id, started.end)
  // The carts the visitor filled before logging in become the customer's (docs/api.md "Cart").
  await mergeHeldCarts(c, answer.access_token, market.locale)
  return 'logged-in'
}

/** A 401 to `POST api/auth/login` is wrong credentials (the Laravel way): a refusal like a 422, no outage, no logout. */
function asRefusal(error: unknown): never {
  if (isUpstreamError(error) && error.failure === 'unauthorized')
    throw new UpstreamError('rejected', error.path, 401, { message: '' })
  throw error
}
