import type { MiddlewareHandler } from 'hono'
import { FALLBACK_POLICY } from './content-security-policy'

const ONE_YEAR = 31_536_000

/**
 * The security headers of every answer. Pages bring their own Content-Security-Policy (made with their nonce when
 * the answer is made: `render/respond.ts`); any other HTML gets one that allows nothing.
 *
 * @example
 * app.use(securityHeaders())
 */
export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  await next()
  const headers = c.res.headers
  headers.set('Strict-Transport-Security', `max-age=${ONE_YEAR}; includeSubDomains`)
  headers.set('X-Content-Type-Options', 'nosniff')
  // A page may ask for less (the update-password page, whose URL holds a token, sends no referrer at all).
  if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  headers.set('X-Frame-Options', 'DENY')
  headers.set('Permissions-Policy', 'camera=(), microphone=(), payment=(self), geolocation=(self)')
  headers.set('Cross-Origin-Opener-Policy', 'same-origin')
  if (headers.get('Content-Type')?.startsWith('text/html') && !headers.has('Content-Security-Policy')) {
    headers.set('Content-Security-Policy', FALLBACK_POLICY)
  }
}
