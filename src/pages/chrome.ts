import type { Context } from 'hono'
import type { Lookups } from '../cache/lookups'
import type { Chrome, View } from '../components/view'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import type { Market } from '../market/market'
import { viewOf } from '../render/respond'

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
export function isFeatureOn(chrome: Chrome, key: string): boolean {
  return chrome.features.find((feature) => feature.key === key)?.enabled ?? true
}

/** What a slug in a URL may look like (products, articles, dealers): anything else is not looked up at all. */
const SLUG = /^[a-z0-9-]{1,120}$/

/**
 * The page of one thing found by the slug in its URL (a product, an article, a dealer): the thing and the layout's
 * chrome, loaded together, and the page's view. A malformed or unknown slug is "Page Not Found".
 */
export async function findBySlug<T>(
  c: Context<AppEnv>,
  find: (slug: string) => Promise<T | null>,
): Promise<{ found: T; chrome: Chrome; view: View }> {
  const { market, lookups, t } = c.var
  const slug = c.req.param('slug') ?? ''
  const [found, chrome] = await Promise.all([SLUG.test(slug) ? find(slug) : null, loadChrome(lookups, market)])
  if (!found) throw PageError.pageNotFound(c.req.url)
  return { found, chrome, view: viewOf(c, t, market) }
}
