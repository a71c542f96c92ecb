import type { z } from 'zod'
import type { Upstream } from '../upstream/client'
import {
  contentPageAnswer,
  featuresAnswer,
  menuAnswer,
  messagesAnswer,
  newsListAnswer,
  seoAnswer,
  siteAnswer,
  sitesAnswer,
} from '../upstream/schemas'
import { logEvent } from '../ops/log'
import { type Dealer, dealersAnswer, newsArticleAnswer, productAnswer, productListAnswer, productTypesAnswer } from '../upstream/catalogue-schemas'
import { cacheKeys } from './keys'
import { type CachePolicy, CacheItem, CacheLong, CacheShort } from './policies'
import { cached, type CacheContext } from './swr'

/**
 * The cached lookups of the site: every read of the upstream that anonymous pages make, each behind KV with
 * stale-while-revalidate. Market-bound reads go out with the market's X-Tenant / X-Locale.
 *
 * @example
 * const lookups = createLookups(cache, upstream)
 * const site = await lookups.site('it', 'it')
 */
export function createLookups(cache: CacheContext, upstream: Upstream) {
  /** One cached read of a paged answer (`{ data, meta }`), for a market. */
  const readPaged = <S extends z.ZodType<{ data: unknown[]; meta: unknown }>>(
    key: string,
    policy: CachePolicy,
    path: string,
    answer: S,
    market: { country: string; locale: string },
  ) => cached(cache, key, policy, async (background) =>
    ((await upstream.forMarket(market.country, market.locale).get(path, answer, { background })) ?? null) as z.infer<S> | null)

  /** One cached read of an enveloped answer (`{ data }`), for the market given or none. */
  const read = <S extends z.ZodType<{ data: unknown }>>(
    key: string,
    policy: CachePolicy,
    path: string,
    answer: S,
    market?: { country: string; locale: string },
  ) => {
    const client = market ? upstream.forMarket(market.country, market.locale) : upstream
    return cached(cache, key, policy, async (background) =>
      ((await client.get(path, answer, { background }))?.data ?? null) as z.infer<S>['data'] | null)
  }

  return {
    site: (country: string, locale: string) =>
      read(cacheKeys.site(country), CacheShort, `sites/${country}`, siteAnswer, { country, locale }),
    sites: () => read(cacheKeys.sites(), CacheShort, 'sites', sitesAnswer),
    features: () => read(cacheKeys.features(), CacheShort, 'get-features', featuresAnswer),
    messages: (country: string, locale: string) =>
      read(cacheKeys.messages(country, locale), CacheLong, `country-wise-locale-content/${country}/${locale}`, messagesAnswer, { country, locale }),
    productMenu: (country: string, locale: string, typeId = 1) =>
      read(cacheKeys.menu(country, locale, typeId), CacheShort, `front/menu/products?type_id=${typeId}`, menuAnswer, { country, locale }),
    seo: (country: string, locale: string, modelType: string, modelId: string | number) =>
      read(
        cacheKeys.seo(country, locale, modelType, modelId),
        CacheLong,
        `front/seo/${encodeURIComponent(modelId)}/${encodeURIComponent(modelType)}`,
        seoAnswer,
        { country, locale },
      ),
    page: (country: string, locale: string, pageKey: string) =>
      read(cacheKeys.page(country, locale, pageKey), CacheLong, `front/pages/${encodeURIComponent(pageKey)}`, contentPageAnswer, { country, locale }),
    latestNews: (country: string, locale: string, count: number) =>
      read(cacheKeys.latestNews(country, locale, count), CacheShort, `front/news?per_page=${count}`, newsListAnswer, { country, locale }),
    /** A page of the news index (NEWS_PER_PAGE articles), with the total for paging. */
    newsPage: (country: string, locale: string, page: number) =>
      readPaged(cacheKeys.newsPage(country, locale, page), CacheShort, `front/news?page=${page}&per_page=${NEWS_PER_PAGE}`, newsListAnswer, { country, locale }),
    article: (country: string, locale: string, slug: string) =>
      read(cacheKeys.article(country, locale, slug), CacheItem, `front/news/${encodeURIComponent(slug)}`, newsArticleAnswer, { country, locale }),
    articleById: (country: string, locale: string, id: number) =>
      read(cacheKeys.articleById(country, locale, id), CacheItem, `front/news/id/${id}`, newsArticleAnswer, { country, locale }),
    productTypes: (country: string, locale: string) =>
      read(cacheKeys.productTypes(country, locale), CacheShort, 'front/product-types', productTypesAnswer, { country, locale }),
    /** Every product of a type sold in the market (a type has far fewer than a page of 50). */
    products: (country: string, locale: string, type: string) =>
      read(cacheKeys.products(country, locale, type), CacheShort, `front/products?type=${type}&per_page=50`, productListAnswer, { country, locale }),
    product: (country: string, locale: string, slug: string) =>
      read(cacheKeys.product(country, locale, slug), CacheItem, `front/products/${encodeURIComponent(slug)}`, productAnswer, { country, locale }),
    /**
     * Every dealer of the market, all pages of them (sorted and filtered at the edge, so one entry serves every
     * visitor; a dealer's page is found in it too).
     */
    dealers: (country: string, locale: string) =>
      cached(cache, cacheKeys.dealers(country, locale), CacheShort, async (background) => {
        const client = upstream.forMarket(country, locale)
        const dealers: Dealer[] = []
        for (let page = 1; page <= MAX_DEALER_PAGES; page++) {
          const answer = await client.get(`front/dealers?page=${page}&per_page=50`, dealersAnswer, { background })
          if (!answer) return null
          dealers.push(...answer.data)
          if (dealers.length >= answer.meta.total || answer.data.length === 0) return dealers
        }
        logEvent('warn', 'dealers_truncated', { country, count: dealers.length })
        return dealers
      }),
  }
}

export type Lookups = ReturnType<typeof createLookups>

/** Articles per page of the news index. */
export const NEWS_PER_PAGE = 9

/** A market's dealers are read 50 at a time, up to this many pages. */
const MAX_DEALER_PAGES = 10
