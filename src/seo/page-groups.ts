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

/**
 * Whether an article is the one a market shows of its story (or its slug): the market's own (scoped) before the one
 * for every market. What a sitemap part lists, so a story is listed once per market.
 */
export function isShownVersion(index: PageIndex, place: PagePlace, article: Article): boolean {
  if (!showsArticle(place, article)) return false
  const { bySlug, byStory } = articleLookup(index)
  const told = (article.story ? byStory.get(article.story) : bySlug.get(article.slug)) ?? [article]
  const shown = told.filter((a) => showsArticle(place, a))
  return (shown.find((a) => a.scope !== '*') ?? shown[0]) === article
}

/** The articles a market shows. */
const articlesIn = (index: PageIndex, place: PagePlace) => index.news.filter((article) => showsArticle(place, article))

const productsIn = (index: PageIndex, place: PagePlace) =>
  index.products.filter((product) => product.sites.includes(place.site.slug))

/** When a market's products last changed: each listed product's time, or each of its sitemap parts'. */
const productTimes = (index: PageIndex, place: PagePlace) => [
  ...productsIn(index, place).map((product) => product.updated_at),
  ...index.product_parts.filter((part) => part.site === place.site.slug).map((part) => part.lastmod),
]

/** When a market's articles last changed: each listed article's time, or each of its sitemap parts'. */
const articleTimes = (index: PageIndex, place: PagePlace) => [
  ...articlesIn(index, place).map((article) => article.updated_at),
  ...newsPartsIn(index, place).map((part) => part.lastmod),
]

/** The articles' sitemap parts a market shows: its locale's, for every market or for its site. */
export const newsPartsIn = (index: PageIndex, place: PagePlace) =>
  index.news_parts.filter(
    (part) => part.locale === place.locale && (part.scope === '*' || part.scope === place.site.slug),
  )

/** Whether a market sells products (of one type): a listed product, or a listing the index names. */
const sells = (index: PageIndex, place: PagePlace, type?: string) =>
  productsIn(index, place).some((product) => type === undefined || product.type === type) ||
  index.listings.some((listing) => listing.site === place.site.slug && (type === undefined || listing.type === type))

/**
 * The index with only some products and articles listed (a page's own, or one sitemap part's, read from the API by
 * themselves): what the groups of those pages need, without every product or article of the brand.
 */
export const withEntries = (
  index: PageIndex,
  entries: { products?: PageIndex['products']; news?: PageIndex['news'] },
): PageIndex => ({ ...index, products: entries.products ?? index.products, news: entries.news ?? index.news })

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
      lastmod: index && newest([...productTimes(index, place), ...articleTimes(index, place)]),
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
    withPage(places, 'products').flatMap((place) =>
      sells(index, place)
        ? [{ place, path: `/${place.segment}/products`, lastmod: newest(productTimes(index, place)) }]
        : [],
    ),

  /** The listing of one product type, in the markets that sell one of its products. */
  productType: (places: PagePlace[], index: PageIndex, type: string): PageGroup =>
    withPage(places, 'products').flatMap((place) => {
      const sold = productsIn(index, place).filter((product) => product.type === type)
      // With parts, the market's newest product change stands for its type's.
      const times = sold.length ? sold.map((p) => p.updated_at) : productTimes(index, place)
      return sells(index, place, type)
        ? [{ place, path: `/${place.segment}/products/type/${type}`, lastmod: newest(times) }]
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
      lastmod: index && newest(articleTimes(index, place)),
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

/** A product's page in each market that sells it (its entry's `sites`). */
export function productGroup(places: PagePlace[], product: PageIndex['products'][number] | undefined): PageGroup {
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
    for (const type of new Set([...index.products, ...index.listings].map((entry) => entry.type)))
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
