import { z } from 'zod'
import { envelope } from './schemas'

/**
 * `GET api/front/page-index` (docs/api.md): every public thing of the brand that has a page of its own, where it exists
 * and when it last changed — what hreflang alternates and sitemaps are made of. Brand-wide, one answer.
 */

const slug = z.string().regex(/^[a-z0-9-]{1,80}$/)
const site = z.string().regex(/^[a-z]{2,3}$/)
const locale = z.string().regex(/^[a-z]{2}$/)
/** An ISO 8601 time (`2026-11-02T08:00:00Z`) or date. */
const moment = z.string().regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/)

/** A dealer as the page index names it: its slug, its site, when it last changed. */
const pageIndexDealer = z.object({ slug, site, updated_at: moment.nullish() })

/** A product as the page index names it: its slug, its type, the sites that sell it, when it last changed. */
const pageIndexProduct = z.object({ slug, type: slug, sites: z.array(site), updated_at: moment.nullish() })

/**
 * The ids a sitemap part of products or articles holds: part `n` is ids in [n * 1000, (n + 1) * 1000), as the
 * dealers' (decision 070).
 */
export const IDS_PER_SITEMAP_PART = 1000

/** An article as the page index names it (one per slug, locale and scope; a `story`'s articles translate it). */
const pageIndexArticle = z.object({
  /** Its id, where the API pages the articles by their ids (which part lists it). */
  id: z.number().int().nullish(),
  slug,
  story: z.string().max(80).nullish(),
  locale,
  scope: z.union([z.literal('*'), site]),
  updated_at: moment.nullish(),
})

/** A sitemap part of a site's things: its number, how many it holds, when the last of them changed. */
const sitePart = z.object({
  site,
  part: z.number().int().min(0),
  count: z.number().int().min(0),
  lastmod: moment.nullish(),
})

export const pageIndexSchema = z.object({
  /** Content pages (pageLinks keys) with the locales they are written in; other locales show the English text. */
  pages: z.array(z.object({ key: z.string().regex(/^[a-z0-9-]{1,60}$/), locale, updated_at: moment.nullish() })),
  /** Products with their type and the sites that sell them (those with a price there). */
  products: z.array(pageIndexProduct),
  /**
   * Articles: one per slug, locale and scope (`*` is every market of the locale, else one site); articles of one
   * `story` are translations of one another.
   */
  news: z.array(pageIndexArticle),
  /**
   * Dealers, each in its site: all of them, or none when the API counts them in `dealer_parts` instead (a brand with
   * thousands: each part read by `GET api/front/page-index/dealers`, decision 070).
   */
  dealers: z.array(pageIndexDealer).default([]),
  /**
   * The dealers' sitemap parts: per site, each part's number, how many dealers it holds and when the last of them
   * changed. Absent when `dealers` lists them all.
   */
  dealer_parts: z.array(sitePart).default([]),
  /**
   * The products' sitemap parts (decision 071): per site, its products with ids in each thousand. With them `products`
   * is empty: a part is read by `GET api/front/page-index/products`, a product's versions by `…/products/{slug}`.
   */
  product_parts: z.array(sitePart).default([]),
  /**
   * The articles' sitemap parts: per locale and scope, its articles with ids in each thousand. With them `news` is
   * empty: a part is read by `GET api/front/page-index/news`, an article's versions by `…/news/{slug}`.
   */
  news_parts: z
    .array(
      z.object({
        locale,
        scope: z.union([z.literal('*'), site]),
        part: z.number().int().min(0),
        count: z.number().int().min(0),
        lastmod: moment.nullish(),
      }),
    )
    .default([]),
  /** The product types each site sells (its listings), when `products` does not list them. */
  listings: z.array(z.object({ site, type: slug })).default([]),
})

export const pageIndexAnswer = envelope(pageIndexSchema)

export type PageIndex = z.infer<typeof pageIndexSchema>

/** `GET api/front/page-index/dealers?site=&part=`: the dealers of one sitemap part of a site, by id. */
export const pageIndexDealersAnswer = envelope(z.array(pageIndexDealer))

/** A dealer as the page index names it. */
export type PageIndexDealer = z.infer<typeof pageIndexDealer>

/** `GET api/front/page-index/products?site=&part=` and `…/products/{slug}`: products as the page index names them. */
export const pageIndexProductsAnswer = envelope(z.array(pageIndexProduct))

/** `GET api/front/page-index/news?locale=&site=&part=` and `…/news/{slug}`: articles with their stories' others. */
export const pageIndexNewsAnswer = envelope(z.array(pageIndexArticle))
