import { Hono } from 'hono'
import { type SearchKind, searchAnswer, searchKindSchema } from '../../contract/catalogue-schemas'
import { type ApiEnv, badPaging, badParameter, pageParams, respond } from '../context'

/** What `type` asks for: one kind of result, or all of them. */
const TYPES: Record<string, SearchKind[]> = {
  products: ['product'],
  news: ['news'],
  dealers: ['dealer'],
  all: searchKindSchema.options,
}

/** At most this many words of a query are searched for. */
const MAX_TERMS = 8

/**
 * `GET api/front/search?q=&type=products|news|dealers|all&page=&per_page=`: full-text search (D1 FTS5, BM25 with
 * titles weighing most, diacritics folded, every word a prefix) over what the caller's market shows in its locale:
 * products sold there, its news, its dealers.
 */
export const search = new Hono<ApiEnv>().get('/front/search', async (c) => {
  const paging = pageParams(c, 10)
  const type = c.req.query('type') ?? 'all'
  const kinds = Object.hasOwn(TYPES, type) ? TYPES[type] : undefined
  if (!paging) return badPaging(c)
  if (!kinds) return badParameter(c, 'type', Object.keys(TYPES).join(', '))
  const match = ftsQuery(c.req.query('q') ?? '')
  if (!match)
    return respond(c, searchAnswer, { data: [], meta: { page: paging.page, per_page: paging.perPage, total: 0 } })
  const site = c.var.tenant ?? 'int'
  const filter = `search_index MATCH ?1 AND kind IN (${kinds.map((kind) => `'${kind}'`).join(', ')}) AND (
       (kind = 'product' AND locale = ?2 AND EXISTS (SELECT 1 FROM product_prices pr WHERE pr.product_id = ref AND pr.site = ?3))
    OR (kind = 'news' AND locale = ?2 AND site IN ('*', ?3))
    OR (kind = 'dealer' AND site = ?3))`
  const [rows, count] = await c.env.DB.batch<{
    kind: SearchKind
    slug: string
    title: string
    excerpt: string
    image: string | null
    n: number
  }>([
    c.env.DB.prepare(
      `SELECT kind, title, snippet(search_index, 1, '', '', '…', 14) AS excerpt,
              CASE kind WHEN 'product' THEN (SELECT slug FROM products WHERE id = ref)
                        WHEN 'news' THEN (SELECT slug FROM news WHERE id = ref)
                        ELSE (SELECT slug FROM dealers WHERE id = ref) END AS slug,
              CASE kind WHEN 'product' THEN (SELECT image FROM products WHERE id = ref)
                        WHEN 'news' THEN (SELECT image FROM news WHERE id = ref) END AS image
         FROM search_index WHERE ${filter}
        ORDER BY bm25(search_index, 8.0, 1.0), title LIMIT ?4 OFFSET ?5`,
    ).bind(match, c.var.locale, site, paging.perPage, paging.offset),
    c.env.DB.prepare(`SELECT COUNT(*) AS n FROM search_index WHERE ${filter}`).bind(match, c.var.locale, site),
  ])
  return respond(c, searchAnswer, {
    data: (rows?.results ?? []).map(({ kind, slug, title, excerpt, image }) => ({ kind, slug, title, excerpt, image })),
    meta: { page: paging.page, per_page: paging.perPage, total: count?.results[0]?.n ?? 0 },
  })
})

/**
 * A visitor's words as an FTS5 query: letters and digits only (no operator of theirs reaches FTS5), each word a
 * quoted prefix, all required. Null when nothing searchable is left.
 */
export function ftsQuery(text: string): string | null {
  const terms = text.match(/[\p{L}\p{N}]+/gu)?.slice(0, MAX_TERMS) ?? []
  return terms.length ? terms.map((term) => `"${term}"*`).join(' ') : null
}
