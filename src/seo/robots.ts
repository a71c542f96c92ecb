import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { AppEnv } from '../env'

/** `GET /robots.txt`: everything public may be crawled; the API, the account, checkout and operator paths not. */
export function robots(c: Context<AppEnv>): Response {
  const lines = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /_',
    'Disallow: /login',
    'Disallow: /*/my-account',
    'Disallow: /*/checkout/',
    'Disallow: /*/update-password/',
    'Disallow: /*/whistleblower-form',
  ]
  c.var.caching.allow(Caching.hour)
  return c.text(`${lines.join('\n')}\n`)
}
