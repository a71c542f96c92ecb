import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { configOf } from '../config'
import type { AppEnv } from '../env'

/**
 * `GET /robots.txt`: everything public may be crawled; the API, the Worker's own paths (`/_…`: the console, the
 * pickers' and the consent's forms), login, the account, checkout, the cart, search and the whistleblower channel not.
 * Names the sitemap index, on the public origin (none without one).
 */
export function robots(c: Context<AppEnv>): Response {
  const origin = configOf(c.env).publicOrigin
  const lines = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /_',
    'Disallow: /login',
    'Disallow: /*/my-account',
    'Disallow: /*/checkout',
    'Disallow: /*/cart',
    'Disallow: /*/search/',
    'Disallow: /*/update-password/',
    'Disallow: /*/whistleblower-form',
    ...(origin ? ['', `Sitemap: ${origin}/sitemap.xml`] : []),
  ]
  c.var.caching.allow(Caching.hour)
  return c.text(`${lines.join('\n')}\n`)
}
