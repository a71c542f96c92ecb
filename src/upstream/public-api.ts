import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { referenceApiOf } from './reference-api'

/**
 * The embedded reference API as the public `/api/*` serves it: its reads, and only while it is the site's upstream.
 * Calls that change state (login) stay in-process, behind the Worker's own forms and their rate limits.
 */
export function publicApi(c: Context<AppEnv>): Response | Promise<Response> {
  const embedded = configOf(c.env).upstream.kind === 'embedded' ? referenceApiOf(c) : null
  if (!embedded) return c.json({ message: 'Not Found' }, 404)
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
    return c.json({ message: 'Method Not Allowed' }, 405, { Allow: 'GET, HEAD' })
  // Staff calls are the console's alone: leads and the audit trail are not the public's reads, token or not.
  // Nor are carts: a visitor's cart is read through the site's own pages, by the edge that holds its code.
  if (/^\/api\/(?:staff|carts)(?:\/|$)/.test(c.req.path)) return c.json({ message: 'Not Found' }, 404)
  return embedded(c.req.raw)
}
