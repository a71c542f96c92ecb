import type { ReadOptions, Upstream } from '../client'
import { pageIndexAnswer } from '../../../contract/page-index-schemas'
import { dataOf } from './answers'

/**
 * The brand's page index: what has a page of its own, where, and since when (hreflang, sitemaps).
 *
 * @example
 * const index = await pageIndexCalls(upstream).index()
 */
export const pageIndexCalls = (client: Upstream) => ({
  /** `GET api/front/page-index`: the index, or null when the API has none. */
  index: (options?: ReadOptions) => dataOf(client.get('front/page-index', pageIndexAnswer, options)),
})
