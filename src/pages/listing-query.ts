import { minorUnitDigits } from '../i18n/formats'
import type { CurrencyCode } from '../../contract/schemas'
import {
  DISCIPLINES,
  type Discipline,
  FRAME_MATERIALS,
  type FrameMaterial,
  type ProductSummary,
} from '../../contract/catalogue-schemas'

/** A listing's orders: the brand's own (featured first), by price either way, the newest first. */
export const LISTING_SORTS = ['featured', 'price-asc', 'price-desc', 'newest'] as const
export type ListingSort = (typeof LISTING_SORTS)[number]

/**
 * What a visitor narrowed a listing to, from its query string (`?discipline=road&discipline=gravel&material=carbon
 * &ebike=yes&min=1000&max=3000&stock=1&sort=price-asc`). Prices are typed in whole units of the market's currency and
 * kept here in minor units; the typed text is kept too, to fill the form again.
 */
export type ListingQuery = {
  disciplines: Discipline[]
  materials: FrameMaterial[]
  eBike: 'yes' | 'no' | null
  /** Minor units of the market's currency, inclusive. */
  minPrice: number | null
  maxPrice: number | null
  /** The whole units as the visitor typed them (normalised), for the form. */
  minText: string
  maxText: string
  inStock: boolean
  sort: ListingSort
}

/** The query string's names. */
export const LISTING_PARAMS = {
  discipline: 'discipline',
  material: 'material',
  eBike: 'ebike',
  min: 'min',
  max: 'max',
  stock: 'stock',
  sort: 'sort',
} as const

/** A price bound: whole units (an optional fraction is rounded to the currency's minor unit), at most nine digits. */
const PRICE = /^\s*(\d{1,9})(?:\.(\d{1,6}))?\s*$/

/** The values of a repeated parameter the listing knows, in the listing's order, each once; anything else is ignored. */
const known = <T extends string>(values: string[], allowed: readonly T[]): T[] =>
  allowed.filter((value) => values.includes(value))

function priceBound(text: string | undefined, digits: number): { minor: number; text: string } | null {
  const match = text === undefined ? null : PRICE.exec(text)
  if (!match) return null
  const units = Number(`${match[1]}.${match[2] ?? '0'}`)
  const minor = Math.round(units * 10 ** digits)
  return Number.isSafeInteger(minor) ? { minor, text: String(units) } : null
}

/**
 * Reads a listing's query string. Nothing a browser sends can fail the page: an unknown discipline, material, sort or
 * a price that is not a number is ignored (the listing shows as if it had not been asked), and a minimum above the
 * maximum is read the other way round.
 *
 * @example
 * parseListingQuery(new URLSearchParams('discipline=road&min=abc&sort=price-asc'), 'EUR')
 * // { disciplines: ['road'], minPrice: null, sort: 'price-asc', … }
 */
export function parseListingQuery(params: URLSearchParams, currency: CurrencyCode): ListingQuery {
  const digits = minorUnitDigits(currency)
  let min = priceBound(params.get(LISTING_PARAMS.min) ?? undefined, digits)
  let max = priceBound(params.get(LISTING_PARAMS.max) ?? undefined, digits)
  if (min && max && min.minor > max.minor) [min, max] = [max, min]
  const eBike = params.get(LISTING_PARAMS.eBike)
  const sort = params.get(LISTING_PARAMS.sort)
  return {
    disciplines: known(params.getAll(LISTING_PARAMS.discipline), DISCIPLINES),
    materials: known(params.getAll(LISTING_PARAMS.material), FRAME_MATERIALS),
    eBike: eBike === 'yes' || eBike === 'no' ? eBike : null,
    minPrice: min?.minor ?? null,
    maxPrice: max?.minor ?? null,
    minText: min?.text ?? '',
    maxText: max?.text ?? '',
    inStock: params.get(LISTING_PARAMS.stock) === '1',
    sort: LISTING_SORTS.find((value) => value === sort) ?? 'featured',
  }
}

/** The products the query keeps, in its order. Featured is the API's own order (types, featured first, position). */
export function applyListingQuery(products: ProductSummary[], query: ListingQuery): ProductSummary[] {
  const kept = products.filter(
    (product) =>
      (query.disciplines.length === 0 ||
        (product.discipline != null && query.disciplines.includes(product.discipline))) &&
      (query.materials.length === 0 ||
        (product.frame_material != null && query.materials.includes(product.frame_material))) &&
      (query.eBike === null || product.e_bike === (query.eBike === 'yes')) &&
      (query.minPrice === null || product.price >= query.minPrice) &&
      (query.maxPrice === null || product.price <= query.maxPrice) &&
      (!query.inStock || product.in_stock),
  )
  const order = new Map(products.map((product, index) => [product, index]))
  const byFeatured = (a: ProductSummary, b: ProductSummary) => (order.get(a) ?? 0) - (order.get(b) ?? 0)
  const compare: Record<ListingSort, (a: ProductSummary, b: ProductSummary) => number> = {
    featured: byFeatured,
    'price-asc': (a, b) => a.price - b.price || byFeatured(a, b),
    'price-desc': (a, b) => b.price - a.price || byFeatured(a, b),
    // Newest first; a product without a date after every dated one.
    newest: (a, b) => (b.released_on ?? '').localeCompare(a.released_on ?? '') || byFeatured(a, b),
  }
  return kept.sort(compare[query.sort])
}

/**
 * The filters worth offering on a listing: the disciplines and materials its products have, the e-bike choice when
 * it has both kinds. A filter already applied is always offered, so it can be undone.
 */
export function listingFacets(products: ProductSummary[], query: ListingQuery) {
  const has = <T>(values: Array<T | null | undefined>) => new Set(values.filter((value): value is T => value != null))
  const disciplines = has(products.map((product) => product.discipline))
  const materials = has(products.map((product) => product.frame_material))
  const electric = new Set(products.map((product) => product.e_bike))
  return {
    disciplines: DISCIPLINES.filter((value) => disciplines.has(value) || query.disciplines.includes(value)),
    materials: FRAME_MATERIALS.filter((value) => materials.has(value) || query.materials.includes(value)),
    eBike: electric.size > 1 || query.eBike !== null,
  }
}

/** The query string of a query (parameters in a fixed order, defaults left out), with `?`, or '' when it has none. */
export function listingSearch(query: ListingQuery): string {
  const params = new URLSearchParams()
  for (const value of query.disciplines) params.append(LISTING_PARAMS.discipline, value)
  for (const value of query.materials) params.append(LISTING_PARAMS.material, value)
  if (query.eBike) params.set(LISTING_PARAMS.eBike, query.eBike)
  if (query.minText) params.set(LISTING_PARAMS.min, query.minText)
  if (query.maxText) params.set(LISTING_PARAMS.max, query.maxText)
  if (query.inStock) params.set(LISTING_PARAMS.stock, '1')
  if (query.sort !== 'featured') params.set(LISTING_PARAMS.sort, query.sort)
  const search = params.toString()
  return search ? `?${search}` : ''
}

/** The same query without any filter: what "clear filters" leads to (the order stays). */
export const withoutFilters = (query: ListingQuery): ListingQuery => ({
  ...query,
  disciplines: [],
  materials: [],
  eBike: null,
  minPrice: null,
  maxPrice: null,
  minText: '',
  maxText: '',
  inStock: false,
})
