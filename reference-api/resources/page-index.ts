import { Hono } from 'hono'
import {
  IDS_PER_SITEMAP_PART,
  pageIndexAnswer,
  pageIndexDealersAnswer,
  pageIndexNewsAnswer,
  pageIndexProductsAnswer,
} from '../../contract/page-index-schemas'
import { type ApiEnv, notFound, respond } from '../context'

/** Dealers per sitemap part: a part holds a site's dealers with ids in [part * 1000, (part + 1) * 1000). */
export const DEALERS_PER_PART = 1000
/** Products per sitemap part: a site's products with ids in [part * 1000, (part + 1) * 1000). */
export const PRODUCTS_PER_PART = IDS_PER_SITEMAP_PART
/** Articles per sitemap part: a locale's articles with ids in [part * 1000, (part + 1) * 1000). */
export const ARTICLES_PER_PART = IDS_PER_SITEMAP_PART

/** A product as the page index names it: its slug, its type, the sites that sell it, when it last changed. */
const PRODUCT_ENTRIES = `SELECT p.slug, t.slug AS type, p.updated_at,
  (SELECT json_group_array(site) FROM (SELECT site FROM product_prices s WHERE s.product_id = p.id ORDER BY site)) AS sites`
type ProductEntry = { slug: string; type: string; updated_at: string | null; sites: string }
const productEntry = (row: ProductEntry) => ({ ...row, sites: JSON.parse(row.sites) as string[] })

/** An article as the page index names it. */
const ARTICLE = 'id, slug, story, locale, scope, updated_at'

/**
 * `GET api/front/page-index`: every content page's locales, the types each market sells, and the dealers', products'
 * and articles' sitemap parts (migrations 0029 and 0030, kept on every write: how many per part and the newest
 * change), never every dealer, product or article. One part: `GET api/front/page-index/dealers?site=&part=`,
 * `…/products?site=&part=` (a range of ids through `product_prices_by_site_product`) and `…/news?locale=&site=&part=`
 * (through `news_by_locale_id`, with their stories' translations); one page's versions:
 * `…/products/{slug}` and `…/news/{slug}`. Brand-wide: no `X-Tenant` changes them.
 */
export const pageIndex = new Hono<ApiEnv>()
  .get('/front/page-index/dealers', async (c) => {
    const site = c.req.query('site') ?? ''
    const part = c.req.query('part') ?? ''
    if (!/^[a-z]{2,3}$/.test(site) || !/^\d{1,6}$/.test(part)) return notFound(c)
    const from = Number(part) * DEALERS_PER_PART
    const { results } = await c.env.DB.prepare(
      'SELECT slug, site, updated_at FROM dealers WHERE site = ? AND id >= ? AND id < ? ORDER BY id',
    )
      .bind(site, from, from + DEALERS_PER_PART)
      .all<{ slug: string; site: string; updated_at: string | null }>()
    return respond(c, pageIndexDealersAnswer, { data: results })
  })
  .get('/front/page-index/products', async (c) => {
    const site = c.req.query('site') ?? ''
    const part = c.req.query('part') ?? ''
    if (!/^[a-z]{2,3}$/.test(site) || !/^\d{1,6}$/.test(part)) return notFound(c)
    const from = Number(part) * PRODUCTS_PER_PART
    const { results } = await c.env.DB.prepare(
      `${PRODUCT_ENTRIES} FROM product_prices pr JOIN products p ON p.id = pr.product_id JOIN product_types t ON t.id = p.type_id
        WHERE pr.site = ? AND pr.product_id >= ? AND pr.product_id < ? ORDER BY pr.product_id`,
    )
      .bind(site, from, from + PRODUCTS_PER_PART)
      .all<ProductEntry>()
    return respond(c, pageIndexProductsAnswer, { data: results.map(productEntry) })
  })
  .get('/front/page-index/products/:slug', async (c) => {
    const slug = c.req.param('slug')
    if (!/^[a-z0-9-]{1,80}$/.test(slug)) return notFound(c)
    const { results } = await c.env.DB.prepare(
      `${PRODUCT_ENTRIES} FROM products p JOIN product_types t ON t.id = p.type_id WHERE p.slug = ?`,
    )
      .bind(slug)
      .all<ProductEntry>()
    return respond(c, pageIndexProductsAnswer, { data: results.map(productEntry) })
  })
  .get('/front/page-index/news', async (c) => {
    const locale = c.req.query('locale') ?? ''
    const site = c.req.query('site') ?? ''
    const part = c.req.query('part') ?? ''
    if (!/^[a-z]{2}$/.test(locale) || !/^[a-z]{2,3}$/.test(site) || !/^\d{1,6}$/.test(part)) return notFound(c)
    const from = Number(part) * ARTICLES_PER_PART
    // The part's articles the market shows, then every article of their stories (their translations: a few each).
    const { results } = await c.env.DB.prepare(
      `WITH part AS (SELECT id, story FROM news WHERE locale = ?1 AND id >= ?3 AND id < ?4 AND scope IN ('*', ?2))
       SELECT ${ARTICLE} FROM news
        WHERE id IN (SELECT id FROM part) OR story IN (SELECT story FROM part WHERE story IS NOT NULL)`,
    )
      .bind(locale, site, from, from + ARTICLES_PER_PART)
      .all<Record<string, unknown>>()
    return respond(c, pageIndexNewsAnswer, { data: results as never })
  })
  .get('/front/page-index/news/:slug', async (c) => {
    const slug = c.req.param('slug')
    if (!/^[a-z0-9-]{1,80}$/.test(slug)) return notFound(c)
    // Every article of that slug (a locale and scope each) and every article of their stories.
    const { results } = await c.env.DB.prepare(
      `SELECT ${ARTICLE} FROM news
        WHERE slug = ?1 OR story IN (SELECT story FROM news WHERE slug = ?1 AND story IS NOT NULL)`,
    )
      .bind(slug)
      .all<Record<string, unknown>>()
    return respond(c, pageIndexNewsAnswer, { data: results as never })
  })
  .get('/front/page-index', async (c) => {
    const db = c.env.DB
    const [pages, dealerParts, productParts, newsParts, listings] = await db.batch<Record<string, unknown>>([
      db.prepare(
        'SELECT p.key, pc.locale, pc.updated_at FROM pages p JOIN page_contents pc ON pc.page_id = p.id ORDER BY p.id, pc.locale',
      ),
      db.prepare('SELECT site, part, count, lastmod FROM dealer_sitemap_parts WHERE count > 0 ORDER BY site, part'),
      db.prepare('SELECT site, part, count, lastmod FROM product_sitemap_parts WHERE count > 0 ORDER BY site, part'),
      db.prepare(
        'SELECT locale, scope, part, count, lastmod FROM news_sitemap_parts WHERE count > 0 ORDER BY locale, scope, part',
      ),
      // The types each market sells: from the listings' counts (a few rows per market and type).
      db.prepare(
        `SELECT DISTINCT l.site, t.slug AS type FROM product_listing_counts l JOIN product_types t ON t.id = l.type_id
          WHERE l.n > 0 ORDER BY l.site, t.position, t.id`,
      ),
    ])
    return respond(c, pageIndexAnswer, {
      data: {
        pages: (pages?.results ?? []) as never,
        products: [],
        news: [],
        dealers: [],
        dealer_parts: (dealerParts?.results ?? []) as never,
        product_parts: (productParts?.results ?? []) as never,
        news_parts: (newsParts?.results ?? []) as never,
        listings: (listings?.results ?? []) as never,
      },
    })
  })
