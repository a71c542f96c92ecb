import type { Context, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { type AnswerCaching, Caching } from '../cache/answer-caching'
import { viewerName } from '../auth/viewer'
import { headerCartCount } from '../cart/visitor-cart'
import { configOf } from '../config'
import type { Bindings, MarketEnv } from '../env'
import { siteUrl } from '../market/market'
import { errorName, logEvent } from '../ops/log'
import { routeKindOf } from '../ops/metrics'
import type { PageCacheOutcome } from '../ops/request-log'
import { viewOf } from '../render/respond'
import { CONSENT_COOKIE, consentOf } from '../tracking/consent'
import { type Candidate, candidateOf } from './cacheable'
import { rememberAddress } from './early'
import { DEFAULT_VARIANT, pageKeyOf, variantOf } from './keys'
import { type PersonalParts, personalEndOf, personalTemplates, stitch, stitchEntry } from './personal'
import { type PageCacheRender, RenderRequest } from './render-request'
import {
  answerOf,
  forgetPage,
  freshnessOf,
  fromCacheApi,
  fromMemory,
  matchesEtag,
  type PageEntry,
  toCacheApi,
  toMemory,
} from './store'
import { pageVersion } from './versions'

/** The app itself, for the page cache's own renders (a second dispatch of the candidate's anonymous request). */
export type Dispatch = (
  request: Request,
  env: Bindings,
  ctx: Context<MarketEnv>['executionCtx'],
) => Response | Promise<Response>

/** Headers of a rendered page that are not kept with it: each answer gets its own. */
const NOT_KEPT = new Set(['cache-control', 'set-cookie', 'date', 'content-length', 'etag'])
/** A refresh older than this is taken for lost (workerd cancels `waitUntil` work after 30 s). */
const REFRESH_LIMIT_MS = 30_000
const refreshing = new Map<string, number>()

/**
 * The page cache (docs/decisions/022), after the market is resolved: a candidate page (`cacheable.ts`) is answered
 * from the isolate's memory, else the data centre's Cache API, else rendered by a second dispatch of the app with the
 * request made anonymous (no cookie but the consent choice, no query but what the page reads) and kept when it may
 * be. A stale page is answered while one refresh per key renders it again in `waitUntil`. A visitor with a session or
 * a cart gets their parts stitched in (`personal.tsx`); an anonymous one an `ETag`, and `304` when it matches.
 *
 * @example
 * market.use(resolveMarket())
 * market.use(pageCache((request, env, ctx) => app.fetch(request, env, ctx)))
 */
export const pageCache =
  (dispatch: Dispatch): MiddlewareHandler<MarketEnv> =>
  async (c, next) => {
    if (c.get('pageCacheRender') || !configOf(c.env).pageCache) return next()
    const candidate = candidateOf(c)
    if (!candidate) return next()
    const version = await pageVersion(c.env.CACHE, c.get('market').country, c.get('log').cacheOutcome)
    if (version === null) return next()
    const variant = variantOf(consentOf(c))
    const key = pageKeyOf(configOf(c.env), version, variant, candidate)
    const cache = (caches as unknown as { default: Cache }).default
    let outcome: PageCacheOutcome = 'memory'
    let entry = fromMemory(key)
    if (!entry) {
      outcome = 'cache'
      entry = await fromCacheApi(cache, key)
      if (entry) toMemory(key, entry)
    }
    const freshness = entry ? freshnessOf(entry) : 'expired'
    // A kept page is the same for every visitor of its variant; a consent choice keeps it from caches outside.
    const keptCaching = variant === DEFAULT_VARIANT ? Caching.shared : Caching.personal
    let answer: Response
    let caching: AnswerCaching
    if (entry && freshness !== 'expired') {
      if (freshness === 'stale') {
        outcome = 'stale'
        refreshInBackground(c, dispatch, candidate, key, cache)
      }
      answer = answerOf(entry, c.req.method)
      caching = keptCaching
    } else {
      outcome = 'miss'
      const rendered = await render(c, dispatch, candidate, key, cache, false)
      entry = rendered.entry ?? undefined
      answer = entry ? answerOf(entry, c.req.method) : rendered.response
      caching = entry ? keptCaching : rendered.caching
    }
    c.get('log').page = outcome
    if (entry) rememberAddress(variant, new URL(c.req.url), { candidate, ...addressOf(c) })
    const parts = await personalPartsOf(c)
    if (parts) {
      c.get('caching').allow(Caching.personal)
      const templates = personalTemplates(
        viewOf(c, c.get('t'), c.get('market')),
        siteUrl(c.get('market').site, c.get('market').locale),
        version,
      )
      if (!entry) answer.headers.delete('ETag')
      const stitched = entry
        ? await stitchEntry(entry, c.req.method, parts, templates)
        : stitch(answer, parts, templates)
      return c.newResponse(stitched.body, stitched)
    }
    c.get('caching').allow(caching)
    if (entry && matchesEtag(c.req.header('If-None-Match'), entry.etag)) return c.body(null, 304, { ETag: entry.etag })
    // Through the context, so that what the middleware before set (a cleared session cookie) goes with the answer.
    return c.newResponse(answer.body, answer)
  }

/**
 * Renders the candidate anonymously (a second dispatch of the app) and keeps the page when it may: a `200` rendered
 * whole whose route allows shared caching, or a "Page Not Found", and only when no upstream call failed on the way
 * (a section left out for a failure is not kept). Answers the entry, or the render's own answer (a stream, a
 * redirect, an error) with the caching it decided.
 */
async function render(
  c: Context<MarketEnv>,
  dispatch: Dispatch,
  candidate: Candidate,
  key: string,
  cache: Cache,
  refresh: boolean,
) {
  const render: PageCacheRender = { log: c.get('log'), complete: refresh }
  const failures = c.get('log').failureCount
  const request = anonymousRequest(c, candidate, refresh ? null : c.req.raw.signal, render)
  const response = await dispatch(request, c.env, c.executionCtx)
  const caching = render.caching ?? Caching.never
  const storable =
    render.page?.storable && c.get('log').failureCount === failures && !response.headers.has('Set-Cookie')
  if (!storable || (response.status !== 200 && response.status !== 404)) return { entry: null, response, caching }
  const body = await response.arrayBuffer()
  const entry: PageEntry = {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !NOT_KEPT.has(name.toLowerCase())),
    body,
    etag: await etagOf(body),
    storedAt: Date.now(),
    personalEnd: personalEndOf(body),
  }
  toMemory(key, entry)
  c.executionCtx.waitUntil(
    toCacheApi(cache, key, entry).catch((error: unknown) =>
      logEvent('warn', 'page_cache_store_failed', { error: errorName(error) }),
    ),
  )
  return { entry, response, caching }
}

