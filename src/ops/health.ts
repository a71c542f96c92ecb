import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'

/**
 * `GET /_health`: the Worker answers, and says which upstream it speaks to (never its address); 503 when its
 * `UPSTREAM_URL` is malformed.
 */
export function health(c: Context<AppEnv>): Response {
  const upstream = configOf(c.env).upstream.kind
  const healthy = upstream !== 'invalid'
  return c.json({ status: healthy ? 'ok' : 'misconfigured', upstream }, healthy ? 200 : 503, { 'Cache-Control': 'no-store' })
}
