import type { Context } from 'hono'
import { redirectTarget } from '../auth/redirect-target'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { type IndexedThing, indexWith } from '../seo/alternates'
import { type PageGroup, type PagePlace, pageGroups, placesOf } from '../seo/page-groups'
import type { PageIndex } from '../../contract/page-index-schemas'
import type { Site } from '../../contract/schemas'
import { availabilityOf } from './availability'
import { siteUrl } from './market'

/**
 * Where a visitor who switches market from `from` (the page they were on: `/it-it/products/aurora-strada-9`) lands
 * in the picked market: the same page there when it exists (products where the market sells them, articles with
 * their translation, content pages at the market's own slug, listings, the news index, dealer pages in their
 * market), else the market's home. Where a page exists is what hreflang knows (seo/page-groups.ts, over the brand's
 * page index); the path is one the Worker makes, never the one posted, so no visitor-made URL is ever followed.
 */
export async function samePageIn(
  c: Context<AppEnv>,
  sites: Site[],
  from: string | null | undefined,
  picked: { site: Site; locale: string },
): Promise<string> {
  const home = siteUrl(picked.site, picked.locale)
  const path = redirectTarget(from)?.split(/[?#]/)[0]
  const [segment, ...rest] = (path ?? '').split('/').slice(1)
  if (!segment) return home
  const features = await c.var.lookups.features().catch(() => [])
  const places = placesOf(sites, availabilityOf(null, features))
  const here = places.find((place) => place.segment === segment)
  const there = places.find((place) => place.site.slug === picked.site.slug && place.locale === picked.locale)
  if (!here || !there) return home
  const group = await groupOfPath(c, places, here, rest.filter(Boolean))
  return group?.find((version) => version.place === there)?.path ?? home
}

/** The page a market's path (without its segment) stands for, as its group; null for pages without one. */
async function groupOfPath(
  c: Context<AppEnv>,
  places: PagePlace[],
  here: PagePlace,
  parts: string[],
): Promise<PageGroup | null> {
  const index = () =>
    c.var.lookups.pageIndex().catch((error: unknown) => {
      logEvent('warn', 'page_index_unavailable', { error: errorName(error) })
      return null
    })
  const withIndex = async (groupOf: (index: PageIndex) => PageGroup, thing?: IndexedThing) => {
    const found = await index()
    return found ? groupOf(await indexWith(c, found, here.site.slug, thing).catch(() => found)) : null
  }
  const [first, second, third, ...more] = parts
  if (more.length > 0) return null
  if (!first) return pageGroups.home(places, null)
  if (first === 'products') {
    if (!second) return withIndex((found) => pageGroups.products(places, found))
    if (second === 'type' && third) return withIndex((found) => pageGroups.productType(places, found, third))
    return third ? null : withIndex((found) => pageGroups.product(places, found, second), { product: second })
  }
  if (first === 'news') {
    if (!second) return pageGroups.newsIndex(places, null)
    return second === 'details' && third
      ? withIndex((found) => pageGroups.article(places, found, third, here), { article: third })
      : null
  }
  if (first === 'dealers')
    return second && !third ? withIndex((found) => pageGroups.dealer(places, found, second, here.site.slug)) : null
  const key = !second ? here.available.pageOf(first)?.key : undefined
  return key ? pageGroups.contentPage(places, null, key) : null
}
