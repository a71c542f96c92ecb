import type { Config } from '../config'
import { TURNSTILE_ORIGIN } from '../forms/human-check'

/**
 * What a page is, as far as its policy goes: the dealer locator shows map tiles; a lead form may show Turnstile's
 * widget (a frame of its own); error pages run no script at all.
 */
export type PageKind = 'page' | 'dealer-locator' | 'form' | 'error'

/** A fresh nonce for one answer's scripts. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

/**
 * The one Content-Security-Policy builder, for one answer: scripts only with that answer's nonce (and what they load,
 * `strict-dynamic`), styles and fonts from this site; images from this site, the brand's API host (content may point
 * there) and, on the dealer locator only, the map's tile server; frames only Turnstile's, on lead forms when it is
 * configured; nothing may frame the page.
 *
 * @example
 * headers.set('Content-Security-Policy', contentSecurityPolicy({ nonce, kind: 'page', config }))
 */
export function contentSecurityPolicy({ nonce, kind, config }: { nonce: string; kind: PageKind; config: Config }): string {
  const images = [
    "'self'",
    'data:',
    config.upstream.kind === 'http' ? config.upstream.origin : null,
    kind === 'dealer-locator' ? (config.mapTiles?.origin ?? null) : null,
  ].filter(Boolean)
  return [
    "default-src 'self'",
    kind === 'error' ? "script-src 'none'" : `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self'",
    `img-src ${images.join(' ')}`,
    "font-src 'self'",
    "connect-src 'self'",
    ...(kind === 'form' && config.turnstileSiteKey ? [`frame-src ${TURNSTILE_ORIGIN}`] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** The policy of an HTML answer that did not make its own (none should): nothing runs, nothing loads. */
export const FALLBACK_POLICY = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
