import type { Context } from 'hono'
import type { MarketEnv } from '../env'
import type { Discipline, ProductSummary } from '../../contract/catalogue-schemas'

/**
 * The first page of the market's products of the categories a query names ("bici da corsa": the road bikes), in the
 * listing's own order with their prices: one page of the listing filtered by the backend (`api.catalogue.listing`),
 * never the whole catalogue (docs/decisions/061 and 077). None when the query names no category.
 *
 * @example
 * const named = await namedProducts(c, ['road'], 10) // the first ten road bikes of the market
 */
export async function namedProducts(
  c: Context<MarketEnv>,
  disciplines: readonly Discipline[],
  count: number,
): Promise<ProductSummary[]> {
  if (disciplines.length === 0) return []
  const params = new URLSearchParams(disciplines.map((discipline) => ['discipline', discipline]))
  params.set('per_page', String(count))
  return (await c.var.api.catalogue.listing(params)).products.slice(0, count)
}
