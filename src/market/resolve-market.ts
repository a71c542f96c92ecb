import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { loadTranslator } from '../i18n/load-translator'
import { ErrorMessages, PageError } from '../errors/page-error'
import { isSwitchedOff } from './feature-switches'
import { isLive, parseMarketSegment, toMarket } from './market'

/**
 * Resolves `/{country}-{locale}` before anything renders (PRODUCT.md §3.4–5): 404 "(no-country)" and "(no-locale)",
 * 503 maintenance when the site lookup fails or the site is under maintenance, 404 for a switched-off feature.
 * Sets `c.var.market` and `c.var.t`.
 *
 * @example
 * app.use('*', resolveMarket()) // after the Worker's own paths
 */
export const resolveMarket = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const segment = c.req.path.split('/')[1]
  const parsed = parseMarketSegment(segment)
  if (!parsed) throw PageError.notFound(ErrorMessages.noCountry)

  // A failed lookup with nothing cached throws UpstreamError: the app answers it as maintenance (503).
  const site = await c.var.lookups.site(parsed.country, parsed.locale)
  if (!site) throw PageError.notFound(ErrorMessages.noCountry)
  if (!site.locales.includes(parsed.locale)) throw PageError.notFound(ErrorMessages.noLocale)
  const market = toMarket(site, parsed.locale)
  c.set('market', market)
  c.var.log.market = market.segment
  if (!isLive(site)) throw PageError.maintenance()

  c.set('t', await loadTranslator(c.var.lookups, market.country, market.locale))
  if (isSwitchedOff(site, c.req.path)) throw PageError.notFound(ErrorMessages.featureOff)
  await next()
}
