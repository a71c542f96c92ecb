import type { Config } from '../config'
import { shortHash } from '../crypto/short-hash'
import { assets } from '../render/assets'
import { type ConsentState, consentValue } from '../tracking/consent'
import type { Candidate } from './cacheable'

/** The variant of a visitor who has not chosen (and sends no `Sec-GPC`): the only one shared caches may keep. */
export const DEFAULT_VARIANT = 'unset'

/** What a page depends on besides its URL: the visitor's stored consent choice and `Sec-GPC` (banner, trackers). */
export function variantOf({ consent, gpc }: ConsentState): string {
  const choice = consent ? consentValue(consent) : DEFAULT_VARIANT
  return gpc ? `${choice}-gpc` : choice
}

/**
 * A page's key: the build and the deployment's settings (the upstream's fingerprint among them), the market's and the brand's page versions, the variant,
 * the path and what it reads.
 *
 * @example
 * pageKeyOf(config, '0.0', 'unset', { path: '/it-it/products', query: 'sort=price-asc' })
 */
export const pageKeyOf = (config: Config, version: string, variant: string, { path, query }: Candidate) =>
  `https://page-cache.internal/${BUILD}.${settingsOf(config)}/${version}/${variant}${path}${query ? `?${query}` : ''}`

/** The build (a deployment never answers pages another kept). */
const BUILD = assets.build

/**
 * The deployment's settings in a few characters (a short hash of the configuration): a changed variable (the public
 * origin, a tag-manager fallback, image resizing, `UPSTREAM_URL`) is a new deployment of the same build, whose pages
 * differ.
 */
const settings = new WeakMap<object, string>()
function settingsOf(config: Config): string {
  let known = settings.get(config)
  if (known === undefined) {
    known = shortHash(JSON.stringify(config))
    settings.set(config, known)
  }
  return known
}
