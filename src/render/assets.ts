import manifest from './asset-manifest.json'

/** The client build's files (written by scripts/build-client.mjs): hashed, so each deployment's pages load its own. */
export type AssetManifest = {
  /** The build's id: the Worker's sources and the client's files (the page cache's keys hold it). */
  build: string
  /** The browser entry, loaded as a module by every page that has islands. */
  entry: string
  /** Chunks the entry imports statically: preloaded beside it. */
  preload: string[]
  /** The site's stylesheet. */
  css: string
  /** Leaflet's stylesheet, for the pages with the dealer map. */
  mapCss: string
  /** The tracker loader (client/tracking.ts), for pages with trackers the visitor allowed. */
  tracking: string
  /** The brand typeface's file of each script (client/styles/fonts.css): a page preloads its language's one. */
  fonts: Record<FontScript, string>
}

/** The scripts the brand typeface has a file for, each preloaded by the pages that paint with it first. */
export type FontScript = 'latin' | 'greek' | 'hebrew' | 'arabic'

export const assets: AssetManifest = manifest
