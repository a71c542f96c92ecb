import type { ReadOptions, Upstream } from '../client'
import { contentPageAnswer, seoAnswer } from '../../../contract/schemas'
import { translationsAnswer } from '../readers/translations'
import { dataOf, segment } from './answers'

/**
 * A market's texts: its translations, its content pages and the SEO records of its models.
 *
 * @example
 * const page = await contentCalls(marketClient, market).page('about-us')
 */
export const contentCalls = (client: Upstream, market: { country: string; locale: string }) => ({
  /** `GET api/country-wise-locale-content/{country}/{locale}`: the UI texts (nested or flat dotted keys). */
  messages: (options?: ReadOptions) =>
    dataOf(
      client.get(
        `country-wise-locale-content/${segment(market.country)}/${segment(market.locale)}`,
        translationsAnswer,
        options,
      ),
    ),
  /** `GET api/front/pages/{key}`: a content page by its pageLinks key. */
  page: (key: string, options?: ReadOptions) =>
    dataOf(client.get(`front/pages/${segment(key)}`, contentPageAnswer, options)),
  /** `GET api/front/seo/{model_id}/{model_type}`: a model's SEO record. */
  seo: (modelType: string, modelId: string | number, options?: ReadOptions) =>
    dataOf(client.get(`front/seo/${segment(modelId)}/${segment(modelType)}`, seoAnswer, options)),
})
