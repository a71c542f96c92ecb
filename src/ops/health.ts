import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'

/** `GET /_health`: the Worker answers, and says which upstream it speaks to (never its address). */
export function health(c: Context<AppEnv>): Response {
  return c.json(
    { status: 'ok', upstream: configOf(c.env).upstream.kind },
    200,
    { 'Cache-Control': 'no-store' },
  )
}
