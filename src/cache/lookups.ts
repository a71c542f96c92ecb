import type { Upstream } from '../upstream/client'
import { catalogueCalls } from '../upstream/contract/catalogue'
import { contentCalls } from '../upstream/contract/content'
import { dealerCalls } from '../upstream/contract/dealers'
import { formCalls } from '../upstream/contract/forms'
import { newsCalls } from '../upstream/contract/news'
import { newsletterCalls } from '../upstream/contract/newsletter'
import { pageIndexCalls } from '../upstream/contract/page-index'
import { searchCalls } from '../upstream/contract/search'
import { siteCalls } from '../upstream/contract/sites'
import { whistleblowerCalls } from '../upstream/contract/whistleblower'
import type { CacheKeys } from './keys'
import { type CachePolicy, CacheItem, CacheLong, CacheShort } from './policies'
import { cached, type CacheContext, type Load, remembered } from './swr'
import type { Site } from '../../contract/schemas'
import type { DealerService } from '../../contract/catalogue-schemas'
import type { Point } from '../../contract/distance'

/** The market a read speaks for (X-Tenant / X-Locale). */
export type MarketRef = { country: string; locale: string }

/** Articles per page of the news index. */
export const NEWS_PER_PAGE = 9

/** The product menu's type (`api/front/menu/products?type_id=1`, as the original). */
export const MENU_TYPE_ID = 1

/**
 * The site's reads of the upstream, each behind KV with stale-while-revalidate where every visitor sees the same
 * answer: the brand-wide ones here, a market's through `forMarket`. Lists answer `[]` when the API has none.
 *
 * @example
 * const lookups = createLookups(cache, upstream, cacheKeysOf(config.upstream.fingerprint))
 * const site = await lookups.site('it', 'it')
 * const product = await lookups.forMarket({ country: 'it', locale: 'it' }).catalogue.product('aurora-road-pro')
 */
export function createLookups(cache: CacheContext, upstream: Upstream, keys: CacheKeys) {
  const brand = siteCalls(upstream)

  return {
    /** A market's site record, or null when there is no such market. */
    site: (country: string, locale: string) =>
      cached(cache, keys.site(country), CacheShort, (background) =>
        siteCalls(upstream.forMarket({ country, locale })).site(country, { background }),
      ),
    /** Every market's site record. */
    sites: () => cachedList(cache, keys.sites(), CacheShort, (background) => brand.sites({ background })),
    /** The brand's features. */
    features: () => cachedList(cache, keys.features(), CacheShort, (background) => brand.features({ background })),
    /**
     * Where every public page of the brand exists and when it changed (hreflang, sitemaps), or null when the API has
     * none. Brand-wide: purged with any market, like the sites list.
     */
    pageIndex: () =>
      cached(cache, keys.pageIndex(), CacheShort, (background) => pageIndexCalls(upstream).index({ background })),
    /** One sitemap part of a site's dealers (the page index's `dealer_parts`). */
    pageIndexDealers: (site: string, part: number) =>
      cachedList(cache, keys.pageIndexDealers(site, part), CacheShort, (background) =>
        pageIndexCalls(upstream).dealers(site, part, { background }),
      ),
    /** One sitemap part of a site's products (the page index's `product_parts`). */
    pageIndexProducts: (site: string, part: number) =>
      cachedList(cache, keys.pageIndexProducts(site, part), CacheShort, (background) =>
        pageIndexCalls(upstream).products(site, part, { background }),
      ),
    /** One sitemap part of a market's articles in a locale, with their stories' translations (`news_parts`). */
    pageIndexNews: (site: string, locale: string, part: number) =>
      cachedList(cache, keys.pageIndexNews(site, locale, part), CacheShort, (background) =>
        pageIndexCalls(upstream).news(site, locale, part, { background }),
      ),
    /** A product's versions as the page index knows them (for a page of `site`): one entry, or none. */
    pageIndexProduct: (site: string, slug: string) =>
      cachedList(cache, keys.pageIndexProduct(site, slug), CacheShort, (background) =>
        pageIndexCalls(upstream).product(slug, { background }),
      ),
    /** An article's versions as the page index knows them (for a page of `site`): its slug's and its stories'. */
    pageIndexArticle: (site: string, slug: string) =>
      cachedList(cache, keys.pageIndexArticle(site, slug), CacheShort, (background) =>
        pageIndexCalls(upstream).article(slug, { background }),
      ),
    /** The reads of one market, in its language and prices. */
    forMarket: (market: MarketRef) => marketReads(cache, keys, upstream.forMarket(market), market),
  }
}

export type Lookups = ReturnType<typeof createLookups>

/** A market's site record as this isolate remembers it (see `remembered`): what `lookups.site` answers from memo. */
export const rememberedSite = (keys: CacheKeys, country: string) => remembered<Site>(keys.site(country), CacheShort)

