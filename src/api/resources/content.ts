import { Hono } from 'hono'
import type { ContentBlock, NewsSummary } from '../../upstream/schemas'
import { contentPageAnswer, newsListAnswer } from '../../upstream/schemas'
import { type ApiEnv, notFound, parseJson, positiveInt, respond } from '../context'

const MAX_PER_PAGE = 50

/** `GET api/front/pages/{key}` (a content page in the caller's locale, else English) and `GET api/front/news`. */
export const content = new Hono<ApiEnv>()
  .get('/front/pages/:key', async (c) => {
    const key = c.req.param('key')
    if (!/^[a-z0-9-]{1,60}$/.test(key)) return notFound(c)
    const row = await c.env.DB
      .prepare(
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
    const page = c.req.query('page') === undefined ? 1 : positiveInt(c.req.query('page'))
    const perPage = c.req.query('per_page') === undefined ? 12 : positiveInt(c.req.query('per_page'), MAX_PER_PAGE)
    if (!page || !perPage) return c.json({ message: `page and per_page must be whole numbers (per_page at most ${MAX_PER_PAGE})` }, 422)
    const scope = c.var.tenant ?? '*'
    const [rows, count] = await c.env.DB.batch([
      c.env.DB
        .prepare(
          `SELECT id, slug, title, excerpt, image, published_at FROM news
            WHERE locale = ?1 AND scope IN ('*', ?2) ORDER BY published_at DESC, id DESC LIMIT ?3 OFFSET ?4`,
        )
        .bind(c.var.locale, scope, perPage, (page - 1) * perPage),
      c.env.DB.prepare(`SELECT COUNT(*) AS total FROM news WHERE locale = ?1 AND scope IN ('*', ?2)`).bind(c.var.locale, scope),
    ])
    const total = (count?.results[0] as { total: number } | undefined)?.total ?? 0
    const articles = (rows?.results ?? []) as NewsSummary[]
    return respond(c, newsListAnswer, { data: articles, meta: { page, per_page: perPage, total } })
  })
