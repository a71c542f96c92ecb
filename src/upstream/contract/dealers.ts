import { logEvent } from '../../ops/log'
import type { ReadOptions, Upstream } from '../client'
import { type Dealer, dealersAnswer, placeAnswer } from '../../../contract/catalogue-schemas'
import { dataOf, query } from './answers'

/** Dealers are read this many at a time (the contract's largest page)… */
const DEALERS_PER_PAGE = 50
/** …up to this many pages. */
const MAX_DEALER_PAGES = 10

/**
 * The market's dealers and the places a visitor may measure from.
 *
 * @example
 * const dealers = await dealerCalls(marketClient).all()
 */
export const dealerCalls = (client: Upstream) => ({
  /** Every dealer of the market, all pages of `GET api/front/dealers` (sorted and filtered at the edge). */
  async all(options?: ReadOptions): Promise<Dealer[] | null> {
    const dealers: Dealer[] = []
    for (let page = 1; page <= MAX_DEALER_PAGES; page++) {
      const answer = await client.get(
        `front/dealers${query({ page, per_page: DEALERS_PER_PAGE })}`,
        dealersAnswer,
        options,
      )
      if (!answer) return page === 1 ? null : dealers
      dealers.push(...answer.data)
      if (dealers.length >= answer.meta.total || answer.data.length === 0) return dealers
    }
    logEvent('warn', 'dealers_truncated', { count: dealers.length })
    return dealers
  },
  /** `GET api/front/places?q=`: a town or postcode of the market, or null. */
  place: (words: string, options?: ReadOptions) =>
    dataOf(client.get(`front/places${query({ q: words })}`, placeAnswer, options)),
})
