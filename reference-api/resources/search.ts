import { Hono } from 'hono'
import { type SearchKind, searchAnswer, searchKindSchema } from '../../contract/catalogue-schemas'
import { type ApiEnv, badPaging, badParameter, pageParams, respond } from '../context'

/**
 * The query `?1` folded by the rules of `search_folds` (migrations/0028: Greek accents, Hebrew and Arabic marks), the
 * same rules the index's folded columns were written with: one list of them, in the database.
 */
const FOLDED_MATCH = `(WITH RECURSIVE f(n, t) AS (SELECT 0, ?1 UNION ALL
   SELECT f.n + 1, replace(f.t, m.mark, m.plain) FROM f JOIN search_folds m ON m.n = f.n + 1)
   SELECT t FROM f ORDER BY n DESC LIMIT 1)`

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
 * The most matches a search counts: past it the total says this many (a hundred pages of ten), so a common word's
 * count reads a bounded number of rows whatever the catalogue's size.
 */
export const MAX_COUNTED = 1000

/**
 * `GET api/front/search?q=&type=products|news|dealers|all&page=&per_page=`: full-text search (D1 FTS5, BM25 with
 * titles weighing most, every word a prefix) over what the caller's market shows in its locale: products sold there,
 * its news, its dealers. Words match in their language's way: Latin diacritics, Greek accents and Hebrew and Arabic
 * marks folded alike in the index (migrations/0028) and in the query; the total counts at most `MAX_COUNTED`.
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
  const filter = `search_index MATCH ${FOLDED_MATCH} AND kind IN (${kinds.map((kind) => `'${kind}'`).join(', ')}) AND (
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
        ORDER BY bm25(search_index, 8.0, 1.0, 8.0, 1.0), title LIMIT ?4 OFFSET ?5`,
    ).bind(match, c.var.locale, site, paging.perPage, paging.offset),
    c.env.DB.prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM search_index WHERE ${filter} LIMIT ?4)`).bind(
      match,
      c.var.locale,
      site,
      MAX_COUNTED,
    ),
  ])
  return respond(c, searchAnswer, {
    data: (rows?.results ?? []).map(({ kind, slug, title, excerpt, image }) => ({ kind, slug, title, excerpt, image })),
    meta: { page: paging.page, per_page: paging.perPage, total: count?.results[0]?.n ?? 0 },
  })
})

/**
 * A visitor's words as an FTS5 query: letters and digits with their marks only (no operator of theirs reaches FTS5;
 * a Hebrew word with points or an Arabic one with vowels is one word), each word a quoted prefix, all required. Null
 * when nothing searchable is left. The statement folds it as the index's folded columns are (`FOLDED_MATCH`).
 */
export function ftsQuery(text: string): string | null {
  const terms =
    text
      .normalize('NFC')
      .match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)
      ?.slice(0, MAX_TERMS) ?? []
  return terms.length ? terms.map((term) => `"${term}"*`).join(' ') : null
}
