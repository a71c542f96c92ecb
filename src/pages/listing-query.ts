import { pageNumber } from '../components/pagination'
import { minorUnitDigits } from '../i18n/formats'
import type { CurrencyCode } from '../../contract/schemas'
import {
  DISCIPLINES,
  type Discipline,
  FRAME_MATERIALS,
  type FrameMaterial,
  LISTING_SORTS,
  type ListingFacets,
  type ListingSort,
  type ProductSummary,
} from '../../contract/catalogue-schemas'

/** How many products a page of a listing shows. */
export const LISTING_PER_PAGE = 24

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
  /** The page of the listing, from 1 (a malformed number reads as 1). */
  page: number
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
  page: 'page',
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
    page: pageNumber(params.get(LISTING_PARAMS.page) ?? undefined) ?? 1,
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
 * A page of a listing with its total and facet counts, as the backend's filtered listing answers it (`meta.facets`):
 * each value the listing has at all, counted given the other filters.
 */
export type ListingPage = { products: ProductSummary[]; total: number; facets: ListingFacets }

/**
 * The API's query of a listing (`api/front/products`): the type, the filters (prices in minor units), the order and
 * the page.
 */
export function listingParams(query: ListingQuery, type: string | undefined): URLSearchParams {
  const params = new URLSearchParams()
  if (type !== undefined) params.set('type', type)
  for (const value of query.disciplines) params.append('discipline', value)
  for (const value of query.materials) params.append('material', value)
  if (query.eBike) params.set('ebike', query.eBike)
  if (query.minPrice !== null) params.set('min', String(query.minPrice))
  if (query.maxPrice !== null) params.set('max', String(query.maxPrice))
  if (query.inStock) params.set('stock', '1')
  if (query.sort !== 'featured') params.set('sort', query.sort)
  params.set('page', String(query.page))
  params.set('per_page', String(LISTING_PER_PAGE))
  return params
}

/**
 * A listing's page from every product of it, for a backend that does not filter (its list is short: docs/decisions/069):
 * filtered, ordered, paged and counted here as the embedded API does it.
 */
export function pageOfList(products: ProductSummary[], query: ListingQuery): ListingPage {
  const kept = applyListingQuery(products, query)
  const count = (change: Partial<ListingQuery>, keep: (product: ProductSummary) => boolean = () => true) =>
    applyListingQuery(products, { ...query, ...change }).filter(keep).length
  const counted = <T extends string>(
    values: readonly T[],
    of: (product: ProductSummary) => string | null | undefined,
    change: Partial<ListingQuery>,
  ) =>
    Object.fromEntries(
      values
        .filter((value) => products.some((product) => of(product) === value))
        .map((value) => [value, count(change, (product) => of(product) === value)]),
    )
  const electric = (product: ProductSummary) => (product.e_bike ? 'yes' : 'no')
  const start = (query.page - 1) * LISTING_PER_PAGE
  return {
    products: kept.slice(start, start + LISTING_PER_PAGE),
    total: kept.length,
    facets: {
      discipline: counted(DISCIPLINES, (product) => product.discipline, { disciplines: [] }),
      material: counted(FRAME_MATERIALS, (product) => product.frame_material, { materials: [] }),
      ebike: counted(['yes', 'no'], electric, { eBike: null }),
      stock: count({ inStock: false }, (product) => product.in_stock),
    },
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
  if (query.page > 1) params.set(LISTING_PARAMS.page, String(query.page))
  const search = params.toString()
  return search ? `?${search}` : ''
}

/** The same query without any filter: what "clear filters" leads to (the order stays, from the first page). */
export const withoutFilters = (query: ListingQuery): ListingQuery => ({
  ...query,
  page: 1,
  disciplines: [],
  materials: [],
  eBike: null,
  minPrice: null,
  maxPrice: null,
  minText: '',
  maxText: '',
  inStock: false,
})
