import { Hono } from 'hono'
import { type SearchKind, searchAnswer, searchKindSchema } from '../../contract/catalogue-schemas'
import { type ApiEnv, badPaging, badParameter, pageParams, respond } from '../context'

/**
 * The query `?1` folded by the rules of `search_folds` (migrations/0028: Greek accents, Hebrew and Arabic marks), the
 * same rules the index's folded columns were written with: one list of them, in the database. A query without any of
 * those marks is its own folded form, as the index's view decides for a title (its folds then read nothing).
 */
const FOLDED_MATCH = `(CASE WHEN ?1 GLOB '*[Ά-ΰϊ-ώ֑-ׇؐ-ۭ]*' THEN (WITH RECURSIVE f(n, t) AS (SELECT 0, ?1 UNION ALL
   SELECT f.n + 1, replace(f.t, m.mark, m.plain) FROM f JOIN search_folds m ON m.n = f.n + 1)
   SELECT t FROM f ORDER BY n DESC LIMIT 1) ELSE ?1 END)`

/** BM25 with the titles (as written and folded) weighing 8 times the bodies: FTS5's `rank`, in its column order. */
const RANK = 'bm25(8.0, 1.0, 8.0, 1.0)'

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
 * titles weighing most, every word a prefix) over what the caller's market shows in its locale: products sold there
 * (with their "from" price there), its news, its dealers. Words match in their language's way: Latin diacritics,
 * Greek accents and Hebrew and Arabic marks folded alike in the index (migrations/0028) and in the query. The matches
 * are read in FTS5's rank order and no further than one past the page (docs/decisions/077): nothing counts them all,
 * so `total` is the matches up to the page's end and one more when another page follows.
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
  const { results } = await c.env.DB.prepare(
    `SELECT kind, title, snippet(search_index, 1, '', '', '…', 14) AS excerpt,
            CASE kind WHEN 'product' THEN (SELECT slug FROM products WHERE id = ref)
                      WHEN 'news' THEN (SELECT slug FROM news WHERE id = ref)
                      ELSE (SELECT slug FROM dealers WHERE id = ref) END AS slug,
            CASE kind WHEN 'product' THEN (SELECT image FROM products WHERE id = ref)
                      WHEN 'news' THEN (SELECT image FROM news WHERE id = ref) END AS image,
            CASE kind WHEN 'product' THEN (SELECT price FROM product_listings l WHERE l.site = ?3 AND l.product_id = ref) END AS price
       FROM search_index
      WHERE search_index MATCH ${FOLDED_MATCH} AND rank MATCH '${RANK}'
        AND kind IN (${kinds.map((kind) => `'${kind}'`).join(', ')}) AND (
            (kind = 'product' AND locale = ?2 AND EXISTS (SELECT 1 FROM product_prices pr WHERE pr.product_id = ref AND pr.site = ?3))
         OR (kind = 'news' AND locale = ?2 AND site IN ('*', ?3))
         OR (kind = 'dealer' AND site = ?3))
      ORDER BY rank LIMIT ?4 OFFSET ?5`,
  )
    .bind(match, c.var.locale, site, paging.perPage + 1, paging.offset)
    .all<{
      kind: SearchKind
      slug: string
      title: string
      excerpt: string
      image: string | null
      price: number | null
    }>()
  const found = results.slice(0, paging.perPage)
  return respond(c, searchAnswer, {
    data: found.map(({ kind, slug, title, excerpt, image, price }) => ({ kind, slug, title, excerpt, image, price })),
    meta: {
      page: paging.page,
      per_page: paging.perPage,
      total: paging.offset + found.length + (results.length > paging.perPage ? 1 : 0),
    },
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
