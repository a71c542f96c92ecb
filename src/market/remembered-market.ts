import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { Site } from '../../contract/schemas'
import { isLive, parseMarketSegment } from './market'

/** The cookie of the market a visitor picked; set only by an explicit pick, so public pages stay cacheable. */
export const MARKET_COOKIE = 'CountryLocale'

const ONE_YEAR = 365 * 24 * 3600

/** The remembered market segment, if the cookie holds a well-formed one. */
export function rememberedMarket(c: Context): string | null {
  const value = getCookie(c, MARKET_COOKIE)
  return value && parseMarketSegment(value) ? value : null
}

/** Remembers the market a visitor picked, for a year (HttpOnly, Secure, SameSite=Lax). */
export function rememberMarket(c: Context, segment: string): void {
  setCookie(c, MARKET_COOKIE, segment, { path: '/', maxAge: ONE_YEAR, httpOnly: true, secure: true, sameSite: 'Lax' })
}

/** Forgets the remembered market (a market under maintenance). */
export function forgetMarket(c: Context): void {
  deleteCookie(c, MARKET_COOKIE, { path: '/', secure: true })
}

/** The live site and locale of a market segment among all sites, or null. */
export function findLiveMarket(
  sites: Site[],
  segment: string | null | undefined,
): { site: Site; locale: string } | null {
  const parsed = parseMarketSegment(segment ?? undefined)
  const site = parsed && sites.find((s) => s.slug === parsed.country)
  return parsed && site && isLive(site) && site.locales.includes(parsed.locale) ? { site, locale: parsed.locale } : null
}
