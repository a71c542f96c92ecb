import type { ReadOptions, Upstream } from '../client'
import {
  type ListingFacets,
  type ProductSummary,
  productAnswer,
  productListAnswer,
  productListingAnswer,
  productTypesAnswer,
} from '../../../contract/catalogue-schemas'
import { menuAnswer } from '../../../contract/schemas'
import { dataOf, listOf, query, segment } from './answers'

/** Every product of a type fits one answer: a type has far fewer products than this. */
const PRODUCTS_OF_A_TYPE = 50

/**
 * The market's catalogue: the product menu, the types it sells, their products (priced in the market) and one product.
 *
 * @example
 * const product = await catalogueCalls(marketClient).product('aurora-road-pro')
 */
export const catalogueCalls = (client: Upstream) => ({
  /** `GET api/front/menu/products?type_id=N`: the header's product menu. */
  menu: (typeId: number, options?: ReadOptions) =>
    listOf(client.get(`front/menu/products${query({ type_id: typeId })}`, menuAnswer, options)),
  /** `GET api/front/product-types`: the types the market sells. */
  types: (options?: ReadOptions) => listOf(client.get('front/product-types', productTypesAnswer, options)),
  /**
   * `GET api/front/products?type=&per_page=`: every product of a type the market sells, or its first `count` in the
   * brand's order (a backend that does not page answers them all; the caller keeps what it shows).
   */
  products: (type: string, options?: ReadOptions, count = PRODUCTS_OF_A_TYPE) =>
    listOf(client.get(`front/products${query({ type, per_page: count })}`, productListAnswer, options)),
  /**
   * `GET api/front/products?type=&discipline=&material=&ebike=&min=&max=&stock=&sort=&page=&per_page=`: a page of a
   * listing filtered and ordered by the backend, with the total and the facet counts; `facets` null when the backend
   * does not filter (it answered without them: docs/decisions/069).
   */
  listing: async (params: URLSearchParams, options?: ReadOptions): Promise<ListingAnswer> => {
    const answer = await client.get(`front/products?${params}`, productListingAnswer, options)
    return { products: answer?.data ?? [], total: answer?.meta.total ?? 0, facets: answer?.meta.facets ?? null }
  },
  /** `GET api/front/products/{slug}`: a product the market sells, or null. */
  product: (slug: string, options?: ReadOptions) =>
    dataOf(client.get(`front/products/${segment(slug)}`, productAnswer, options)),
})

/** A page of a listing as the backend answered it. */
export type ListingAnswer = { products: ProductSummary[]; total: number; facets: ListingFacets | null }
