import type { ReadOptions, Upstream } from '../client'
import {
  pageIndexAnswer,
  pageIndexDealersAnswer,
  pageIndexNewsAnswer,
  pageIndexProductsAnswer,
} from '../../../contract/page-index-schemas'
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
  /** `GET api/front/page-index/products?site=&part=`: the products of one sitemap part of a site (`product_parts`). */
  products: (site: string, part: number, options?: ReadOptions) =>
    listOf(client.get(`front/page-index/products${query({ site, part })}`, pageIndexProductsAnswer, options)),
  /** `GET api/front/page-index/news?locale=&site=&part=`: one part's articles a market shows, with their stories'. */
  news: (site: string, locale: string, part: number, options?: ReadOptions) =>
    listOf(client.get(`front/page-index/news${query({ locale, site, part })}`, pageIndexNewsAnswer, options)),
  /** `GET api/front/page-index/products/{slug}`: one product's entry (none when unknown). */
  product: (slug: string, options?: ReadOptions) =>
    listOf(client.get(`front/page-index/products/${encodeURIComponent(slug)}`, pageIndexProductsAnswer, options)),
  /** `GET api/front/page-index/news/{slug}`: the articles of a slug and of their stories. */
  article: (slug: string, options?: ReadOptions) =>
    listOf(client.get(`front/page-index/news/${encodeURIComponent(slug)}`, pageIndexNewsAnswer, options)),
})
