import { Hono } from 'hono'
import { pageIndexAnswer } from '../../contract/page-index-schemas'
import { type ApiEnv, respond } from '../context'

/**
 * `GET api/front/page-index`: every content page's locales, every product with the sites that sell it, every article
 * with its locale, scope and story, every dealer with its site, each with when it last changed. Brand-wide: no
 * `X-Tenant` changes it.
 */
export const pageIndex = new Hono<ApiEnv>().get('/front/page-index', async (c) => {
  const db = c.env.DB
  const [pages, products, news, dealers] = await db.batch<Record<string, unknown>>([
    db.prepare(
      'SELECT p.key, pc.locale, pc.updated_at FROM pages p JOIN page_contents pc ON pc.page_id = p.id ORDER BY p.id, pc.locale',
    ),
    db.prepare(
      `SELECT p.slug, t.slug AS type, p.updated_at, (SELECT json_group_array(site) FROM (SELECT site FROM product_prices pr
              WHERE pr.product_id = p.id ORDER BY site)) AS sites
         FROM products p JOIN product_types t ON t.id = p.type_id ORDER BY t.position, p.position, p.id`,
    ),
    db.prepare('SELECT slug, story, locale, scope, updated_at FROM news ORDER BY published_at DESC, id DESC'),
    db.prepare('SELECT slug, site, updated_at FROM dealers ORDER BY site, slug'),
  ])
  return respond(c, pageIndexAnswer, {
    data: {
      pages: (pages?.results ?? []) as never,
      products: (products?.results ?? []).map((row) => ({
        ...row,
        sites: JSON.parse(String(row.sites)) as string[],
      })) as never,
      news: (news?.results ?? []) as never,
      dealers: (dealers?.results ?? []) as never,
    },
  })
})
