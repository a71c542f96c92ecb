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

/** BM25 with the titles (as written and folded) weighing 8 times the bodies, in the index's column order. */
const SCORE = 'bm25(search_index, 8.0, 1.0, 8.0, 1.0)'

/**
 * How many matches of each part of the index (a language's products, its news for every market and for the market
 * each, the market's dealers) a search ranks by BM25, by what `type` asks for (docs/decisions/081), read in rowid
 * order; every window holds a first page and one more, so a first page reads no part twice. A word matching fewer is
 * ranked whole; one matching more is ranked within the first this many of each part (the demo's bikes first, the
 * newest news), and the rest follows in rowid order on the pages after them.
 */
export const WINDOWS: Record<string, Partial<Record<SearchKind, number>>> = {
  products: { product: 40 },
  news: { news: 20 },
  dealers: { dealer: 40 },
  all: { product: 11, news: 11, dealer: 11 },
}

/** A language's range of the index: its slot (its two letters' place, migrations/0033) × 10^16, from `?2`. */
const LOCALE_BASE = '(((unicode(substr(?2, 1, 1)) - 97) * 26 + unicode(substr(?2, 2, 1)) - 97) * 10000000000000000)'
/** The marks `FOLDED_MATCH` folds (its `GLOB`'s class): a query without any is matched as it is. */
const FOLDED_MARKS = /[\u0386-\u03b0\u03ca-\u03ce\u0591-\u05c7\u0610-\u06ed]/u

/**
 * The parts of the index a kind of result lives in (migrations/0033): each a rowid range FTS5 seeks to, so another
 * language's or market's rows are never visited, `ref` the row's product, news or dealer id from its rowid, and a
 * product's listing row in the market (it is sold there: its "from" price there).
 */
const PARTS: Record<SearchKind, { from: string; to: string; ref: string; listed?: boolean; sited?: boolean }[]> = {
  product: [
    {
      from: LOCALE_BASE,
      to: `${LOCALE_BASE} + 9999999999999`,
      ref: `search_index.rowid - ${LOCALE_BASE}`,
      listed: true,
    },
  ],
  news: ['1', '2 + s.id'].map((band) => ({
    from: `${LOCALE_BASE} + (${band}) * 10000000000000`,
    to: `${LOCALE_BASE} + (${band}) * 10000000000000 + 9999999999999`,
    ref: 'search_index.rowid % 10000000',
    sited: band !== '1',
  })),
  dealer: [
    {
      from: '9000000000000000000 + s.id * 10000000000000',
      to: '9000000000000000000 + s.id * 10000000000000 + 9999999999999',
      ref: 'search_index.rowid % 10000000000000',
      sited: true,
    },
  ],
}

/**
 * The statement of a search over the parts `windows` names (`?1` the query, `?2` the locale, `?3` the market, `?4` the
 * page's rows and one more, `?5` its offset, `?6` how far each part is read, `reach`, when the page reaches past a
 * window; the query folded first when it holds a mark to fold, `folded`): each part's first matches in rowid order, no
 * more than its window (FTS5 stops there: no doclist is ranked whole), ranked by BM25; a page reaching past them reads
 * on in rowid order, those rows after every ranked one. A market's part is found from its site row, read once. The
 * page's rows are then looked up again by rowid for their title and excerpt, and their slug and picture by id.
 */
