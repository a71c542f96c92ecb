import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv, MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { availableFor } from '../market/request-availability'
import { sendRedirect } from '../render/respond'
import { accountCalls } from '../upstream/contract/account'
import { isUpstreamError } from '../upstream/errors'
import { homeOf } from './login-market'
import { loginUrl } from './redirect-target'
import { clearSessionCookie } from './session-cookie'
import { sessionsOf } from './sessions'

/**
 * The `auth` guard (PRODUCT.md §3.8): an anonymous visitor goes to `/login?redirect={path}`; a logged-in one gets
 * `c.var.account`, their account's calls with their token for the page's market.
 *
 * @example
 * app.use('/:market/my-account/*', requireViewer())
 */
export const requireViewer = (): MiddlewareHandler<MarketEnv> => async (c, next) => {
  await requireCustomerLogin(c)
  const { viewer, market } = c.var
  // A form cannot be sent again after login: its page is where the visitor comes back to.
  if (!viewer) return sendRedirect(c, loginUrl(isForm(c) ? `/${market.segment}/my-account` : pathOf(c)), afterForm(c))
  c.set('account', accountCalls(c.var.upstream.forMarket(market).withToken(viewer.token)))
  await next()
}

/** The `guest` guard: a logged-in visitor goes to the market's home (`/login`: the remembered market's). */
export const guestOnly = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await requireCustomerLogin(c)
  if (c.var.viewer) return sendRedirect(c, await homeOf(c), afterForm(c))
  await next()
}

/**
 * A 401 from an upstream call while a visitor is logged in ends their session, here and in the store. On an `auth`
 * page they are sent to log in again, back to where they were; anywhere else the page is simply asked for again, and
 * renders as anonymous. Anything else is not this function's: it answers null.
 */
export async function endSessionOnUnauthorized(c: Context<AppEnv>, error: unknown): Promise<Response | null> {
  const viewer = c.var.viewer
  if (!viewer || !isUpstreamError(error) || error.failure !== 'unauthorized') return null
  await sessionsOf(c)
    ?.end(viewer.sessionId, viewer.user.id)
    .catch(() => {})
  clearSessionCookie(c)
  c.set('viewer', null)
  const isAuthPage = c.var.account !== undefined
  const back = !isForm(c) ? pathOf(c) : isAuthPage ? `/${c.req.path.split('/')[1]}/my-account` : await homeOf(c)
  return sendRedirect(c, isAuthPage ? `${loginUrl(back)}&notice=session_ended` : back, afterForm(c))
}

/** Login and the account exist only while they are available (the brand's `customer_login` feature). */
async function requireCustomerLogin<E extends AppEnv>(c: Context<E>): Promise<void> {
  if (!(await availableFor(c)).has('account')) throw PageError.pageNotFound(c.req.url)
}

/** Whether the request sent a form (anything but GET and HEAD). */
const isForm = <E extends AppEnv>(c: Context<E>) => c.req.method !== 'GET' && c.req.method !== 'HEAD'

/** A redirect answering a form is a 303 (the browser follows it with a GET); any other a 302. */
const afterForm = <E extends AppEnv>(c: Context<E>) => (isForm(c) ? 303 : 302)

const pathOf = <E extends AppEnv>(c: Context<E>) => {
  const { pathname, search } = new URL(c.req.url)
  return pathname + search
}
