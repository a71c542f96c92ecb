import type { MarketApi } from '../cache/lookups'
import type { SeoRecord } from '../../contract/schemas'

/** Model types that carry their own SEO fields: never looked up through the SEO call. */
const OWN_SEO = new Set(['Product', 'Post'])

/** The SEO record of a model in the market, or null (missing, not looked up for Product and Post, or the lookup failed). */
export async function modelSeo(api: MarketApi, modelType: string, modelId: number | string): Promise<SeoRecord | null> {
  if (OWN_SEO.has(modelType)) return null
  return api.content.seo(modelType, modelId).catch(() => null)
}

/** The SEO record of a content page by its key. */
export async function pageSeo(api: MarketApi, pageKey: string): Promise<SeoRecord | null> {
  const page = await api.content.page(pageKey).catch(() => null)
  return page ? modelSeo(api, 'Page', page.id) : null
}
