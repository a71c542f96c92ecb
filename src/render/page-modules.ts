import { assets } from './assets'

/**
 * The islands a page's HTML marks (`data-island="…"`, src/components/island.tsx) that the client build knows, in
 * the order they first appear.
 */
export function islandsOf(html: string): string[] {
  const names = new Set<string>()
  for (const [, name] of html.matchAll(/\sdata-island="([\w-]+)"/g)) if (name && name in assets.islands) names.add(name)
  return [...names]
}

/**
 * The `<link rel="modulepreload">` of the modules a page's islands use (the hydration runtime once, then each
 * island's chunk): a page without an island preloads none of them and loads only the entry.
 */
export function islandPreloads(islands: readonly string[]): string {
  const modules = new Set(islands.flatMap((name) => assets.islands[name]?.modules ?? []))
  return [...modules].map((href) => `<link rel="modulepreload" href="${href}"/>`).join('')
}
