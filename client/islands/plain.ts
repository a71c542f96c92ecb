import { IslandNames } from './names'

/** A plain island's chunk: it starts on its marker with the props the server gave, no framework. */
export type PlainIsland = { enhance(marker: HTMLElement, props: Record<string, unknown>): void }

/**
 * The islands that need no framework, by name: the entry starts them from their own chunks, and a page that has only
 * these loads no React (the listings' filters, a plain GET form until then).
 */
export const plainIslands: Record<string, (() => Promise<PlainIsland>) | undefined> = {
  [IslandNames.listingUpdates]: () => import('./listing-updates'),
}
