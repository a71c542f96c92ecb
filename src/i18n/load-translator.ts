import type { MarketApi } from '../cache/lookups'
import { errorName, logEvent } from '../ops/log'
import type { RequestLog } from '../ops/request-log'
import { createTranslator, type Translator } from './translator'

/**
 * The translator of a market, from its cached texts. When the texts cannot be had at all, the page still renders in
 * the Worker's own English rather than failing, and the fallback is logged (once per request line, when given one).
 */
export async function loadTranslator(api: MarketApi, log?: RequestLog): Promise<Translator> {
  const { country, locale } = api.market
  const messages = await api.content.messages().catch((error: unknown) => {
    if (log && !log.firstTime('translations_unavailable')) return null
    logEvent('warn', 'translations_unavailable', { market: `${country}-${locale}`, error: errorName(error) })
    return null
  })
  return createTranslator(locale, messages)
}
