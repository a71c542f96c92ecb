import { type ApiContext, MAX_PER_PAGE } from './context'

/**
 * Where a list read newest first continues (docs/decisions/068): the sort value and the id of the last row of the page
 * before. The next page is the rows strictly before it in `(sort value, id)` order, so rows with equal times are
 * neither repeated nor skipped, and the database seeks to it through the list's index instead of skipping an OFFSET.
 */
export type Cursor = { at: string; id: number }

/** A sort value a cursor may carry: an ISO time (`2026-11-27T10:00:00.000Z`) or, for a list by id alone, nothing. */
const SORT_VALUE = /^([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?Z?)?$/

/** The opaque text of a cursor (base64url of `at|id`), as `meta.next_cursor` answers it. */
export function cursorText({ at, id }: Cursor): string {
  return btoa(`${at}|${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** A cursor's text read back, or null when it is not one this API gave (forged, cut, another list's). */
export function readCursor(text: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{2,80}$/.test(text)) return null
  let plain: string
  try {
    plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  } catch {
    return null
  }
  const match = /^([^|]*)\|([1-9][0-9]{0,15})$/.exec(plain)
  if (!match || !SORT_VALUE.test(match[1] as string)) return null
  const id = Number(match[2])
  return Number.isSafeInteger(id) ? { at: match[1] as string, id } : null
}

/** A keyset page's request: its size and where it starts (null: at the newest). */
export type KeysetPaging = { perPage: number; after: Cursor | null }

/**
 * Reads `cursor` (absent or empty: the first page) and `per_page` (at most MAX_PER_PAGE): a 400 when the cursor is not
 * one this API gave, a 422 when the size is malformed.
 *
 * @example
 * const paging = keysetParams(c, 25)
 * if (paging instanceof Response) return paging
 */
export function keysetParams(c: ApiContext, perPage: number): KeysetPaging | Response {
  const size = c.req.query('per_page')
  const wanted = size === undefined ? perPage : /^[1-9][0-9]{0,2}$/.test(size) ? Number(size) : 0
  if (wanted < 1 || wanted > MAX_PER_PAGE)
    return c.json({ message: `per_page must be a whole number from 1 to ${MAX_PER_PAGE}` }, 422)
  const text = c.req.query('cursor') ?? ''
  if (text === '') return { perPage: wanted, after: null }
  const after = readCursor(text)
  return after ? { perPage: wanted, after } : c.json({ message: 'cursor is not one this list gave' }, 400)
}

/**
 * A keyset page from the rows read (one more than the page holds, to know whether another follows): the page's rows
 * and the cursor of the next page, or null at the end.
 */
export function keysetPage<Row>(rows: Row[], perPage: number, cursorOf: (row: Row) => Cursor) {
  const data = rows.slice(0, perPage)
  const last = data.at(-1)
  return { data, next_cursor: rows.length > perPage && last ? cursorText(cursorOf(last)) : null }
}

/**
 * The SQL condition of a keyset page over `(sort column, id column)` newest first (or, `ascending`, oldest first), and
 * what it binds; none on the first page. A list by id alone passes no sort column.
 */
export function before(
  after: Cursor | null,
  idColumn: string,
  sortColumn?: string,
  ascending = false,
): [string, unknown[]] | null {
  if (!after) return null
  const past = ascending ? '>' : '<'
  return sortColumn
    ? [`(${sortColumn}, ${idColumn}) ${past} (?, ?)`, [after.at, after.id]]
    : [`${idColumn} ${past} ?`, [after.id]]
}
