import { assets } from './assets'

/**
 * The `<link rel="modulepreload">` of the modules a page's islands use (the hydration runtime once, then each
 * island's chunk): a page without an island preloads none of them and loads only the entry.
 */
export function islandPreloads(islands: readonly string[]): string {
  const modules = new Set(islands.flatMap((name) => assets.islands[name]?.modules ?? []))
  return [...modules].map((href) => `<link rel="modulepreload" href="${href}"/>`).join('')
}
