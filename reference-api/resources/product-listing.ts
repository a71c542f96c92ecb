import {
  DISCIPLINES,
  FRAME_MATERIALS,
  LISTING_SORTS,
  type ListingFacets,
  type ListingSort,
} from '../../contract/catalogue-schemas'
import type { ApiContext } from '../context'

/** What a listing's query string narrows it to (prices in minor units of the market's currency, inclusive). */
export type ListingFilter = {
  type: string | null
  disciplines: string[]
  materials: string[]
  electric: 0 | 1 | null
  min: number | null
  max: number | null
  inStock: boolean
  sort: ListingSort
}

/** The parameter a listing's query names wrongly, with what it expects. */
export type ListingRefusal = { name: string; expected: string }

const SLUG = /^[a-z0-9-]{1,80}$/
const AMOUNT = /^\d{1,12}$/

/**
 * Reads `type`, `discipline` (repeated), `material` (repeated), `ebike` (`yes`/`no`), `min`/`max` (minor units),
 * `stock` (`1`) and `sort`. Unlike the Worker's reading of a visitor's address, a caller's wrong value is refused.
 */
export function readListingFilter(c: ApiContext): ListingFilter | ListingRefusal {
  const type = c.req.query('type') ?? null
  if (type !== null && !SLUG.test(type)) return { name: 'type', expected: 'a product type slug' }
  const disciplines = c.req.queries('discipline') ?? []
  if (disciplines.some((value) => !(DISCIPLINES as readonly string[]).includes(value)))
    return { name: 'discipline', expected: DISCIPLINES.join(', ') }
  const materials = c.req.queries('material') ?? []
  if (materials.some((value) => !(FRAME_MATERIALS as readonly string[]).includes(value)))
    return { name: 'material', expected: FRAME_MATERIALS.join(', ') }
  const ebike = c.req.query('ebike')
  if (ebike !== undefined && ebike !== 'yes' && ebike !== 'no') return { name: 'ebike', expected: 'yes or no' }
  const bound = (name: 'min' | 'max') => {
    const text = c.req.query(name)
    return text === undefined ? null : AMOUNT.test(text) ? Number(text) : Number.NaN
  }
  const min = bound('min')
  const max = bound('max')
  if (Number.isNaN(min)) return { name: 'min', expected: 'a whole number of minor units' }
  if (Number.isNaN(max)) return { name: 'max', expected: 'a whole number of minor units' }
  const stock = c.req.query('stock')
  if (stock !== undefined && stock !== '1' && stock !== '0') return { name: 'stock', expected: '1 or 0' }
  const sort = c.req.query('sort') ?? 'featured'
  const known = LISTING_SORTS.find((value) => value === sort)
  if (!known) return { name: 'sort', expected: LISTING_SORTS.join(', ') }
  return {
    type,
    disciplines: [...new Set(disciplines)],
    materials: [...new Set(materials)],
    electric: ebike === undefined ? null : ebike === 'yes' ? 1 : 0,
    min,
    max,
    inStock: stock === '1',
    sort: known,
  }
}

/** A statement's text with its arguments, numbered from `first` (`?1`, `?2` are the locale and the market). */
type Clause = { sql: string; args: unknown[] }

/** The filters a facet's counts keep: every one but the facet's own. */
type Facet = 'discipline' | 'material' | 'ebike' | 'stock' | null

/**
 * The WHERE clause of a listing (without the facet's own filter): over `product_listings` or its counts (the counts
 * store "none" as ''), the market being `?2`, arguments numbered from `?3`.
 */
function where(filter: ListingFilter, without: Facet, prices: boolean): Clause {
  const parts = ['site = ?2']
  const args: unknown[] = []
  const arg = (value: unknown) => {
    args.push(value)
    return `?${args.length + 2}`
  }
  if (filter.type !== null) parts.push(`type_id = (SELECT id FROM product_types WHERE slug = ${arg(filter.type)})`)
  // One discipline by equality, so that its order's index with the discipline (migration 0031) serves the page.
  const [only] = filter.disciplines
  if (without !== 'discipline' && filter.disciplines.length === 1) parts.push(`discipline = ${arg(only)}`)
  else if (without !== 'discipline' && filter.disciplines.length)
    parts.push(`discipline IN (SELECT value FROM json_each(${arg(JSON.stringify(filter.disciplines))}))`)
  if (without !== 'material' && filter.materials.length)
    parts.push(`frame_material IN (SELECT value FROM json_each(${arg(JSON.stringify(filter.materials))}))`)
  if (without !== 'ebike' && filter.electric !== null) parts.push(`electric = ${arg(filter.electric)}`)
  if (without !== 'stock' && filter.inStock) parts.push('in_stock = 1')
  if (prices && filter.min !== null) parts.push(`price >= ${arg(filter.min)}`)
  if (prices && filter.max !== null) parts.push(`price <= ${arg(filter.max)}`)
  return { sql: parts.join(' AND '), args }
}

