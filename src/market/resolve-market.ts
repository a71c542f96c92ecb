import type { MiddlewareHandler } from 'hono'
import type { MarketEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { loadTranslator } from '../i18n/load-translator'
import { isLive, parseMarketSegment, toMarket } from './market'
import { availableFor } from './request-availability'

/**
 * Resolves `/{country}-{locale}` before anything renders (PRODUCT.md §3.4–5): 404 "(no-country)" and "(no-locale)",
 * 503 maintenance when the site lookup answers 500/503 or the site is under maintenance (its whistleblower channel
 * excepted), 503 "temporarily unavailable" when it fails otherwise, 404 for a switched-off feature.
 * Sets `c.var.market`, `c.var.api` (the market's reads), `c.var.t` and `c.var.available`.
 *
 * @example
 * market.use(resolveMarket()) // the /:market sub-app's first middleware
 */
export const resolveMarket = (): MiddlewareHandler<MarketEnv> => async (c, next) => {
  const parsed = parseMarketSegment(c.req.path.split('/')[1])
  if (!parsed) throw PageError.notFound(ErrorMessages.noCountry)

  // A failed lookup with nothing cached: 500/503 is maintenance, any other failure "temporarily unavailable" (seed §8).
  const site = await c.get('lookups').site(parsed.country, parsed.locale).catch(PageError.fromSiteLookup)
  if (!site) throw PageError.notFound(ErrorMessages.noCountry)
  if (!site.locales.includes(parsed.locale)) throw PageError.notFound(ErrorMessages.noLocale)
  const market = toMarket(site, parsed.locale)
  c.set('market', market)
  c.get('log').market = market.segment
  // The whistleblower channel stays open while its market's pages are in maintenance (docs/decisions/015): the law
  // wants it reachable, and it needs nothing of the market's content.
  if (!isLive(site) && !c.get('noTrace')) throw PageError.maintenance()

  const api = c.get('lookups').forMarket(market)
  c.set('api', api)
  const [t, available] = await Promise.all([loadTranslator(api, c.get('log')), availableFor(c)])
  c.set('t', t)
  if (!available.allowsPath(c.req.path)) throw PageError.notFound(ErrorMessages.featureOff)
  await next()
}
