import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { MarketEnv } from '../env'
import { suggestionIndexOf } from '../search/suggestion-index'

/**
 * `GET /{m}/search/suggestions.json`: the market's suggestion index for the header's search box (the lazy island
 * `client/islands/search-suggestions.tsx` filters it as the visitor types): products with picture and price in the
 * market's currency and format, articles, dealers and pages, in the market's language. The same for every visitor,
 * kept by shared caches for an hour; its parts come from the market's KV-cached lookups.
 */
export async function searchSuggestions(c: Context<MarketEnv>): Promise<Response> {
  const entries = (await suggestionIndexOf(c)).map(({ kind, title, url, image, detail }) => ({
    kind,
    title,
    url,
    image,
    detail,
  }))
  c.var.caching.allow(Caching.hour)
  return c.json({ market: c.var.market.segment, entries })
}
