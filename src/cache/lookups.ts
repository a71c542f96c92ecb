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
import { cacheKeys } from './keys'
import { CacheLong, CacheShort } from './policies'
import { cached, type CacheContext } from './swr'

/** The home page's latest-news block shows this many articles. */
export const LATEST_NEWS_COUNT = 3

/**
 * The cached lookups of the site: every read of the upstream that anonymous pages make, each behind KV with
 * stale-while-revalidate. Market-bound reads take the market's client (`upstream.forMarket`).
 *
 * @example
 * const lookups = createLookups(cache, upstream)
 * const site = await lookups.site('it', 'it')
 */
export function createLookups(cache: CacheContext, upstream: Upstream) {
  return {
    site: (country: string, locale: string) =>
      cached(cache, cacheKeys.site(country), CacheShort, async (background) =>
        (await upstream.forMarket(country, locale).get(`sites/${country}`, siteAnswer, { background }))?.data ?? null),

    sites: () =>
      cached(cache, cacheKeys.sites(), CacheShort, async (background) =>
        (await upstream.get('sites', sitesAnswer, { background }))?.data ?? null),

    features: () =>
      cached(cache, cacheKeys.features(), CacheShort, async (background) =>
        (await upstream.get('get-features', featuresAnswer, { background }))?.data ?? null),

    messages: (country: string, locale: string) =>
      cached(cache, cacheKeys.messages(country, locale), CacheLong, async (background) =>
        (await upstream
          .forMarket(country, locale)
          .get(`country-wise-locale-content/${country}/${locale}`, messagesAnswer, { background }))?.data ?? null),

    productMenu: (country: string, locale: string, typeId = 1) =>
      cached(cache, cacheKeys.menu(country, locale, typeId), CacheShort, async (background) =>
        (await upstream
          .forMarket(country, locale)
          .get(`front/menu/products?type_id=${typeId}`, menuAnswer, { background }))?.data ?? null),

    seo: (country: string, locale: string, modelType: string, modelId: string | number) =>
      cached(cache, cacheKeys.seo(country, locale, modelType, modelId), CacheLong, async (background) =>
        (await upstream
          .forMarket(country, locale)
          .get(`front/seo/${encodeURIComponent(modelId)}/${encodeURIComponent(modelType)}`, seoAnswer, { background }))
          ?.data ?? null),

    page: (country: string, locale: string, pageKey: string) =>
      cached(cache, cacheKeys.page(country, locale, pageKey), CacheLong, async (background) =>
        (await upstream
          .forMarket(country, locale)
          .get(`front/pages/${encodeURIComponent(pageKey)}`, contentPageAnswer, { background }))?.data ?? null),

    latestNews: (country: string, locale: string) =>
      cached(cache, cacheKeys.latestNews(country, locale), CacheShort, async (background) =>
        (await upstream
          .forMarket(country, locale)
          .get(`front/news?per_page=${LATEST_NEWS_COUNT}`, newsListAnswer, { background }))?.data ?? null),
  }
}

export type Lookups = ReturnType<typeof createLookups>
