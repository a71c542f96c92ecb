import type { ComponentType } from 'react'
import { type IslandName, IslandNames } from './names'

// biome-ignore lint: islands take their own props
type AnyComponent = ComponentType<any>

/**
 * How the browser gets each island's component: dynamic imports, built into chunks of their own and fetched only on
 * pages that have them, which preload them (src/render/page-modules.ts) (the dealer map with Leaflet; the locator's "use my position"; the test
 * ride's opening days; the whistleblower receipt's print button; the buy box). The islands without a framework
 * are in ./plain.ts.
 */
export const islands: Partial<Record<IslandName, () => Promise<AnyComponent>>> = {
  [IslandNames.dealerMap]: () => import('./dealer-map').then((module) => module.default),
  [IslandNames.locateButton]: () => import('./locate-button').then((module) => module.default),
  [IslandNames.testRideDays]: () => import('./test-ride-days').then((module) => module.default),
  [IslandNames.printButton]: () => import('./print-button').then((module) => module.default),
  [IslandNames.addToCart]: () => import('./add-to-cart').then((module) => module.default),
}
