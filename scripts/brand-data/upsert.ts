/**
 * Upserts by natural key that write nothing when the row already holds the same values: the loader's second run
 * changes no row (and leaves `updated_at` alone), so D1 reports zero rows written.
 */

/** A column's value: a literal, or SQL that finds it (the id behind a slug). */
export type Value = string | number | boolean | null | { sql: string }

/** A value as SQL. */
export function sqlValue(value: Value): string {
  if (value === null) return 'NULL'
  if (typeof value === 'object') return `(${value.sql})`
  if (typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return value ? '1' : '0'
  return `'${value.replaceAll("'", "''")}'`
}

/** The id of a row found by its natural key, as SQL. */
export const idOf = (table: string, column: string, key: string): Value => ({
  sql: `SELECT id FROM ${table} WHERE ${column} = ${sqlValue(key)}`,
})

/**
 * One upsert: inserts `row`, or on a conflict of `keys` updates its other columns where one differs. `touch` names a
 * column set to the time of the write (on insert, and on an update that changes something).
 *
 * @example
 * upsert('products', { slug: 'strada-9', featured: true }, ['slug'], 'updated_at')
 */
export function upsert(table: string, row: Record<string, Value>, keys: string[], touch?: string): string {
  const columns = Object.keys(row)
  const changing = columns.filter((column) => !keys.includes(column))
  const now = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')"
  const names = touch ? [...columns, touch] : columns
  const values = [...columns.map((column) => sqlValue(row[column] ?? null)), ...(touch ? [now] : [])]
  const head = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${values.join(', ')}) ON CONFLICT (${keys.join(', ')})`
  if (!changing.length) return `${head} DO NOTHING;`
  const set = [...changing.map((column) => `${column} = excluded.${column}`), ...(touch ? [`${touch} = ${now}`] : [])]
  const differs = changing.map((column) => `${table}.${column} IS NOT excluded.${column}`).join(' OR ')
  return `${head} DO UPDATE SET ${set.join(', ')} WHERE ${differs};`
}
