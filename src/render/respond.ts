import type { Context } from 'hono'
import { isbot } from 'isbot'
import { createElement, type ReactElement } from 'react'
import { viewerName } from '../auth/viewer'
import { type AnswerCaching, Caching } from '../cache/answer-caching'
import type { View } from '../components/view'
import { configOf } from '../config'
import type { ErrorStatus } from '../errors/page-error'
import type { AppEnv } from '../env'
import type { Translator } from '../i18n/translator'
import type { Market } from '../market/market'
import { errorName, logEvent } from '../ops/log'
import { loggablePath } from '../ops/request-log'
import { contentSecurityPolicy, createNonce, type PageKind } from '../security/content-security-policy'
import type { MapTiles } from '../tracking/map-tiles'
import { pageTrackingOf, PageTrackingContext, trackingSources } from '../tracking/page-tracking'
import type { CspSources } from '../tracking/trackers'
import type { Deferred } from './deferred'
import { firstPaint, STYLESHEET_SWAP } from './critical-css'
import { inlineScriptHashes, InlineScriptsContext } from './inline-scripts'
import type { KeptPlace } from './kept'
import { carryNotice, takeNotice } from './one-time-notice'
import { renderPage } from './stream'

export type SendOptions = {
  status?: 200 | 409 | 410 | 422 | 429 | ErrorStatus
  deferred?: ReadonlyArray<Deferred<unknown>>
  headers?: Record<string, string>
  /** How the answer may be kept (public pages: `Caching.shared`): every page says; a session lowers it. */
  caching: AnswerCaching
  /** What the page is, for its Content-Security-Policy. */
  kind?: PageKind
  /**
   * `false`: the page loads no tracking at all — no tag manager, no tracker, no consent banner, none of their origins
   * in its CSP (account pages, password pages; later the whistleblower channel, the console, checkout's payment
   * step). Error pages never track. Every other page of a live market does, as its visitor allowed.
   */
  tracking?: false
  /** The street tiles the page's map loads (tracking/map-tiles.ts): their origin in its CSP once allowed. */
  mapTiles?: MapTiles | null
}

/** The view of a page: its translator, market and request details (a `MarketView` when given a market). */
export function viewOf<E extends AppEnv, M extends Market | null>(
  c: Context<E>,
  t: Translator,
  market: M,
  hydrate = true,
): View & { market: M } {
  const url = new URL(c.req.url)
  const viewer = c.get('viewer') ?? null
  return {
    t,
    locale: t.locale,
    dir: t.dir,
    market,
    origin: configOf(c.env).publicOrigin,
    path: url.pathname,
    hydrate,
    viewer: viewer && { name: viewerName(viewer.user) },
    notice: takeNotice(c),
    imageResizing: configOf(c.env).imageResizing,
  }
}

/**
 * Renders a page and answers it; the status and headers are final before the first byte. A page the page cache may
 * keep, rendered whole, allows its own inline scripts by their hashes (the same bytes can be answered again); every
 * other answer, a stream included, carries this answer's nonce. Its caching is what the page allows, lowered by
 * anything personal. Errors after the shell has left are only logged.
 */
export async function sendPage<E extends AppEnv>(
  c: Context<E>,
  page: ReactElement,
  options: SendOptions,
): Promise<Response> {
  const config = configOf(c.env)
  // Made only when the answer carries it: a page rendered whole for the page cache is allowed by hashes instead.
  let nonce: string | undefined
  const nonceOf = () => {
    nonce ??= createNonce()
    return nonce
  }
  const kind = options.kind ?? 'page'
  const status = options.status ?? 200
  const keepable = isKeepable(kind, status, options.caching)
  const tracking = options.tracking === false || kind === 'error' ? null : pageTrackingOf(c)
  // A visitor's choice (or GPC) changes the page (banner, scripts, CSP): shared caches outside may not keep it (the
  // page cache keeps one page per choice).
  if (tracking?.personal) c.get('caching').lower(Caching.personal)
  const inlineScripts = new Set<string>()
  const placed: KeptPlace[] = []
  const tree = createElement(
    InlineScriptsContext.Provider,
    { value: inlineScripts },
    createElement(PageTrackingContext.Provider, { value: tracking }, page),
  )
  const body = await renderPage(tree, {
    nonce: nonceOf,
    keepable,
    deferred: options.deferred ?? [],
    complete: c.get('pageCacheRender')?.complete === true || isbot(c.req.header('User-Agent') ?? ''),
    mode: config.renderMode,
    placed,
    onError: (error) => logEvent('error', 'render_failed', { path: loggablePath(c.req.path), error: errorName(error) }),
  })
  c.get('caching').allow(options.caching)
  const hashed = keepable && typeof body === 'string'
  const render = c.get('pageCacheRender')
  if (render) render.page = { storable: hashed }
  // A page in one string paints first without a blocking stylesheet (error pages, which run no script, keep theirs).
  // What a visitor's session, cart or choice made personal is painted without remembering its text in the isolate.
  const shared = hashed && !c.get('caching').final(false).personal
  const first =
    typeof body === 'string' && kind !== 'error'
      ? firstPaint(body, hashed ? undefined : nonceOf(), placed, shared)
      : null
  if (first && hashed) inlineScripts.add(STYLESHEET_SWAP)
  const scripts = hashed ? { hashes: await inlineScriptHashes(inlineScripts) } : { nonce: nonceOf() }
  const styles = first ? [await first.cssHash] : []
  const html = first?.html ?? body
  return c.body(typeof html === 'string' ? utf8.encode(html) : html, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy({
      scripts,
      styles,
      kind,
      config,
      sources: withMapTiles(trackingSources(c, tracking), options.mapTiles),
    }),
    ...options.headers,
  })
}

/**
 * A page whole in one string leaves as its UTF-8 bytes: the runtime's `Response` takes bytes for less CPU than the
 * same text (decision 083).
 */
const utf8 = new TextEncoder()

/** A page's third-party sources with its map's tile server among the images, once the visitor allowed it. */
const withMapTiles = (sources: CspSources, tiles: MapTiles | null | undefined): CspSources =>
  tiles?.allowed ? { ...sources, 'img-src': [...(sources['img-src'] ?? []), tiles.origin] } : sources

/** What the page cache may keep: a public page, or the "Page Not Found" of a path (briefly, `page-cache/store.ts`). */
const isKeepable = (kind: PageKind, status: number, caching: AnswerCaching) =>
  (kind === 'page' && status === 200 && caching === Caching.shared) || (kind === 'error' && status === 404)

/** A redirect for one visitor (after a form, around login): no cache keeps it. */
export function sendRedirect<E extends AppEnv>(c: Context<E>, location: string, status: 302 | 303 = 302): Response {
  c.get('caching').allow(Caching.private)
  return c.redirect(carryNotice(c, location), status)
}
