import type { MiddlewareHandler } from 'hono'
import { ErrorMessages, PageError } from '../errors/page-error'

/**
 * Refuses a state-changing request that another site made the browser send (cross-site request forgery, login
 * CSRF included): the browser's `Sec-Fetch-Site` must say `same-origin`, or, where it sends none, `Origin` must be
 * this site's. Unlike a check on form content types only, a cross-site `text/plain` post is refused too.
 *
 * @example
 * app.post('/logout', sameOrigin(), logout)
 */
export const sameOrigin = (): MiddlewareHandler => async (c, next) => {
  if (!isSafe(c.req.method)) {
    const site = c.req.header('Sec-Fetch-Site')
    const origin = c.req.header('Origin')
    const allowed = site ? site === 'same-origin' : origin === new URL(c.req.url).origin
    if (!allowed) throw new PageError(403, ErrorMessages.crossSite)
  }
  await next()
}

const isSafe = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
