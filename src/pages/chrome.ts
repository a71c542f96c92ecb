import type { Lookups } from '../cache/lookups'
import type { Chrome } from '../components/view'
import type { Market } from '../market/market'

/**
 * Loads what the default layout shows around every page: the sites (market picker), the product menu and types and
 * the brand's features. None may fail a page: without them the header simply shows less.
 */
export async function loadChrome(lookups: Lookups, market: Market | null): Promise<Chrome> {
  const [sites, productMenu, productTypes, features] = await Promise.all([
    lookups.sites().catch(() => null),
    market ? lookups.productMenu(market.country, market.locale).catch(() => null) : null,
    market ? lookups.productTypes(market.country, market.locale).catch(() => null) : null,
    lookups.features().catch(() => null),
  ])
  return { sites: sites ?? [], productMenu: productMenu ?? [], productTypes: productTypes ?? [], features: features ?? [] }
}

/** Whether a brand-wide feature (`api/get-features`) is on; one the list does not name, or an unknown list, is on. */
export function isFeatureOn(chrome: Pick<Chrome, 'features'>, key: string): boolean {
  return chrome.features.find((feature) => feature.key === key)?.enabled ?? true
}

/** Content pages that belong to a brand-wide feature: switched off with it, they leave menus too. */
const FEATURE_OF_PAGE: Record<string, string> = { 'dealer-locator': 'dealer_locator' }

/** Whether a content page (a pageLinks key) is shown in the menus, as far as the brand's features go. */
export function isPageShown(chrome: Chrome, pageKey: string): boolean {
  const feature = FEATURE_OF_PAGE[pageKey]
  return feature === undefined || isFeatureOn(chrome, feature)
}
