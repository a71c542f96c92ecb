import type { ReadOptions, Upstream } from '../client'
import { pageIndexAnswer, pageIndexDealersAnswer } from '../../../contract/page-index-schemas'
import { dataOf, listOf, query } from './answers'

/**
 * The brand's page index: what has a page of its own, where, and since when (hreflang, sitemaps).
 *
 * @example
 * const index = await pageIndexCalls(upstream).index()
 */
export const pageIndexCalls = (client: Upstream) => ({
  /** `GET api/front/page-index`: the index, or null when the API has none. */
  index: (options?: ReadOptions) => dataOf(client.get('front/page-index', pageIndexAnswer, options)),
  /** `GET api/front/page-index/dealers?site=&part=`: the dealers of one sitemap part of a site (`dealer_parts`). */
  dealers: (site: string, part: number, options?: ReadOptions) =>
    listOf(client.get(`front/page-index/dealers${query({ site, part })}`, pageIndexDealersAnswer, options)),
})
