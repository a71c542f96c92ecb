import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'

/**
 * `GET /_health`: the Worker answers, and says which upstream it speaks to (never its address); 503 when its
 * `UPSTREAM_URL` is malformed or its `PUBLIC_ORIGIN` missing.
 */
export function health(c: Context<AppEnv>): Response {
  const config = configOf(c.env)
  const upstream = config.upstream.kind
  const healthy = upstream !== 'invalid' && config.publicOrigin !== null
  return c.json(
    { status: healthy ? 'ok' : 'misconfigured', upstream, publicOrigin: config.publicOrigin !== null },
    healthy ? 200 : 503,
  )
}
