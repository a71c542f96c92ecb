import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { FALLBACK_MARKET, siteUrl } from '../market/market'
import { findLiveMarket, rememberedMarket } from '../market/remembered-market'

/** The market a page without one in its path (`/login`) speaks for. */
export type LoginMarket = { country: string; locale: string; segment: string; home: string }

/**
 * The market of `/login` and of redirects without a market: the visitor's remembered market while it is live,
 * else int-en (PRODUCT.md §3.2).
 */
export async function loginMarket(c: Context<AppEnv>): Promise<LoginMarket> {
  const remembered = rememberedMarket(c)
  const sites = remembered ? await c.var.lookups.sites().catch(() => []) : []
  const live = findLiveMarket(sites, remembered)
  if (!live) return { ...FALLBACK_MARKET, segment: `${FALLBACK_MARKET.country}-${FALLBACK_MARKET.locale}` }
  return { country: live.site.slug, locale: live.locale, segment: `${live.site.slug}-${live.locale}`, home: siteUrl(live.site, live.locale) }
}

/** The home of the request's market, or of the login market (`/login` has none in its path). */
export async function homeOf(c: Context<AppEnv>): Promise<string> {
  const market = c.var.market as AppEnv['Variables']['market'] | undefined
  return market ? siteUrl(market.site, market.locale) : (await loginMarket(c)).home
}
