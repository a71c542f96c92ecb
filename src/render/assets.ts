import manifest from './asset-manifest.json'

/** The client build's files (written by scripts/build-client.mjs): hashed, so each deployment's pages load its own. */
export type AssetManifest = {
  /** The build's id: the Worker's sources and the client's files (the page cache's keys hold it). */
  build: string
  /** The browser entry, loaded as a module by every page that has islands. */
  entry: string
  /** Chunks the entry imports statically: preloaded beside it. */
  preload: string[]
  /** The hydration runtime's modules (React's API, answered by Preact in the browser, and the islands' registry). */
  runtime: string[]
  /**
   * Each island's modules (the hydration runtime with React, its chunk and the chunks only it imports), preloaded by
   * the pages that have it, and the stylesheet's tokens its code names (its first paint's CSS keeps their rules).
   */
  islands: Record<string, { modules: string[]; tokens: string[] }>
  /** The site's stylesheet. */
  css: string
  /**
   * The site's stylesheet as rules in order, each with the at-rules around it (`w`), its text (`c`) and what a page
   * must carry for it to apply (`n`: per selector, its class and id tokens; null: always), for the first paint's CSS.
   */
  cssRules: CssRule[]
  /** Leaflet's stylesheet, for the pages with the dealer map. */
  mapCss: string
  /** The tracker loader (client/tracking.ts), for pages with trackers the visitor allowed. */
  tracking: string
  /** The brand typeface's file of each script (client/styles/fonts.css): a page preloads its language's one. */
  fonts: Record<FontScript, string>
}

/** One rule of the site's stylesheet (scripts/css-rules.mjs). */
export type CssRule = { w: string; c: string; n: string[][] | null }

/** The scripts the brand typeface has a file for, each preloaded by the pages that paint with it first. */
export type FontScript = 'latin' | 'greek' | 'hebrew' | 'arabic'

export const assets: AssetManifest = manifest
