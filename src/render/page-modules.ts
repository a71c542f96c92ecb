import { assets } from './assets'

/**
 * The islands whose own chunk the hydration runtime fetches once it runs instead of the page preloading it: the dealer
 * map (Leaflet, 43 KiB gzip), which would otherwise share a phone's first bandwidth with the font and the page before
 * its largest paint; the map's panel keeps its place meanwhile (docs/decisions/080).
 */
const FETCHED_ONCE_RUNNING: ReadonlySet<string> = new Set(['dealer-map'])

/**
 * The `<link rel="modulepreload">` of the modules a page's islands use (the hydration runtime once, then each
 * island's chunk but the dealer map's): a page without an island preloads none of them and loads only the entry.
 */
export function islandPreloads(islands: readonly string[]): string {
  const modules = new Set(
    islands.flatMap((name) =>
      FETCHED_ONCE_RUNNING.has(name) ? assets.runtime : (assets.islands[name]?.modules ?? []),
    ),
  )
  return [...modules].map((href) => `<link rel="modulepreload" href="${href}"/>`).join('')
}
