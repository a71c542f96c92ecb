import type { CursorMeta } from '../contract/schemas'
import { badParameter, type ApiContext } from './context'
import { before, type Cursor, type KeysetPaging, keysetPage, keysetParams } from './keyset'

/** A date of a list's filter: `YYYY-MM-DD`, a real month and day. */
const DATE = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/

/** What every console list is narrowed by (submissions, orders): its page, market and dates (UTC, inclusive). */
export type StaffListQuery = { paging: KeysetPaging; site?: string; from?: string; to?: string }

/**
 * Reads a console list's keyset paging (`cursor`, `per_page`; docs/decisions/068), `site`, `from` and `to`; a 400 for
 * a cursor this API did not give, a 422 naming the first other one malformed. The list checks its own further filters
 * after these.
 *
 * @example
 * const query = staffListQuery(c, 25)
 * if (query instanceof Response) return query
 */
export function staffListQuery(c: ApiContext, pageSize: number): StaffListQuery | Response {
  const paging = keysetParams(c, pageSize)
  if (paging instanceof Response) return paging
  const { site, from, to } = c.req.query()
  if (site !== undefined && !/^[a-z]{2,3}$/.test(site)) return badParameter(c, 'site', 'a country slug (it, int)')
  if (from !== undefined && !DATE.test(from)) return badParameter(c, 'from', 'a date (YYYY-MM-DD)')
  if (to !== undefined && !DATE.test(to)) return badParameter(c, 'to', 'a date (YYYY-MM-DD)')
  return { paging, site, from, to }
}

/** A list's SQL conditions, joined by AND, and the values they bind in order. */
export function conditions() {
  const where: string[] = []
  const values: unknown[] = []
  return {
    values,
    /** Adds a condition and what its `?` bind. */
    add(sql: string, ...bound: unknown[]) {
      where.push(sql)
      values.push(...bound)
    },
    /** `WHERE …`, or nothing when no condition was added. */
    clause: () => (where.length ? `WHERE ${where.join(' AND ')}` : ''),
  }
}

/**
 * One keyset page of a console list, newest first (or, `soonestFirst`, the smallest sort value first: the open cases
 * by their deadline): `select` is the list's statement up to its WHERE, the conditions its filters (the page's start
 * is added to them), `(sort, id)` its order; one row more than the page is read to know whether another follows. No
 * count: a count reads every row the filters match.
 */
export async function keysetList<Row extends Record<string, unknown>>(
  c: ApiContext,
  paging: KeysetPaging,
  { select, where, sort, id, cursorOf, soonestFirst = false }: KeysetListOptions<Row>,
): Promise<{ data: Row[]; meta: CursorMeta }> {
  const start = before(paging.after, id, sort, soonestFirst)
  if (start) where.add(start[0], ...start[1])
  const direction = soonestFirst ? 'ASC' : 'DESC'
  const order = sort ? `${sort} ${direction}, ${id} ${direction}` : `${id} ${direction}`
  const { results } = await c.env.DB.prepare(`${select} ${where.clause()} ORDER BY ${order} LIMIT ?`)
    .bind(...where.values, paging.perPage + 1)
    .all<Row>()
  const { data, next_cursor } = keysetPage(results, paging.perPage, cursorOf)
  return { data, meta: { per_page: paging.perPage, next_cursor } }
}

export type KeysetListOptions<Row> = {
  select: string
  where: ReturnType<typeof conditions>
  /** The column the list is newest first by; none: by id alone. */
  sort?: string
  id: string
  /** The smallest sort value first (the default: the newest, the largest, first). */
  soonestFirst?: boolean
  /** The cursor after a row: its sort value and id. */
  cursorOf: (row: Row) => Cursor
}
