import type { Upstream } from '../client'
import { searchAnswer } from '../../../contract/catalogue-schemas'
import { pagedOf, query } from './answers'

/** What a search page asks for: which kinds, the visitor's words, and which page of how many results. */
export type SearchQuery = { type: 'all' | 'products' | 'news' | 'dealers'; q: string; page: number; perPage: number }

/**
 * Full-text search of the market in its language: never cached (the words are the visitor's).
 *
 * @example
 * const results = await searchCalls(marketClient).find({ type: 'all', q: 'gravel', page: 1, perPage: 10 })
 */
export const searchCalls = (client: Upstream) => ({
  /** `GET api/front/search?type=&q=&page=&per_page=`: ranked results with the total. */
  find: ({ type, q, page, perPage }: SearchQuery) =>
    pagedOf(client.get(`front/search${query({ type, q, page, per_page: perPage })}`, searchAnswer)),
})
