import type { ReadOptions, Upstream } from '../client'
import { featuresAnswer, siteAnswer, sitesAnswer } from '../../../contract/schemas'
import { dataOf, listOf, segment } from './answers'

/**
 * The brand-wide part of the contract: the markets' site records and the brand's features.
 *
 * @example
 * const site = await siteCalls(upstream.forMarket({ country: 'it', locale: 'it' })).site('it')
 */
export const siteCalls = (client: Upstream) => ({
  /** `GET api/sites/{country}`: one market's site, or null. */
  site: (country: string, options?: ReadOptions) =>
    dataOf(client.get(`sites/${segment(country)}`, siteAnswer, options)),
  /** `GET api/sites`: every market's site. */
  sites: (options?: ReadOptions) => listOf(client.get('sites', sitesAnswer, options)),
  /** `GET api/get-features`: the brand's features (on unless listed off). */
  features: (options?: ReadOptions) => listOf(client.get('get-features', featuresAnswer, options)),
})