/** Each order's ORDER BY over `product_listings` (as `l` when named), ties in the brand's order. */
export function listingOrder(sort: ListingSort, as = ''): string {
  const brand = `${as}type_position, ${as}featured DESC, ${as}position, ${as}product_id`
  const orders: Record<ListingSort, string> = {
    featured: brand,
    'price-asc': `${as}price, ${brand}`,
    'price-desc': `${as}price DESC, ${brand}`,
    // Newest first; a product without a date after every dated one.
    newest: `${as}released_on IS NULL, ${as}released_on DESC, ${brand}`,
  }
  return orders[sort]
}

/**
 * The index of the listing's order (migrations/0028; with the discipline after the market and type when the listing
 * is one discipline's, migrations/0031), named: without statistics SQLite would take the primary key and sort the
 * market's every row.
 */
const orderIndex = (filter: ListingFilter) =>
  `product_listings_${filter.type === null ? '' : 'type_'}${filter.disciplines.length === 1 ? 'discipline_' : ''}${filter.sort.replace('-', '_')}`

/**
 * The ids of one page of the listing, in its order, as a subquery: `LIMIT`/`OFFSET` over the index of its order, so a
 * page reads its own rows and those before it, never the market's whole catalogue. Arguments from `?3`.
 */
export function pageOfListing(filter: ListingFilter, perPage: number, offset: number): Clause {
  const { sql, args } = where(filter, null, true)
  const n = args.length + 2
  return {
    sql: `SELECT product_id FROM product_listings INDEXED BY ${orderIndex(filter)} WHERE ${sql}
           ORDER BY ${listingOrder(filter.sort)} LIMIT ?${n + 1} OFFSET ?${n + 2}`,
    args: [...args, perPage, offset],
  }
}

/** Whether a listing's counts need its rows (a price bound) rather than the counts kept per market and type. */
const boundByPrice = (filter: ListingFilter) => filter.min !== null || filter.max !== null

/**
 * The statements of a listing's facet counts and total. Without a price bound, one: the market's and type's rows of
 * `product_listing_counts` (one per combination of values, a few dozen whatever the catalogue's size), which
 * `facetsOf` sums per facet. With one, a statement per facet over the filters but its own, counting the listing rows
 * within the prices (read through the price index).
 */
export function facetStatements(filter: ListingFilter): Array<{ facet: Facet; sql: string; args: unknown[] }> {
  if (!boundByPrice(filter)) return [combinations(filter)]
  const statement = (facet: Facet, column: string | null) => {
    const { sql, args } = where(filter, facet, true)
    const value = column ?? "''"
    const group = column ? ` GROUP BY ${column}` : ''
    // D1 refuses a binding its SQL does not use: the locale (`?1`) is named by a no-op.
    const text = `SELECT ${value} AS value, COUNT(*) AS n FROM product_listings WHERE ?1 IS NOT NULL AND ${sql}`
    return { facet, sql: `${text}${group}`, args }
  }
  return [
    statement(null, null),
    statement('discipline', 'discipline'),
    statement('material', 'frame_material'),
    statement('ebike', 'electric'),
    { ...statement('stock', null), sql: `${statement('stock', null).sql} AND in_stock = 1` },
    present(filter),
  ]
}

/** The listing's market and type alone, whatever its other filters. */
const marketAndType = (filter: ListingFilter): ListingFilter => ({
  ...filter,
  disciplines: [],
  materials: [],
  electric: null,
  min: null,
  max: null,
  inStock: false,
})

/**
 * The values the listing has at all, whatever its filters (a value none of its products has is not offered; one
 * the other filters leave no product of is offered with 0): the combinations kept for the market and type.
 */
