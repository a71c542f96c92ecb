import { Hono } from 'hono'
import type { SeoRecord } from '../../contract/schemas'
import { seoAnswer } from '../../contract/schemas'
import { type ApiEnv, notFound, positiveInt, respond } from '../context'

export type SeoRow = Omit<SeoRecord, 'model_id'> & { model_id: number; locale: string }

/** A stored SEO record as the contract's entity. */
export function seoRow({ locale: _locale, ...record }: SeoRow): SeoRecord {
  return record
}

/** `GET api/front/seo/{model_id}/{model_type}`: the SEO record of a model in the caller's locale (else English). */
export const seo = new Hono<ApiEnv>().get('/front/seo/:modelId/:modelType', async (c) => {
  const modelId = positiveInt(c.req.param('modelId'))
  const modelType = c.req.param('modelType')
  if (!modelId || !/^[A-Za-z]{1,40}$/.test(modelType)) return notFound(c)
  const row = await c.env.DB.prepare(
    `SELECT * FROM seo_records WHERE model_type = ? AND model_id = ? AND locale IN (?, 'en')
       ORDER BY locale = 'en' LIMIT 1`,
  )
    .bind(modelType, modelId, c.var.locale)
    .first<SeoRow>()
  return row ? respond(c, seoAnswer, { data: seoRow(row) }) : notFound(c)
})
