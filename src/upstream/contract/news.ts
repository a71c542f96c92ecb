import type { ReadOptions, Upstream } from '../client'
import { newsArticleAnswer } from '../../../contract/catalogue-schemas'
import { newsListAnswer } from '../../../contract/schemas'
import { dataOf, listOf, pagedOf, query, segment } from './answers'

/**
 * The market's news: the latest articles, the index a page at a time, and one article by slug or id.
 *
 * @example
 * const latest = await newsCalls(marketClient).latest(3)
 */
export const newsCalls = (client: Upstream) => ({
  /** `GET api/front/news?per_page=N`: the newest articles. */
  latest: (count: number, options?: ReadOptions) =>
    listOf(client.get(`front/news${query({ per_page: count })}`, newsListAnswer, options)),
  /** `GET api/front/news?page=&per_page=`: a page of the index, with the total. */
  page: (page: number, perPage: number, options?: ReadOptions) =>
    pagedOf(client.get(`front/news${query({ page, per_page: perPage })}`, newsListAnswer, options)),
  /** `GET api/front/news/{slug}`: an article, or null. */
  article: (slug: string, options?: ReadOptions) =>
    dataOf(client.get(`front/news/${segment(slug)}`, newsArticleAnswer, options)),
  /** `GET api/front/news/id/{id}`: an article by its permalink's id, or null. */
  articleById: (id: number, options?: ReadOptions) =>
    dataOf(client.get(`front/news/id/${segment(id)}`, newsArticleAnswer, options)),
})
