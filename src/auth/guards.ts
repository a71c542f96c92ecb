import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { siteUrl } from '../market/market'
import { HtmlCache } from '../render/respond'
import { isUpstreamError } from '../upstream/errors'
import { loginMarket } from './login-market'
import { loginUrl } from './redirect-target'
import { clearSessionCookie } from './session-cookie'
import { sessionsOf } from './viewer'

/**
 * The `auth` guard (PRODUCT.md §3.8): an anonymous visitor goes to `/login?redirect={path}`; a logged-in one gets
 * `c.var.account`, the upstream client speaking with their token for the page's market.
 *
 * @example
 * app.use('/:market/my-account/*', requireViewer())
 */
export const requireViewer = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await requireCustomerLogin(c)
  const { viewer, market } = c.var
  if (!viewer) return redirect(c, loginUrl(pathOf(c)))
  c.set('account', c.var.upstream.forMarket(market.country, market.locale).withToken(viewer.token))
  await next()
}

/** The `guest` guard: a logged-in visitor goes to the market's home (`/login`: the remembered market's). */
export const guestOnly = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await requireCustomerLogin(c)
  if (c.var.viewer) return redirect(c, await homeOf(c))
  await next()
}

/**
 * A 401 from an upstream call while a visitor is logged in ends their session (here and in the store) and sends them
 * to log in again, back to the page they were on. Anything else is not this function's: it answers null.
 */
export async function endSessionOnUnauthorized(c: Context<AppEnv>, error: unknown): Promise<Response | null> {
  const viewer = c.var.viewer
  if (!viewer || !isUpstreamError(error) || error.failure !== 'unauthorized') return null
  await sessionsOf(c)?.end(viewer.sessionId, viewer.user.id)
  clearSessionCookie(c)
  c.set('viewer', null)
  const back = c.req.method === 'GET' ? pathOf(c) : `/${c.req.path.split('/')[1]}/my-account`
  return redirect(c, `${loginUrl(back)}&notice=session_ended`)
}

/** A redirect that no cache keeps. */
export function redirect(c: Context<AppEnv>, location: string, status: 302 | 303 = 302): Response {
  c.header('Cache-Control', HtmlCache.private)
  return c.redirect(location, status)
}

/** The home of the request's market, or of the remembered one. */
export async function homeOf(c: Context<AppEnv>): Promise<string> {
  const market = c.var.market as AppEnv['Variables']['market'] | undefined
  return market ? siteUrl(market.site, market.locale) : (await loginMarket(c)).home
}

/** Login and the account exist only while the brand's `customer_login` feature is on (`api/get-features`). */
async function requireCustomerLogin(c: Context<AppEnv>): Promise<void> {
  const features = await c.var.lookups.features().catch(() => null)
  if (features?.find((feature) => feature.key === 'customer_login')?.enabled === false) throw PageError.pageNotFound(c.req.url)
}

const pathOf = (c: Context<AppEnv>) => {
  const { pathname, search } = new URL(c.req.url)
  return pathname + search
}
