import type { PageMeta } from '../contract/schemas'
import { type ApiContext, badPaging, badParameter, pageParams } from './context'

/** A date of a list's filter: `YYYY-MM-DD`, a real month and day. */
const DATE = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/

/** A page of a list: which, how many rows, and how many to skip. */
export type Paging = { page: number; perPage: number; offset: number }

/** What every console list is narrowed by (submissions, orders): its page, market and dates (UTC, inclusive). */
export type StaffListQuery = { paging: Paging; site?: string; from?: string; to?: string }

/**
 * Reads a console list's paging, `site`, `from` and `to`; a 422 naming the first one malformed. The list checks its
 * own further filters after these.
 *
 * @example
 * const query = staffListQuery(c, 25)
 * if (query instanceof Response) return query
 */
export function staffListQuery(c: ApiContext, pageSize: number): StaffListQuery | Response {
  const paging = pageParams(c, pageSize)
  if (!paging) return badPaging(c)
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
 * One page of a list and its meta, read in one batch: the page's rows (its statement binds the paging's LIMIT and
 * OFFSET) and the count of all the rows (`SELECT COUNT(*) AS total`).
 */
export async function listPage<Row>(
  c: ApiContext,
  paging: Paging,
  rows: D1PreparedStatement,
  count: D1PreparedStatement,
): Promise<{ data: Row[]; meta: PageMeta }> {
  const [page, counted] = await c.env.DB.batch([rows, count])
  const total = ((counted?.results ?? [])[0] as { total: number } | undefined)?.total ?? 0
  return {
    data: (page?.results ?? []) as Row[],
    meta: { page: paging.page, per_page: paging.perPage, total },
  }
}
