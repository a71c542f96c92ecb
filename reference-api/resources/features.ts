import { Hono } from 'hono'
import { featuresAnswer } from '../../contract/schemas'
import { type ApiEnv, respond } from '../context'

/** `GET api/get-features`: the brand's features and whether each is on. */
export const features = new Hono<ApiEnv>().get('/get-features', async (c) => {
  const { results } = await c.env.DB.prepare('SELECT key, name, enabled FROM features ORDER BY key').all<{
    key: string
    name: string
    enabled: number
  }>()
  return respond(c, featuresAnswer, { data: results.map((f) => ({ ...f, enabled: f.enabled === 1 })) })
})
