import type { Lookups } from '../cache/lookups'
import type { SeoRecord } from '../upstream/schemas'

/** Model types that carry their own SEO fields: never looked up through the SEO call. */
const OWN_SEO = new Set(['Product', 'Post'])

/** The SEO record of a model, or null (missing, not looked up for Product and Post, or the lookup failed). */
export async function modelSeo(
  lookups: Lookups,
  country: string,
  locale: string,
  modelType: string,
  modelId: number | string,
): Promise<SeoRecord | null> {
  if (OWN_SEO.has(modelType)) return null
  return lookups.seo(country, locale, modelType, modelId).catch(() => null)
}

/** The SEO record of a content page by its key. */
export async function pageSeo(lookups: Lookups, country: string, locale: string, pageKey: string): Promise<SeoRecord | null> {
  const page = await lookups.page(country, locale, pageKey).catch(() => null)
  return page ? modelSeo(lookups, country, locale, 'Page', page.id) : null
}