/** A strong validator of a page's bytes: the first 128 bits of their SHA-256, in base64url. */
async function etagOf(body: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body)).subarray(0, 16)
  return `"${btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')}"`
}

/**
 * The candidate's request as a visitor without cookies would send it: the consent choice is the only cookie kept
 * (the page depends on it, and its key holds it), the query only what the page reads; conditional headers dropped.
 */
function anonymousRequest(
  c: Context<MarketEnv>,
  candidate: Candidate,
  signal: AbortSignal | null,
  render: PageCacheRender,
) {
  const url = new URL(c.req.url)
  url.pathname = candidate.path
  url.search = candidate.query
  const headers = new Headers(c.req.raw.headers)
  for (const name of ['Cookie', 'Authorization', 'If-None-Match', 'If-Modified-Since']) headers.delete(name)
  const consent = getCookie(c, CONSENT_COOKIE)
  if (consent) headers.set('Cookie', `${CONSENT_COOKIE}=${consent}`)
  return new RenderRequest(url, { method: 'GET', headers, signal }, render)
}

/** Answers that say a page is gone or elsewhere: a refresh that gets one drops the kept page. */
const GONE = new Set([301, 302, 303, 307, 308, 410])

/**
 * Renders a stale page again after the answer, complete (no visitor waits for its first byte), once per key per
 * isolate. A page that is gone or moved is dropped (a "Page Not Found" replaces it); a failed refresh (an upstream
 * error, a section that failed) keeps the stale page, to be tried again by a later visitor.
 */
function refreshInBackground(
  c: Context<MarketEnv>,
  dispatch: Dispatch,
  candidate: Candidate,
  key: string,
  cache: Cache,
): void {
  const started = refreshing.get(key)
  if (started !== undefined && Date.now() - started < REFRESH_LIMIT_MS) return
  refreshing.set(key, Date.now())
  c.executionCtx.waitUntil(
    render(c, dispatch, candidate, key, cache, true)
      .then(async ({ entry, response }) => {
        if (entry) return
        await response.body?.cancel()
        if (GONE.has(response.status)) await forgetPage(cache, key)
      })
      .catch((error: unknown) => logEvent('warn', 'page_refresh_failed', { error: errorName(error) }))
      .finally(() => refreshing.delete(key)),
  )
}

/** The visitor's own parts of a page: their name when logged in, their cart's count when they have one. */
async function personalPartsOf(c: Context<MarketEnv>): Promise<PersonalParts | null> {
  const viewer = c.get('viewer')
  const name = viewer ? viewerName(viewer.user) : null
  const count = await headerCartCount(c, { kept: true })
  return name === null && count === null ? null : { name, count }
}

/** What the early answer needs to know of a kept page's market besides the page. */
const addressOf = (c: Context<MarketEnv>) => ({
  country: c.get('market').country,
  segment: c.get('market').segment,
  sellsOnline: c.get('available').has('cart'),
  routeKind: routeKindOf(c),
})
