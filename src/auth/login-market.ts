import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { FALLBACK_MARKET, parseMarketSegment, siteUrl } from '../market/market'
import { findLiveMarket, rememberedMarket } from '../market/remembered-market'
import { LOGIN_PATH } from './paths'
import { redirectTarget } from './redirect-target'

/**
 * The market a page without one in its path (`/login`) speaks for; `hinted` when the request named it (a `market` or
 * a `redirect`) and the visitor's remembered market (or the default) would not have been the same.
 */
export type LoginMarket = { country: string; locale: string; segment: string; home: string; hinted?: boolean }

/**
 * What tells the login pages which market the visitor came from: an explicit `market` (`ae-ar`) and the `redirect`
 * target (`/ae-ar/my-account`), from the query of a GET or the fields of a posted form.
 */
export type LoginHints = { market?: string | null; redirect?: string | null }

/** The parameter (and form field) naming the login pages' market explicitly. */
export const LOGIN_MARKET_PARAM = 'market'

/** The paths of a market that need a login: "back to the site" never leads there. */
const BEHIND_LOGIN = new Set(['my-account', 'checkout'])

/**
 * The market of `/login`, `/login/register`, their answers and redirects without a market (issue 12, item 4): the
 * live market named by `market`, else the live market of the `redirect` target, else the visitor's remembered market
 * while it is live, else int-en (PRODUCT.md §3.2). A hint that names no live market is ignored. Without hints given,
 * the request's query is read.
 */
export async function loginMarket(c: Context<AppEnv>, hints?: LoginHints): Promise<LoginMarket> {
  const { market, redirect } = hints ?? { market: c.req.query(LOGIN_MARKET_PARAM), redirect: c.req.query('redirect') }
  const named = [market, marketOfPath(redirectTarget(redirect))].filter(isSegment)
  const remembered = rememberedMarket(c)
  const sites = named.length > 0 || remembered ? await c.var.lookups.sites().catch(() => []) : []
  const live = (segment: string | null) => {
    const found = findLiveMarket(sites, segment)
    return (
      found && {
        country: found.site.slug,
        locale: found.locale,
        segment: `${found.site.slug}-${found.locale}`,
        home: siteUrl(found.site, found.locale),
      }
    )
  }
  const fallback = live(remembered) ?? {
    ...FALLBACK_MARKET,
    segment: `${FALLBACK_MARKET.country}-${FALLBACK_MARKET.locale}`,
  }
  for (const segment of named) {
    const found = live(segment)
    if (found) return { ...found, hinted: found.segment !== fallback.segment }
  }
  return fallback
}

const isSegment = (segment: string | null | undefined): segment is string =>
  typeof segment === 'string' && parseMarketSegment(segment) !== null

/** The first segment of a same-site path (`/ae-ar/my-account` → `ae-ar`), or null. */
const marketOfPath = (path: string | null): string | null => path?.split(/[/?#]/)[1] || null

/**
 * A link between the login pages (`/login`, `/login/register`, the "sent" answers) that keeps their market: the
 * `redirect` when there is one, and `market` when the request named it and the redirect does not say it.
 */
export function loginLink(path: string, market: LoginMarket, redirect: string | null): string {
  const params = new URLSearchParams()
  if (redirect) params.set('redirect', redirect)
  if (market.hinted && marketOfPath(redirect) !== market.segment) params.set(LOGIN_MARKET_PARAM, market.segment)
  const query = params.toString()
  return query ? `${path}?${query}` : path
}

/** The login page in a market's language (`/login?market=ae-ar`): the way to log in from a page of that market. */
export const loginPageOf = (segment: string) => `${LOGIN_PATH}?${LOGIN_MARKET_PARAM}=${segment}`

/**
 * Where "back to the site" leads from the login pages: the page the visitor came from when it is a public page of the
 * login market, else that market's home (a page behind the login would only send them back here).
 */
export function backToSite(market: LoginMarket, redirect: string | null): string {
  if (!redirect || marketOfPath(redirect) !== market.segment) return market.home
  const section = redirect.split(/[?#]/)[0]?.split('/')[2]
  return section && BEHIND_LOGIN.has(section) ? market.home : redirect
}

/** The home of the request's market, or of the login market (`/login` has none in its path). */
export async function homeOf(c: Context<AppEnv>): Promise<string> {
  const market = c.var.market
  return market ? siteUrl(market.site, market.locale) : (await loginMarket(c)).home
}