function present(filter: ListingFilter): { facet: Facet; sql: string; args: unknown[] } {
  const { sql, args } = where(marketAndType(filter), null, false)
  return {
    facet: null,
    sql: `SELECT DISTINCT discipline, frame_material AS material, electric FROM product_listing_counts
           WHERE ?1 IS NOT NULL AND ${sql}`,
    args,
  }
}

/** The combinations of values kept for the listing's market and type, each with its count. */
function combinations(filter: ListingFilter): { facet: Facet; sql: string; args: unknown[] } {
  const { sql, args } = where(marketAndType(filter), null, false)
  return {
    facet: null,
    sql: `SELECT discipline, frame_material AS material, electric, in_stock, n FROM product_listing_counts
           WHERE ?1 IS NOT NULL AND ${sql}`,
    args,
  }
}

type CountRow = { value: string | number | null; n: number | null }
type PresentRow = { discipline: string; material: string; electric: number }
type CombinationRow = PresentRow & { in_stock: number; n: number }

/**
 * The six answers of the per-facet statements, made from the combinations: for each facet, the combinations the
 * other filters keep, summed per value of the facet (the counts store "none" as '', which no filter names).
 */
function countsOf(combinations: CombinationRow[], filter: ListingFilter): Array<CountRow[] | PresentRow[]> {
  const keeps = (row: CombinationRow, without: Facet) =>
    (without === 'discipline' || !filter.disciplines.length || filter.disciplines.includes(row.discipline)) &&
    (without === 'material' || !filter.materials.length || filter.materials.includes(row.material)) &&
    (without === 'ebike' || filter.electric === null || row.electric === filter.electric) &&
    (without === 'stock' || !filter.inStock || row.in_stock === 1)
  const summed = (without: Facet, value: (row: CombinationRow) => string | number) => {
    const sums = new Map<string | number, number>()
    for (const row of combinations) if (keeps(row, without)) sums.set(value(row), (sums.get(value(row)) ?? 0) + row.n)
    return [...sums].map(([key, n]) => ({ value: key, n }))
  }
  const inStock = combinations
    .filter((row) => row.in_stock === 1 && keeps(row, 'stock'))
    .reduce((sum, row) => sum + row.n, 0)
  return [
    summed(null, () => ''),
    summed('discipline', (row) => row.discipline),
    summed('material', (row) => row.material),
    summed('ebike', (row) => row.electric),
    [{ value: '', n: inStock }],
    combinations,
  ]
}

/**
 * The facet statements' rows (`facetStatements(filter)`'s, in their order) as the answer's `meta.facets` (each value
 * the listing has, with its count given the other filters), and the total.
 */
export function facetsOf(
  answers: Array<Array<CountRow | PresentRow | CombinationRow>>,
  filter: ListingFilter,
): { total: number; facets: ListingFacets } {
  const rows = boundByPrice(filter) ? answers : countsOf((answers[0] ?? []) as CombinationRow[], filter)
  const [total, disciplines, materials, electric, stock, present] = rows as [
    CountRow[]?,
    CountRow[]?,
    CountRow[]?,
    CountRow[]?,
    CountRow[]?,
    PresentRow[]?,
  ]
  const has = (column: 'discipline' | 'material' | 'electric') =>
    new Set((present ?? []).map((row) => String(row[column])))
  const counted = (list: CountRow[] | undefined, keys: readonly string[], kept: Set<string>) =>
    Object.fromEntries(
      keys.filter((key) => kept.has(key)).map((key) => [key, list?.find((row) => String(row.value) === key)?.n ?? 0]),
    )
  const ebike = counted(electric, ['1', '0'], has('electric'))
  return {
    total: total?.[0]?.n ?? 0,
    facets: {
      discipline: counted(disciplines, DISCIPLINES, has('discipline')),
      material: counted(materials, FRAME_MATERIALS, has('material')),
      ebike: Object.fromEntries(
        Object.entries({ yes: ebike['1'], no: ebike['0'] }).filter(([, n]) => n !== undefined),
      ) as Record<string, number>,
      stock: stock?.[0]?.n ?? 0,
    },
  }
}

/** Whether a reading of the query was refused. */
export const isRefusal = (value: ListingFilter | ListingRefusal): value is ListingRefusal => 'expected' in value
