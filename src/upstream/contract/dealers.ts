import { logEvent } from '../../ops/log'
import type { ReadOptions, Upstream } from '../client'
import {
  type Dealer,
  type DealerService,
  dealerAnswer,
  dealersAnswer,
  placeAnswer,
} from '../../../contract/catalogue-schemas'
import type { Point } from '../../../contract/distance'
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
  /**
   * Every dealer of the market (at most 500), all pages of `GET api/front/dealers`: for the lists that name them all
   * (the test ride's and the pick-up's choice, the search's suggestions); the locator, the product page and a
   * dealer's page ask for the nearest or one (docs/decisions/070).
   */
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
  /**
   * The `count` dealers nearest to a point that offer every service asked for, nearest first with their distance:
   * `GET api/front/dealers?lat=&lng=&services=&per_page=` (the API reads the cells around the point, not the
   * market). An empty list when the API has none.
   */
  async nearest(
    point: Point,
    services: readonly DealerService[],
    count: number,
    options?: ReadOptions,
  ): Promise<Array<Dealer & { distance_km: number }>> {
    const answer = await client.get(
      `front/dealers${query({
        lat: point.lat.toFixed(6),
        lng: point.lng.toFixed(6),
        services: services.length ? services.join(',') : undefined,
        per_page: count,
      })}`,
      dealersAnswer,
      options,
    )
    return (answer?.data ?? []).map((dealer) => ({ ...dealer, distance_km: dealer.distance_km ?? 0 }))
  },
  /** `GET api/front/dealers/{slug}`: one dealer of the market, or null. */
  one: (slug: string, options?: ReadOptions) =>
    dataOf(client.get(`front/dealers/${encodeURIComponent(slug)}`, dealerAnswer, options)),
  /** `GET api/front/places?q=`: a town or postcode of the market, or null. */
  place: (words: string, options?: ReadOptions) =>
    dataOf(client.get(`front/places${query({ q: words })}`, placeAnswer, options)),
})
