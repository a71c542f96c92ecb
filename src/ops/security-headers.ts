import type { MiddlewareHandler } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'

const ONE_YEAR = 31_536_000

/** A fresh nonce per request for every inline script of the page. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

/**
 * The Content-Security-Policy of an HTML page: scripts only from this site or with this request's nonce; images also
 * from the brand's API host, whose content may point there, and from the dealer map's tile server.
 */
export function contentSecurityPolicy(nonce: string, imageOrigins: Array<string | null> = []): string {
  const origins = imageOrigins.filter(Boolean).map((origin) => ` ${origin}`).join('')
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self'",
    `img-src 'self' data:${origins}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Sets the nonce for the page and the security headers of every answer; HTML answers also get the CSP.
 *
 * @example
 * app.use(securityHeaders())
 */
export const securityHeaders = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const nonce = createNonce()
  c.set('nonce', nonce)
  await next()
  const headers = c.res.headers
  headers.set('Strict-Transport-Security', `max-age=${ONE_YEAR}; includeSubDomains`)
  headers.set('X-Content-Type-Options', 'nosniff')
  // A page may ask for less (the update-password page, whose URL holds a token, sends no referrer at all).
  if (!headers.has('Referrer-Policy')) headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  headers.set('X-Frame-Options', 'DENY')
  headers.set('Permissions-Policy', 'camera=(), microphone=(), payment=(self), geolocation=(self)')
  headers.set('Cross-Origin-Opener-Policy', 'same-origin')
  if (headers.get('Content-Type')?.startsWith('text/html')) {
    const { upstream, mapTiles } = configOf(c.env)
    headers.set('Content-Security-Policy', contentSecurityPolicy(nonce, [upstream.kind === 'http' ? upstream.origin : null, mapTiles?.origin ?? null]))
  }
}
