import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { CONSENT_CATEGORIES, CONSENT_PATH, type ConsentCategory, consentOf } from './consent'

/**
 * The dealers' map's street tiles for one answer (docs/decisions/064-before-consent.md): a third-party tile server
 * sees every visitor who loads its tiles, so a page asks for them only once the visitor allowed functional content;
 * before that the map shows the dealers' markers alone with a "show the street map" choice, which allows it.
 */
export type MapTiles =
  /** The tile URL template the map loads, and its origin for the page's CSP. */
  | { allowed: true; url: string; origin: string }
  /**
   * A tile server is configured, the visitor has not allowed it: the map asks (`MapTilesChoice`), unless the browser
   * sends Global Privacy Control, which no stored choice overrides (then it only says why there is no street map).
   */
  | { allowed: false; choice: MapTilesChoice | null }

/** What the map's "show the street map" form posts to the consent form: the visitor's choice with functional on. */
export type MapTilesChoice = { action: string; returnPath: string; allowed: ConsentCategory[] }

/**
 * The map's tiles as this visitor may have them, or null where no tile server is configured (markers only).
 *
 * @example
 * const tiles = mapTilesOf(c) // { allowed: false, choice } before consent
 */
export function mapTilesOf<E extends AppEnv>(c: Context<E>): MapTiles | null {
  const tiles = configOf(c.env).mapTiles
  if (!tiles) return null
  const { consent, gpc } = consentOf(c)
  if (consent?.functional) return { allowed: true, url: tiles.url, origin: tiles.origin }
  if (gpc) return { allowed: false, choice: null }
  const url = new URL(c.req.url)
  url.searchParams.delete('notice')
  const kept = CONSENT_CATEGORIES.filter((category) => consent?.[category])
  return {
    allowed: false,
    choice: { action: CONSENT_PATH, returnPath: url.pathname + url.search, allowed: [...kept, 'functional'] },
  }
}
