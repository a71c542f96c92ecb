import { type PageAvailability, localePageLinks } from '../market/availability'
import { isLive, siteUrl } from '../market/market'
import type { PageIndex, PageIndexDealer } from '../../contract/page-index-schemas'
import type { Site } from '../../contract/schemas'

/** A live market of the brand, with the one availability rule made for it. */
export type PagePlace = { site: Site; locale: string; segment: string; available: PageAvailability }

/** One page in one market: its path and when it last changed (ISO time), when known. */
export type PageVersion = { place: PagePlace; path: string; lastmod: string | null }

/** The same page in every market where it exists: each version is the others' hreflang alternate. */
export type PageGroup = PageVersion[]

/** Content pages that are never indexed (the whistleblower channel). */
const UNINDEXED_PAGES = new Set(['whistleblower-form'])

/**
 * Every live market's locales, each with its availability made by the request's rule (`available.elsewhere`): the
 * markets under maintenance are not among them.
 */
export function placesOf(sites: readonly Site[], available: PageAvailability): PagePlace[] {
  return sites.filter(isLive).flatMap((site) =>
    site.locales.map((locale) => {
      const segment = `${site.slug}-${locale}`
      return { site, locale, segment, available: available.elsewhere({ site, segment }) }
    }),
  )
}

/** The newest of some ISO times (they compare as text), or null. */
const newest = (times: ReadonlyArray<string | null | undefined>): string | null =>
  times.reduce<string | null>((max, time) => (time && (!max || time > max) ? time : max), null)

type Article = PageIndex['news'][number]

/** The index's articles by slug and by story, made once per index (a sitemap asks for every article's group). */
const lookups = new WeakMap<PageIndex, { bySlug: Map<string, Article[]>; byStory: Map<string, Article[]> }>()
function articleLookup(index: PageIndex) {
  let found = lookups.get(index)
  if (!found) {
    const bySlug = new Map<string, Article[]>()
    const byStory = new Map<string, Article[]>()
    for (const article of index.news) {
      bySlug.set(article.slug, [...(bySlug.get(article.slug) ?? []), article])
      if (article.story) byStory.set(article.story, [...(byStory.get(article.story) ?? []), article])
    }
    found = { bySlug, byStory }
    lookups.set(index, found)
  }
  return found
}

/** Whether a market shows an article: one of its locale, for every market or for its site. */
const showsArticle = (place: PagePlace, article: Article) =>
  article.locale === place.locale && (article.scope === '*' || article.scope === place.site.slug)

/** The articles a market shows. */
const articlesIn = (index: PageIndex, place: PagePlace) => index.news.filter((article) => showsArticle(place, article))

const productsIn = (index: PageIndex, place: PagePlace) =>
  index.products.filter((product) => product.sites.includes(place.site.slug))

/**
 * Where each kind of public page exists (PRODUCT.md §5 SEO), as groups of versions: one rule for a page's hreflang
 * and for the sitemaps, so both always agree.
 */
