import type { ReadOptions, Upstream } from '../client'
import { featureListAnswer } from '../readers/features'
import { siteListAnswer, siteRecordAnswer } from '../readers/site-records'
import { dataOf, listOf, segment } from './answers'

/**
 * The brand-wide part of the contract: the markets' site records and the brand's features, read in the contract's
 * shape or the original's (src/upstream/readers/).
 *
 * @example
 * const site = await siteCalls(upstream.forMarket({ country: 'it', locale: 'it' })).site('it')
 */
export const siteCalls = (client: Upstream) => ({
  /** `GET api/sites/{country}`: one market's site, or null. */
  site: (country: string, options?: ReadOptions) =>
    dataOf(client.get(`sites/${segment(country)}`, siteRecordAnswer, options)),
  /** `GET api/sites`: every market's site it can read (a record it cannot is dropped and logged). */
  sites: (options?: ReadOptions) => listOf(client.get('sites', siteListAnswer, options)),
  /** `GET api/get-features`: the brand's features the site knows (on unless listed off), by its own keys. */
  features: (options?: ReadOptions) => listOf(client.get('get-features', featureListAnswer, options)),
})