function searchStatement(windows: Partial<Record<SearchKind, number>>, reach: number, folded: boolean): string {
  const match = folded ? '(SELECT m FROM q)' : '?1'
  const parts = searchKindSchema.options.flatMap((kind) =>
    (PARTS[kind] ?? []).flatMap((part) => (windows[kind] ? [{ kind, window: windows[kind], ...part }] : [])),
  )
  const arm = ({ kind, window, from, to, ref, listed, sited }: (typeof parts)[number], n: number, past: boolean) =>
    `SELECT ${past ? 1 : 0} AS past, ${past ? 0 : 'score'} AS score, ${n} AS part, '${kind}' AS kind, id, ref, price FROM (
       SELECT search_index.rowid AS id, ${ref} AS ref${past ? '' : `, ${SCORE} AS score`}, ${listed ? 'l.price' : 'NULL'} AS price
         FROM ${sited ? 'sites s CROSS JOIN ' : ''}search_index${listed ? ` CROSS JOIN product_listings l ON l.site = ?3 AND l.product_id = search_index.rowid - ${LOCALE_BASE}` : ''}
        WHERE search_index MATCH ${match} AND search_index.rowid BETWEEN ${from} AND ${to}${sited ? ' AND s.slug = ?3' : ''}
        ORDER BY search_index.rowid LIMIT ${past ? `?6 - ${window} OFFSET ${window}` : window})`
  const ranked = parts.map((part, n) => arm(part, n, false))
  const past = parts.flatMap((part, n) => (reach > part.window ? [arm(part, n, true)] : []))
  // A compound SELECT of D1 holds at most five terms: the parts' ranked rows in one, those past the windows in another.
  const arms = past.length ? [ranked, past].map((terms) => `SELECT * FROM (${terms.join('\n   UNION ALL ')})`) : ranked
  return `${folded ? `WITH q(m) AS MATERIALIZED (SELECT ${FOLDED_MATCH})\n` : ''}SELECT page.kind, search_index.title, snippet(search_index, 1, '', '', '…', 14) AS excerpt,
       COALESCE(p.slug, n.slug, d.slug) AS slug, COALESCE(p.image, n.image) AS image, page.price
  FROM (${arms.join('\n   UNION ALL ')}
   ORDER BY past, score, part, id LIMIT ?4 OFFSET ?5) AS page
 CROSS JOIN search_index ON search_index.rowid = page.id
  LEFT JOIN products p ON page.kind = 'product' AND p.id = page.ref
  LEFT JOIN news n ON page.kind = 'news' AND n.id = page.ref
  LEFT JOIN dealers d ON page.kind = 'dealer' AND d.id = page.ref
 WHERE search_index MATCH ${match}
 ORDER BY page.past, page.score, page.part, page.id`
}

/** At most this many words of a query are searched for. */
const MAX_TERMS = 8

/**
 * A word is searched for by its first this many letters (with their marks): the index keeps the prefixes up to this
 * length (migrations/0033), so FTS5 reads a word's matches as one doclist, only as far as a window needs.
 */
const PREFIX_LETTERS = 8

/**
 * `GET api/front/search?q=&type=products|news|dealers|all&page=&per_page=`: full-text search (D1 FTS5, BM25 with
 * titles weighing most, every word a prefix) over what the caller's market shows in its locale: products sold there
 * (with their "from" price there), its news, its dealers. Words match in their language's way: Latin diacritics,
 * Greek accents and Hebrew and Arabic marks folded alike in the index (migrations/0028) and in the query. Each part of
 * the index is read in rowid order, a window of matches ranked by BM25 (`WINDOWS`, docs/decisions/081), and no further
 * than one past the page: nothing counts them all, so `total` is the matches up to the page's end and one more when
 * another page follows (docs/decisions/077).
 */
export const search = new Hono<ApiEnv>().get('/front/search', async (c) => {
  const paging = pageParams(c, 10)
  const type = c.req.query('type') ?? 'all'
  const windows = Object.hasOwn(WINDOWS, type) ? WINDOWS[type] : undefined
  if (!paging) return badPaging(c)
  if (!windows) return badParameter(c, 'type', Object.keys(WINDOWS).join(', '))
  const match = ftsQuery(c.req.query('q') ?? '')
  if (!match)
    return respond(c, searchAnswer, { data: [], meta: { page: paging.page, per_page: paging.perPage, total: 0 } })
  const site = c.var.tenant ?? 'int'
  const reach = paging.offset + paging.perPage + 1
  const deep = Object.values(windows).some((window) => reach > window)
  const statement = c.env.DB.prepare(searchStatement(windows, reach, FOLDED_MARKS.test(match)))
  const { results } = await (deep
    ? statement.bind(match, c.var.locale, site, paging.perPage + 1, paging.offset, reach)
    : statement.bind(match, c.var.locale, site, paging.perPage + 1, paging.offset)
  ).all<{
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
 * a Hebrew word with points or an Arabic one with vowels is one word), each word a quoted prefix of at most
 * `PREFIX_LETTERS` letters ("biciclette" finds "bicicletta" too), all required. Null
 * when nothing searchable is left. The statement folds it as the index's folded columns are (`FOLDED_MATCH`).
 */
export function ftsQuery(text: string): string | null {
  const terms =
    text
      .normalize('NFC')
      .match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu)
      ?.slice(0, MAX_TERMS) ?? []
  return terms.length
    ? terms
        .map(
          (term) =>
            `"${
              term
                .match(/[\p{L}\p{N}]\p{M}*/gu)
                ?.slice(0, PREFIX_LETTERS)
                .join('') ?? term
            }"*`,
        )
        .join(' ')
    : null
}
