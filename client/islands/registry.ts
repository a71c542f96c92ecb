import type { ComponentType } from 'react'
import MobileMenu from './mobile-menu'
import { type IslandName, IslandNames } from './names'

// biome-ignore lint: islands take their own props
type AnyComponent = ComponentType<any>

/**
 * How the browser gets each island's component. The mobile menu, needed at once on a phone, comes with the entry;
 * the others are dynamic imports, built into chunks of their own and fetched only on pages that have them (the market
 * picker, which works as a plain form until then; the dealer map with Leaflet; the locator's "use my position"; the test
 * ride's opening days; the whistleblower receipt's print button; the buy box; the listings' filters, a plain GET form
 * until then).
 */
export const islands: Record<IslandName, () => Promise<AnyComponent>> = {
  [IslandNames.marketPicker]: () => import('./market-picker').then((module) => module.default),
  [IslandNames.mobileMenu]: async () => MobileMenu,
  [IslandNames.dealerMap]: () => import('./dealer-map').then((module) => module.default),
  [IslandNames.locateButton]: () => import('./locate-button').then((module) => module.default),
  [IslandNames.testRideDays]: () => import('./test-ride-days').then((module) => module.default),
  [IslandNames.printButton]: () => import('./print-button').then((module) => module.default),
  [IslandNames.addToCart]: () => import('./add-to-cart').then((module) => module.default),
  [IslandNames.listingUpdates]: () => import('./listing-updates').then((module) => module.default),
}