export const pageGroups = {
  /** Market homes: every live market, at its site's URL. */
  home: (places: PagePlace[], index: PageIndex | null): PageGroup =>
    places.map((place) => ({
      place,
      path: siteUrl(place.site, place.locale),
      lastmod:
        index && newest([...productsIn(index, place), ...articlesIn(index, place)].map((item) => item.updated_at)),
    })),

  /** A content page (a pageLinks key) wherever the availability rule lets it be seen. */
  contentPage: (places: PagePlace[], index: PageIndex | null, key: string): PageGroup =>
    UNINDEXED_PAGES.has(key)
      ? []
      : places.flatMap((place) => {
          const path = place.available.pageUrl(key)
          if (!path) return []
          const written = index?.pages.filter((page) => page.key === key)
          const own =
            written?.find((page) => page.locale === place.locale) ?? written?.find((page) => page.locale === 'en')
          const dealers = key === 'dealer-locator' && index ? dealerTimes(index, place.site.slug) : []
          return [{ place, path, lastmod: newest([own?.updated_at, ...dealers]) }]
        }),

  /** The listing of every product, in the markets that sell any (where the catalogue is served). */
  products: (places: PagePlace[], index: PageIndex): PageGroup =>
    withPage(places, 'products').flatMap((place) => {
      const sold = productsIn(index, place)
      return sold.length
        ? [{ place, path: `/${place.segment}/products`, lastmod: newest(sold.map((p) => p.updated_at)) }]
        : []
    }),

  /** The listing of one product type, in the markets that sell one of its products. */
  productType: (places: PagePlace[], index: PageIndex, type: string): PageGroup =>
    withPage(places, 'products').flatMap((place) => {
      const sold = productsIn(index, place).filter((product) => product.type === type)
      return sold.length
        ? [{ place, path: `/${place.segment}/products/type/${type}`, lastmod: newest(sold.map((p) => p.updated_at)) }]
        : []
    }),

  /** A product, in the markets that sell it. */
  product: (places: PagePlace[], index: PageIndex, slug: string): PageGroup =>
    productGroup(
      places,
      index.products.find((p) => p.slug === slug),
    ),

  /** The news index: every live market has one, where the news is served. */
  newsIndex: (places: PagePlace[], index: PageIndex | null): PageGroup =>
    withPage(places, 'news').map((place) => ({
      place,
      path: `/${place.segment}/news`,
      lastmod: index && newest(articlesIn(index, place).map((a) => a.updated_at)),
    })),

  /**
   * An article, found by its slug in a market, and its translations (the articles of its story) in every market that
   * shows them. Where a market shows two articles of the story in its locale, its own (scoped) one counts.
   */
  article: (places: PagePlace[], index: PageIndex, slug: string, where: PagePlace): PageGroup => {
    const { bySlug, byStory } = articleLookup(index)
    const shown = (bySlug.get(slug) ?? []).filter((article) => showsArticle(where, article))
    const article = shown.find((a) => a.scope !== '*') ?? shown[0]
    if (!article) return []
    const story = article.story ? (byStory.get(article.story) ?? []) : [article]
    return withPage(places, 'news').flatMap((place) => {
      const told = story.filter((a) => showsArticle(place, a))
      const version = told.find((a) => a.scope !== '*') ?? told[0]
      return version
        ? [{ place, path: `/${place.segment}/news/details/${version.slug}`, lastmod: version.updated_at ?? null }]
        : []
    })
  },

  /**
   * A dealer's page, in each locale of its market (`site`, the market whose page it is), where dealer pages are on.
   * An index that lists its dealers must list this one; one that counts them in parts leaves the page to say whether
   * it exists (decision 070).
   */
  dealer: (places: PagePlace[], index: PageIndex, slug: string, site: string): PageGroup =>
    dealerGroup(
      places,
      index.dealers.find((d) => d.slug === slug) ??
        (index.dealers.length === 0 ? { slug, site, updated_at: null } : undefined),
    ),
}

/** The places where the availability rule lets a section be seen (`news`, `products`). */
const withPage = (places: PagePlace[], page: string) => places.filter((place) => place.available.has(page))

function productGroup(places: PagePlace[], product: PageIndex['products'][number] | undefined): PageGroup {
  if (!product) return []
  return places
    .filter((place) => product.sites.includes(place.site.slug))
    .map((place) => ({
      place,
      path: `/${place.segment}/products/${product.slug}`,
      lastmod: product.updated_at ?? null,
    }))
}

/** When a site's dealers last changed: each listed dealer's time, or each of its sitemap parts'. */
const dealerTimes = (index: PageIndex, site: string) => [
  ...index.dealers.filter((dealer) => dealer.site === site).map((dealer) => dealer.updated_at),
  ...index.dealer_parts.filter((part) => part.site === site).map((part) => part.lastmod),
]

/** A dealer's page in each locale of its site, where dealer pages are on. */
export function dealerGroup(places: PagePlace[], dealer: PageIndexDealer | undefined): PageGroup {
  if (!dealer) return []
  return places
    .filter((place) => place.site.slug === dealer.site && place.available.has('dealer-pages'))
    .map((place) => ({ place, path: `/${place.segment}/dealers/${dealer.slug}`, lastmod: dealer.updated_at ?? null }))
}

/**
 * Every indexable page of the brand, as groups: homes, content pages, listings, products, the news index, articles
 * and dealer pages (never search, account, checkout, login or the whistleblower channel). What the sitemaps list.
 */
export function allPageGroups(places: PagePlace[], index: PageIndex | null): PageGroup[] {
  const groups: PageGroup[] = [pageGroups.home(places, index), pageGroups.newsIndex(places, index)]
  const keys = new Set(places.flatMap((place) => localePageLinks(place.site, place.locale).map((link) => link.key)))
  for (const key of keys) groups.push(pageGroups.contentPage(places, index, key))
  if (index) {
    groups.push(pageGroups.products(places, index))
    for (const type of new Set(index.products.map((product) => product.type)))
      groups.push(pageGroups.productType(places, index, type))
    for (const product of index.products) groups.push(productGroup(places, product))
    const told = new Set<string>()
    for (const article of index.news) {
      if (article.story && told.has(article.story)) continue
      // Found from a market that shows it (none when every such market is under maintenance).
      const where = places.find((place) => showsArticle(place, article))
      const group = where ? pageGroups.article(places, index, article.slug, where) : []
      if (group.length === 0) continue
      if (article.story) told.add(article.story)
      groups.push(group)
    }
    for (const dealer of index.dealers) groups.push(dealerGroup(places, dealer))
  }
  return groups.filter((group) => group.length > 0)
}
