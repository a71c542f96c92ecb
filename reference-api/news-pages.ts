import type { NewsSummary } from '../contract/schemas'

/** An article's columns in the news index. */
const SUMMARY = 'SELECT id, slug, title, excerpt, image, published_at FROM news'
/** The articles a market shows: its locale's, for every market (`*`) or for its site. */
const SHOWN = "locale = ?1 AND scope IN ('*', ?2)"
/** Newest first; the id breaks a tie (two articles published at the same moment keep their order). */
const NEWEST = 'ORDER BY published_at DESC, id DESC'
/** The articles from a mark's on, newest first (?3 its published_at, ?4 its id): a range of the index. */
const FROM_MARK = 'published_at <= ?3 AND (published_at < ?3 OR id <= ?4)'

/** Where a page of a market's news index starts, and how many articles the market showed when it was written. */
type Mark = { page: number; published_at: string; id: number; total: number }

/** A page of a market's news index and how many articles the market shows. */
export type NewsPage = { articles: NewsSummary[]; total: number }

/**
 * Page `page` of the news index of a market (`scope`: its site, or `*`) in `locale`, `perPage` articles newest first,
 * and the total, reading the page's own articles: from the page's mark in `news_page_marks` (migration 0029) a seek
 * through `news_by_locale_newest`, never an OFFSET over the pages before it. A page asked for the first time since
 * the locale's news last changed starts from the nearest mark below it (page 1: the start, with a count) and leaves
 * its own mark; every write to the locale's news forgets its marks (the table's triggers). The same articles as
 * `LIMIT perPage OFFSET (page - 1) * perPage` (decision 070).
 */
export async function newsPage(
  db: D1Database,
  locale: string,
  scope: string,
  page: number,
  perPage: number,
): Promise<NewsPage> {
  const below = await db
    .prepare(
      `SELECT page, published_at, id, total FROM news_page_marks
        WHERE scope = ? AND locale = ? AND per_page = ? AND page <= ? ORDER BY page DESC LIMIT 1`,
    )
    .bind(scope, locale, perPage, page)
    .first<Mark>()
  if (below && (page - 1) * perPage >= below.total && page > 1) return { articles: [], total: below.total }
  if (below?.page === page) {
    const { results } = await db
      .prepare(`${SUMMARY} WHERE ${SHOWN} AND ${FROM_MARK} ${NEWEST} LIMIT ?5`)
      .bind(locale, scope, below.published_at, below.id, perPage)
      .all<NewsSummary>()
    return { articles: results, total: below.total }
  }
  const skip = (page - (below?.page ?? 1)) * perPage
  const [rows, count] = below
    ? [
        await db
          .prepare(`${SUMMARY} WHERE ${SHOWN} AND ${FROM_MARK} ${NEWEST} LIMIT ?5 OFFSET ?6`)
          .bind(locale, scope, below.published_at, below.id, perPage, skip)
          .all<NewsSummary>(),
        below.total,
      ]
    : await Promise.all([
        db
          .prepare(`${SUMMARY} WHERE ${SHOWN} ${NEWEST} LIMIT ?3 OFFSET ?4`)
          .bind(locale, scope, perPage, skip)
          .all<NewsSummary>(),
        db
          .prepare(`SELECT COUNT(*) AS total FROM news WHERE ${SHOWN}`)
          .bind(locale, scope)
          .first<{ total: number }>()
          .then((row) => row?.total ?? 0),
      ])
  const first = rows.results[0]
  if (first) {
    await db
      .prepare(
        `INSERT OR REPLACE INTO news_page_marks (scope, locale, per_page, page, published_at, id, total)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(scope, locale, perPage, page, first.published_at, first.id, count)
      .run()
  }
  return { articles: rows.results, total: count }
}
