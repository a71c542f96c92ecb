import type { Context } from 'hono'
import { articlePath } from '../components/news-cards'
import type { MarketEnv } from '../env'
import { formatMoney } from '../i18n/formats'
import type { Discipline } from '../../contract/catalogue-schemas'

/** Articles the index holds: the latest, as the news index shows them first. */
const ARTICLES = 12

/** One thing a visitor may be looking for, as the suggestions show it: a link, a title and what it is. */
export type Suggestion = {
  kind: 'product' | 'news' | 'dealer' | 'page'
  /** Its slug (a page's is its pageLinks slug). */
  slug: string
  title: string
  url: string
  /** A product's or an article's picture (a site path), or null. */
  image: string | null
  /** A product's "from" price in the market's currency and format, a dealer's town; else null. */
  detail: string | null
  /** A product's category (the listings' discipline), for the ranking; else null. */
  discipline: Discipline | null
}

/**
 * What a market's visitors may be looking for, in its language: the products it sells (picture and price), its
 * latest articles, its dealers and its content pages. Built from the market's cached lookups (KV, stale-while-
 * revalidate), so it costs no call of its own once they are warm; the same for every visitor of the market.
 *
 * @example
 * const index = await suggestionIndexOf(c) // [{ kind: 'product', title: 'Aurora Strada 9', detail: '4.990,00 €', … }]
 */
export async function suggestionIndexOf(c: Context<MarketEnv>): Promise<Suggestion[]> {
  const { api, market, t, available } = c.var
  const base = `/${market.segment}`
  const [types, articles, dealers] = await Promise.all([
    api.catalogue.types(),
    api.news.latest(ARTICLES),
    available.has('dealer-pages') ? api.dealers.all() : [],
  ])
  const lists = await Promise.all(types.map((type) => api.catalogue.products(type.slug)))
  const seen = new Set<string>()
  const products = lists.flat().filter((product) => !seen.has(product.slug) && seen.add(product.slug))
  return [
    ...products.map((product) => ({
      kind: 'product' as const,
      slug: product.slug,
      title: product.name,
      url: `${base}/products/${product.slug}`,
      image: product.image ?? null,
      detail: formatMoney(product.price, market.site.currency, market),
      discipline: product.discipline ?? null,
    })),
    ...articles.map((article) => ({
      kind: 'news' as const,
      slug: article.slug,
      title: article.title,
      url: articlePath(market.segment, article.slug),
      image: article.image ?? null,
      detail: null,
      discipline: null,
    })),
    ...dealers.map((dealer) => ({
      kind: 'dealer' as const,
      slug: dealer.slug,
      title: dealer.name,
      url: `${base}/dealers/${dealer.slug}`,
      image: null,
      detail: dealer.city,
      discipline: null,
    })),
    ...available.pageLinks().map((page) => ({
      kind: 'page' as const,
      slug: page.slug,
      title: t(`pages.${page.key}`),
      url: `${base}/${page.slug}`,
      image: null,
      detail: null,
      discipline: null,
    })),
  ]
}
