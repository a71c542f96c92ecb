import { Hono } from 'hono'
import { pageIndexAnswer, pageIndexDealersAnswer } from '../../contract/page-index-schemas'
import { type ApiEnv, notFound, respond } from '../context'

/** Dealers per sitemap part: a part holds a site's dealers with ids in [part * 1000, (part + 1) * 1000). */
export const DEALERS_PER_PART = 1000

/**
 * `GET api/front/page-index`: every content page's locales, every product with the sites that sell it, every article
 * with its locale, scope and story, each with when it last changed, and the dealers' sitemap parts (migration 0029's
 * `dealer_parts`, kept on every write: how many per site and part, and the newest change), not every dealer.
 * `GET api/front/page-index/dealers?site=&part=`: one part's dealers, a range of ids through `dealers_by_site_id`.
 * Brand-wide: no `X-Tenant` changes them.
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
  .get('/front/page-index', async (c) => {
    const db = c.env.DB
    const [pages, products, news, dealerParts] = await db.batch<Record<string, unknown>>([
      db.prepare(
        'SELECT p.key, pc.locale, pc.updated_at FROM pages p JOIN page_contents pc ON pc.page_id = p.id ORDER BY p.id, pc.locale',
      ),
      db.prepare(
        `SELECT p.slug, t.slug AS type, p.updated_at, (SELECT json_group_array(site) FROM (SELECT site FROM product_prices pr
              WHERE pr.product_id = p.id ORDER BY site)) AS sites
         FROM products p JOIN product_types t ON t.id = p.type_id ORDER BY t.position, p.position, p.id`,
      ),
      db.prepare('SELECT slug, story, locale, scope, updated_at FROM news ORDER BY published_at DESC, id DESC'),
      db.prepare('SELECT site, part, count, lastmod FROM dealer_sitemap_parts WHERE count > 0 ORDER BY site, part'),
    ])
    return respond(c, pageIndexAnswer, {
      data: {
        pages: (pages?.results ?? []) as never,
        products: (products?.results ?? []).map((row) => ({
          ...row,
          sites: JSON.parse(String(row.sites)) as string[],
        })) as never,
        news: (news?.results ?? []) as never,
        dealers: [],
        dealer_parts: (dealerParts?.results ?? []) as never,
      },
    })
  })
