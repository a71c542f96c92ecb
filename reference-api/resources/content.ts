import { Hono } from 'hono'
import type { ContentBlock } from '../../contract/schemas'
import { newsPage } from '../news-pages'
import { contentPageAnswer, newsListAnswer } from '../../contract/schemas'
import { type NewsArticle, newsArticleAnswer } from '../../contract/catalogue-schemas'
import {
  type ApiContext,
  type ApiEnv,
  badPaging,
  notFound,
  pageParams,
  parseJson,
  positiveInt,
  respond,
} from '../context'

/**
 * `GET api/front/pages/{key}` (a content page in the caller's locale, else English), `GET api/front/news` (the
 * market's articles, newest first, a page found by its mark: reference-api/news-pages.ts), `GET api/front/news/{slug}`
 * and `GET api/front/news/id/{id}` (one article of the market and locale, for the canonical page and the
 * `{slug}-{id}` permalinks).
 */
export const content = new Hono<ApiEnv>()
  .get('/front/pages/:key', async (c) => {
    const key = c.req.param('key')
    if (!/^[a-z0-9-]{1,60}$/.test(key)) return notFound(c)
    const row = await c.env.DB.prepare(
      `SELECT p.id, p.key, pc.title, pc.summary, pc.blocks FROM pages p
           JOIN page_contents pc ON pc.page_id = p.id AND pc.locale IN (?, 'en')
          WHERE p.key = ? ORDER BY pc.locale = 'en' LIMIT 1`,
    )
      .bind(c.var.locale, key)
      .first<{ id: number; key: string; title: string; summary: string; blocks: string }>()
    if (!row) return notFound(c)
    return respond(c, contentPageAnswer, { data: { ...row, blocks: parseJson<ContentBlock[]>(row.blocks, []) } })
  })
  .get('/front/news', async (c) => {
    const paging = pageParams(c, 12)
    if (!paging) return badPaging(c)
    const { page, perPage } = paging
    const { articles, total } = await newsPage(c.env.DB, c.var.locale, c.var.tenant ?? '*', page, perPage)
    return respond(c, newsListAnswer, { data: articles, meta: { page, per_page: perPage, total } })
  })
  .get('/front/news/id/:id', async (c) => article(c, 'id = ?3', positiveInt(c.req.param('id'))))
  .get('/front/news/:slug', async (c) => {
    const slug = c.req.param('slug')
    return article(c, 'slug = ?3', /^[a-z0-9-]{1,120}$/.test(slug) ? slug : null)
  })

/** One article of the caller's market (`X-Tenant`, else every market's) and locale, or 404. */
async function article(c: ApiContext, where: string, key: string | number | null) {
  if (key === null) return notFound(c)
  const row = await c.env.DB.prepare(
    `SELECT id, slug, title, excerpt, image, published_at, body, products FROM news
      WHERE locale = ?1 AND scope IN ('*', ?2) AND ${where} ORDER BY scope = '*' LIMIT 1`,
  )
    .bind(c.var.locale, c.var.tenant ?? '*', key)
    .first<Omit<NewsArticle, 'products'> & { products: string }>()
  return row
    ? respond(c, newsArticleAnswer, { data: { ...row, products: parseJson<string[]>(row.products, []) } })
    : notFound(c)
}
