import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv, MarketEnv } from '../env'
import { languageTag } from '../i18n/formats'
import { errorName, logEvent } from '../ops/log'
import type { PageIndex } from '../../contract/page-index-schemas'
import { type PageAvailability, availabilityOf } from '../market/availability'
import type { Feature, Site } from '../../contract/schemas'
import { type PageGroup, type PagePlace, pageGroups, placesOf, withEntries } from './page-groups'

export type Alternate = { hreflang: string; href: string }

/** The hreflang of a market: its BCP 47 tag (`de-CH`), the locale alone for the international site (`en`). */
export const hreflangOf = (site: Site, locale: string): string =>
  site.slug === 'int' ? locale : languageTag(site.slug, locale)

/**
 * The hreflang alternates of a page from its group (page-groups.ts): one absolute URL per market where it exists, the
 * page itself among them, plus `x-default` → `/`. None without a public origin, and none for a page that exists in
 * no market (the group is empty: an index that does not know it yet).
 */
export function alternatesOf(group: PageGroup, origin: string | null): Alternate[] {
  if (!origin || group.length === 0) return []
  const links = group.map(({ place, path }) => ({
    hreflang: hreflangOf(place.site, place.locale),
    href: origin + path,
  }))
  const unique = [...new Map(links.map((link) => [link.hreflang, link])).values()]
  return [...unique, { hreflang: 'x-default', href: `${origin}/` }]
}

/**
 * hreflang alternates of a market home: every live market's, plus `x-default` → `/`; none without a public origin.
 * Made once per sites list (the lookup's, kept in the isolate's memo) and origin, and shared: never changed by a caller.
 */
export function homeAlternates(sites: readonly Site[], origin: string | null): Alternate[] {
  const byOrigin = homesMade.get(sites) ?? new Map<string | null, Alternate[]>()
  homesMade.set(sites, byOrigin)
  let alternates = byOrigin.get(origin)
  if (alternates === undefined) {
    // Homes belong to no switchable section: the brand's features do not matter to them.
    alternates = alternatesOf(pageGroups.home(placesOf(sites, availabilityOf(null, NO_FEATURES)), null), origin)
    byOrigin.set(origin, alternates)
  }
  return alternates
}

/** The homes' alternates made in this isolate, by the sites list and the origin they were made from. */
const homesMade = new WeakMap<readonly Site[], Map<string | null, Alternate[]>>()
/** No feature named: one list, so the availabilities decided from it are kept (they are by the features' list). */
const NO_FEATURES: readonly Feature[] = []

/**
 * hreflang alternates of a content page (a pageLinks key) across the live markets where it is available, by the one
 * availability rule, plus `x-default` → `/`; none without a public origin.
 */
export function pageAlternates(
  sites: Site[],
  available: PageAvailability,
  key: string,
  origin: string | null,
): Alternate[] {
  return alternatesOf(pageGroups.contentPage(placesOf(sites, available), null, key), origin)
}

/** A product or an article: a page whose versions the index may list by themselves only (decision 071). */
export type IndexedThing = { product: string } | { article: string }

/**
 * The page index with a product's or an article's own entries: an index that pages them (the embedded API's
 * `product_parts`, `news_parts`) lists none, so they are read by themselves (`api/front/page-index/products/{slug}`,
 * `…/news/{slug}`: one product, an article's slug and its story's articles), cached with the market `site`'s reads.
 * An index that lists them all is used as it is.
 */
export async function indexWith<E extends AppEnv>(
  c: Context<E>,
  index: PageIndex,
  site: string,
  thing: IndexedThing | undefined,
): Promise<PageIndex> {
  if (!thing) return index
  if ('product' in thing)
    return index.products.length > 0
      ? index
      : withEntries(index, { products: await c.get('lookups').pageIndexProduct(site, thing.product) })
  return index.news.length > 0
    ? index
    : withEntries(index, { news: await c.get('lookups').pageIndexArticle(site, thing.article) })
}

/** Where a page exists, from the live markets, the brand's page index and the request's own market. */
export type GroupOf = (places: PagePlace[], index: PageIndex, here: PagePlace) => PageGroup

/**
 * The hreflang alternates of a page of the request's market whose versions the brand's page index knows (products,
 * listings, articles, dealers; a product or an article named by `thing` read by itself). Without the index (the API failed and nothing is cached) the page has none, and says
 * so in the log: a page never fails for its alternates.
 *
 * @example
 * alternates: await indexedAlternates(c, chrome.sites, (places, index) => pageGroups.product(places, index, slug))
 */
export async function indexedAlternates(
  c: Context<MarketEnv>,
  sites: Site[],
  groupOf: GroupOf,
  thing?: IndexedThing,
): Promise<Alternate[]> {
  const origin = configOf(c.env).publicOrigin
  if (!origin) return []
  const index = await c
    .get('lookups')
    .pageIndex()
    .then((found) => found && indexWith(c, found, c.get('market').site.slug, thing))
    .catch((error: unknown) => {
      logEvent('warn', 'page_index_unavailable', { error: errorName(error) })
      return null
    })
  const places = placesOf(sites, c.get('available'))
  const here = places.find((place) => place.segment === c.get('market').segment)
  return index && here ? alternatesOf(groupOf(places, index, here), origin) : []
}
