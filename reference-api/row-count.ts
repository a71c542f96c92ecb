import type { D1Rows } from '../contract/d1-rows'

/** The real statement behind a counted one: a batch hands D1 its own statements. */
const underlying = new WeakMap<D1PreparedStatement, D1PreparedStatement>()

const add = <R extends D1Result<unknown>>(rows: D1Rows, result: R): R => {
  rows.read += result.meta?.rows_read ?? 0
  rows.written += result.meta?.rows_written ?? 0
  return result
}

/**
 * A statement whose results add their rows read and written to `rows`. `first` runs as `all` and answers the first
 * row (what D1's own `first` does: it does not add a `LIMIT`), so its metadata is counted too; `raw` is not counted
 * (nothing in the API uses it).
 */
function countedStatement(statement: D1PreparedStatement, rows: D1Rows): D1PreparedStatement {
  const counted: D1PreparedStatement = {
    bind: (...values: unknown[]) => countedStatement(statement.bind(...values), rows),
    run: async <T>() => add(rows, await statement.run<T>()),
    all: async <T>() => add(rows, await statement.all<T>()),
    first: (async (column?: string) => {
      const row = add(rows, await statement.all<Record<string, unknown>>()).results[0]
      if (row === undefined) return null
      return column === undefined ? row : (row[column] ?? null)
    }) as D1PreparedStatement['first'],
    raw: statement.raw.bind(statement) as D1PreparedStatement['raw'],
  }
  underlying.set(counted, statement)
  return counted
}

/**
 * The API's database for one call, every statement's and batch's rows read and written added to `rows` (the site
 * request's tally: reference-api/row-count.ts is the one place that reads D1's metadata for it). Cheap: one object per
 * call and per statement, no copy of any result.
 *
 * @example
 * api.fetch(request, { ...env, DB: countingRows(env.DB, rows) }, ctx)
 */
export function countingRows(db: D1Database, rows: D1Rows): D1Database {
  return {
    prepare: (query: string) => countedStatement(db.prepare(query), rows),
    batch: async <T>(statements: D1PreparedStatement[]) => {
      const results = await db.batch<T>(statements.map((statement) => underlying.get(statement) ?? statement))
      for (const result of results) add(rows, result)
      return results
    },
    exec: (query: string) => db.exec(query),
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  } as D1Database
}

/**
 * The API's environment for one in-process call with its database counting into the site request's `rows`, or as it
 * is when the call brings no tally.
 *
 * @example
 * api.fetch(request, withRowCount(env, rows), ctx)
 */
export const withRowCount = <E extends { DB: D1Database }>(env: E, rows: D1Rows | undefined): E =>
  rows ? { ...env, DB: countingRows(env.DB, rows) } : env
