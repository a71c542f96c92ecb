/** Bumped when the shape of a cached value changes: old entries are then simply never read again. */
export const CACHE_VERSION = 'v4'

const key = (...parts: Array<string | number>) => [CACHE_VERSION, ...parts].join(':')

/** Key builders of every cached lookup. A market's keys all start with `marketPrefix(country)`. */
export const cacheKeys = {
  site: (country: string) => key('site', country),
  sites: () => key('sites'),
  features: () => key('features'),
  pageIndex: () => key('page-index'),
  messages: (country: string, locale: string) => key('market', country, locale, 'messages'),
  menu: (country: string, locale: string, typeId: number) => key('market', country, locale, 'menu', typeId),
  seo: (country: string, locale: string, modelType: string, modelId: string | number) =>
    key('market', country, locale, 'seo', modelType, modelId),
  page: (country: string, locale: string, pageKey: string) => key('market', country, locale, 'page', pageKey),
  latestNews: (country: string, locale: string, count: number) =>
    key('market', country, locale, 'news', 'latest', count),
  newsPage: (country: string, locale: string, page: number) => key('market', country, locale, 'news', 'page', page),
  article: (country: string, locale: string, slug: string) => key('market', country, locale, 'news', 'article', slug),
  articleById: (country: string, locale: string, id: number) => key('market', country, locale, 'news', 'id', id),
  productTypes: (country: string, locale: string) => key('market', country, locale, 'product-types'),
  products: (country: string, locale: string, type: string) => key('market', country, locale, 'products', type),
  product: (country: string, locale: string, slug: string) => key('market', country, locale, 'product', slug),
  dealers: (country: string, locale: string) => key('market', country, locale, 'dealers'),
  jobs: (country: string, locale: string) => key('market', country, locale, 'jobs'),
}

/**
 * What belongs to one market: its site record, and the brand-wide entries that list it (the sites list, the page
 * index behind hreflang and sitemaps) as exact keys, and everything cached per locale.
 */
export const marketKeys = (country: string) => ({
  keys: [cacheKeys.site(country), cacheKeys.sites(), cacheKeys.pageIndex()],
  prefix: key('market', country, ''),
})

/** The prefix of every key of this cache version. */
export const everythingPrefix = (): string => `${CACHE_VERSION}:`