/** A cached list: empty when the API has none. */
const cachedList = async <T>(cache: CacheContext, key: string, policy: CachePolicy, load: Load<T[]>): Promise<T[]> =>
  (await cached(cache, key, policy, load)) ?? []

/**
 * A market's reads, area by area (docs/api.md): content, catalogue, news and dealers are cached for every visitor;
 * search and places are the visitor's own words and go to the API each time, as the whistleblower channel's calls
 * (never cached: each is one reporter's).
 */
function marketReads(cache: CacheContext, keys: CacheKeys, client: Upstream, market: MarketRef) {
  const { country, locale } = market
  const content = contentCalls(client, market)
  const catalogue = catalogueCalls(client)
  const news = newsCalls(client)
  const dealers = dealerCalls(client)
  const forms = formCalls(client)
  return {
    market,
    content: {
      messages: () =>
        cached(cache, keys.messages(country, locale), CacheLong, (background) => content.messages({ background })),
      page: (key: string) =>
        cached(cache, keys.page(country, locale, key), CacheLong, (background) => content.page(key, { background })),
      seo: (modelType: string, modelId: string | number) =>
        cached(cache, keys.seo(country, locale, modelType, modelId), CacheLong, (background) =>
          content.seo(modelType, modelId, { background }),
        ),
    },
    catalogue: {
      menu: () =>
        cachedList(cache, keys.menu(country, locale, MENU_TYPE_ID), CacheShort, (background) =>
          catalogue.menu(MENU_TYPE_ID, { background }),
        ),
      types: () =>
        cachedList(cache, keys.productTypes(country, locale), CacheShort, (background) =>
          catalogue.types({ background }),
        ),
      products: (type: string) =>
        cachedList(cache, keys.products(country, locale, type), CacheShort, (background) =>
          catalogue.products(type, { background }),
        ),
      /** The first `count` products of a type in the brand's order: what a few cards show, whatever the type's size. */
      firstProducts: (type: string, count: number) =>
        cachedList(cache, keys.firstProducts(country, locale, type, count), CacheShort, async (background) =>
          (await catalogue.products(type, { background }, count)).slice(0, count),
        ),
      /**
       * A page of a listing, filtered and ordered by the backend: not kept in KV (each filter makes a query of its
       * own); the page cache keeps the page it renders.
       */
      listing: (params: URLSearchParams) => catalogue.listing(params),
      product: (slug: string) =>
        cached(cache, keys.product(country, locale, slug), CacheItem, (background) =>
          catalogue.product(slug, { background }),
        ),
    },
    news: {
      latest: (count: number) =>
        cachedList(cache, keys.latestNews(country, locale, count), CacheShort, (background) =>
          news.latest(count, { background }),
        ),
      /** A page of the index (NEWS_PER_PAGE articles) with the total, or null when the API has no index. */
      page: (page: number) =>
        cached(cache, keys.newsPage(country, locale, page), CacheShort, (background) =>
          news.page(page, NEWS_PER_PAGE, { background }),
        ),
      article: (slug: string) =>
        cached(cache, keys.article(country, locale, slug), CacheItem, (background) =>
          news.article(slug, { background }),
        ),
      articleById: (id: number) =>
        cached(cache, keys.articleById(country, locale, id), CacheItem, (background) =>
          news.articleById(id, { background }),
        ),
    },
    dealers: {
      /** Every dealer of the market (one entry serves every visitor; a dealer's page is found in it too). */
      all: () =>
        cachedList(
          cache,
          keys.dealers(country, locale),
          CacheShort,
          async (background) => (await dealers.all({ background })) ?? [],
        ),
      /**
       * The `count` dealers nearest to a point offering `services`, nearest first. `shared` (the market's centre, a
       * town of its places: a point many visitors measure from) caches the answer; a visitor's own position never is.
       */
      nearest: (point: Point, services: readonly DealerService[], count: number, shared: boolean) =>
        shared
          ? cachedList(
              cache,
              keys.nearestDealers(
                country,
                locale,
                `${point.lat.toFixed(4)},${point.lng.toFixed(4)}`,
                services.join(','),
                count,
              ),
              CacheShort,
              (background) => dealers.nearest(point, services, count, { background }),
            )
          : dealers.nearest(point, services, count),
      /** One dealer of the market by its slug (its page), or null. */
      one: (slug: string) =>
        cached(cache, keys.dealer(country, locale, slug), CacheItem, (background) => dealers.one(slug, { background })),
      place: (words: string) => dealers.place(words),
    },
    search: searchCalls(client),
    forms: {
      ...formCalls(client),
      /** The market's open positions: the same for every visitor of the market. */
      jobs: () => cachedList(cache, keys.jobs(country, locale), CacheShort, (background) => forms.jobs({ background })),
    },
    whistleblower: whistleblowerCalls(client),
    newsletter: newsletterCalls(client),
  }
}

/** The reads of one market: what pages call (`api.catalogue.product(slug)`), never `api/...` paths. */
export type MarketApi = ReturnType<Lookups['forMarket']>
