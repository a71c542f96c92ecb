import type { ComponentType } from 'react'
import MarketPicker from './market-picker'
import MobileMenu from './mobile-menu'
import { type IslandName, IslandNames } from './names'

// biome-ignore lint: islands take their own props
type AnyComponent = ComponentType<any>

/**
 * How the browser gets each island's component. Light islands on every page come with the entry; a heavy island
 * (the dealer map, the checkout) is a dynamic import, built into its own chunk and fetched only where it is used.
 */
export const islands: Record<IslandName, () => Promise<AnyComponent>> = {
  [IslandNames.marketPicker]: async () => MarketPicker,
  [IslandNames.mobileMenu]: async () => MobileMenu,
}
