/** Bumped when the shape of a cached value changes: old entries are then simply never read again. */
export const CACHE_VERSION = 'v4'

/**
 * Key builders of every cached lookup of one upstream: each key starts with the cache version and the upstream's
 * fingerprint (src/upstream/fingerprint.ts), so a switch of `UPSTREAM_URL` never reads the previous upstream's
 * answers. A market's keys all start with `market(country).prefix`.
 *
 * @example
 * const keys = cacheKeysOf(configOf(env).upstream.fingerprint)
 * await env.CACHE.get(keys.site('it'))
 */
export function cacheKeysOf(upstream: string) {
  const key = (...parts: Array<string | number>) => [CACHE_VERSION, upstream, ...parts].join(':')
  return {
    site: (country: string) => key('site', country),
    sites: () => key('sites'),
    features: () => key('features'),
    pageIndex: () => key('page-index'),
    /** A part of a site's dealers in the page index: among the market's keys, purged with it. */
    pageIndexDealers: (country: string, part: number) => key('market', country, 'page-index-dealers', part),
    /** A part of a site's products, and of its articles in a locale, in the page index (purged with the market). */
    pageIndexProducts: (country: string, part: number) => key('market', country, 'page-index-products', part),
    pageIndexNews: (country: string, locale: string, part: number) =>
      key('market', country, 'page-index-news', locale, part),
    /** One product's or article's versions as the page index knows them, read by a market's page. */
    pageIndexProduct: (country: string, slug: string) => key('market', country, 'page-index-product', slug),
    pageIndexArticle: (country: string, slug: string) => key('market', country, 'page-index-article', slug),
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
    /** The first `count` products of a type in the brand's order (a product page's related products). */
    firstProducts: (country: string, locale: string, type: string, count: number) =>
      key('market', country, locale, 'products', type, 'first', count),
    product: (country: string, locale: string, slug: string) => key('market', country, locale, 'product', slug),
    dealers: (country: string, locale: string) => key('market', country, locale, 'dealers'),
    nearestDealers: (country: string, locale: string, point: string, services: string, count: number) =>
      key('market', country, locale, 'dealers', 'near', point, services || 'any', count),
    dealer: (country: string, locale: string, slug: string) => key('market', country, locale, 'dealer', slug),
    jobs: (country: string, locale: string) => key('market', country, locale, 'jobs'),
    /**
     * What belongs to one market: its site record, and the brand-wide entries that list it (the sites list, the page
     * index behind hreflang and sitemaps) as exact keys, and everything cached per locale.
     */
    market: (country: string) => ({
      keys: [key('site', country), key('sites'), key('page-index')],
      prefix: key('market', country, ''),
    }),
  }
}

/** The keys of one upstream's cached lookups. */
export type CacheKeys = ReturnType<typeof cacheKeysOf>

const ANY = '*'

/**
 * Whether a key is one of a market's (its own or the brand-wide ones that list it), whatever the upstream: what an
 * isolate forgets when another purged that market.
 */
export function isMarketKey(country: string): (key: string) => boolean {
  const { keys, prefix } = cacheKeysOf(ANY).market(country)
  return (key) => {
    const anyUpstream = key.replace(/^([^:]*):[^:]*:/, `$1:${ANY}:`)
    return keys.includes(anyUpstream) || anyUpstream.startsWith(prefix)
  }
}

/** The prefix of every key of this cache version, whatever the upstream. */
export const everythingPrefix = (): string => `${CACHE_VERSION}:`
