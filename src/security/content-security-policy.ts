import type { Config } from '../config'
import { TURNSTILE_ORIGIN } from '../forms/human-check'
import type { CspDirective, CspSources } from '../tracking/trackers'

/**
 * What a page is, as far as its policy goes: the dealer locator is no page the page cache keeps; a lead form may show Turnstile's
 * widget (a frame of its own); error pages run no script at all; the whistleblower channel's pages allow no origin
 * but the site's own (not the brand's API host, not Turnstile); the staff console's pages run none and load nothing
 * but this site's stylesheet and images (CONSOLE_POLICY), and so does the embedded test payment provider's page;
 * checkout's forms may lead to the payment provider's hosted page (Stripe's Checkout), whose redirect the browser
 * checks against `form-action`.
 */
export type PageKind =
  | 'page'
  | 'dealer-locator'
  | 'form'
  | 'checkout'
  | 'error'
  | 'whistleblower'
  | 'console'
  | 'test-payment'

/** The staff console's policy: no script at all, nothing from elsewhere, forms only to this site, never framed. */
export const CONSOLE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

/** A fresh nonce for one answer's scripts. */
export function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
}

/**
 * How a page's own scripts are allowed: by the answer's nonce, or (a page the page cache keeps) by the hashes of the
 * inline scripts its components registered; either way with `'strict-dynamic'`, so what those scripts start (the
 * modules of `moduleLoader`, the tag manager) runs and nothing else does.
 */
export type PageScripts = { nonce: string } | { hashes: readonly string[] }

/**
 * The one Content-Security-Policy builder, for one answer: scripts only as `scripts` says; styles from this site and
 * the page's inlined first-paint CSS by its hash (`styles`); fonts from this site; images from this site, the brand's
 * API host (content may point there) and, on a page with the dealers' map whose visitor allowed its street tiles, the
 * tile server (among `sources`: render/respond.ts); frames only Turnstile's (on lead forms, when it is configured)
 * and the allowed trackers';
 * nothing may frame the page. `sources` are the answer's third parties by directive — its market's tag manager and
 * the trackers its visitor allowed (tracking/page-tracking.ts), nothing when the page tracks nothing — and never
 * `'unsafe-inline'` or `'unsafe-eval'`.
 *
 * @example
 * headers.set('Content-Security-Policy', contentSecurityPolicy({ scripts: { nonce }, kind: 'page', config, sources }))
 */
export function contentSecurityPolicy({
  scripts,
  styles = [],
  kind,
  config,
  sources = {},
}: {
  scripts: PageScripts
  /** The hash sources of the page's inline `<style>` (its first paint's CSS, src/render/critical-css.ts). */
  styles?: readonly string[]
  kind: PageKind
  config: Config
  sources?: CspSources
}): string {
  if (kind === 'console' || kind === 'test-payment') return CONSOLE_POLICY
  const extra = (directive: CspDirective) =>
    kind === 'error' || kind === 'whistleblower' ? [] : (sources[directive] ?? [])
  const list = (...items: Array<string | null>) => items.filter(Boolean).join(' ')
  const images = [
    "'self'",
    'data:',
    config.upstream.kind === 'http' && kind !== 'whistleblower' ? config.upstream.origin : null,
    ...extra('img-src'),
  ]
  const turnstile = kind === 'form' && config.turnstileSiteKey ? TURNSTILE_ORIGIN : null
  const frames = [...extra('frame-src'), turnstile].filter((f): f is string => Boolean(f))
  return [
    "default-src 'self'",
    // Host sources beside strict-dynamic count only in browsers without CSP3, which ignore strict-dynamic.
    kind === 'error'
      ? "script-src 'none'"
      : list("script-src 'self'", ...scriptSources(scripts), ...extra('script-src'), turnstile),
    list("style-src 'self'", ...styles),
    `img-src ${list(...images)}`,
    list("font-src 'self'", ...extra('font-src')),
    list("connect-src 'self'", ...extra('connect-src')),
    ...(frames.length ? [list("frame-src 'self'", ...frames)] : []),
    ...(extra('media-src').length ? [list("media-src 'self'", ...extra('media-src'))] : []),
    "object-src 'none'",
    "base-uri 'none'",
    kind === 'checkout' ? list("form-action 'self'", config.paymentPageOrigin) : "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

const scriptSources = (scripts: PageScripts): string[] => [
  ...('nonce' in scripts ? [`'nonce-${scripts.nonce}'`] : scripts.hashes),
  "'strict-dynamic'",
]

/** The policy of an HTML answer that did not make its own (none should): nothing runs, nothing loads. */
export const FALLBACK_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
