import { NOTICE_COOKIE } from '../render/one-time-notice'
import { parse } from 'hono/utils/cookie'
import { SESSION_COOKIE } from '../auth/session-cookie'
import { rememberedSession } from '../auth/sessions'
import { viewerName } from '../auth/viewer'
import { Caching, cacheControl } from '../cache/answer-caching'
import { cacheKeysOf } from '../cache/keys'
import { rememberedSite } from '../cache/lookups'
import { isolateMemo } from '../cache/memo'
import { cartCountCookieName, keptCount } from '../cart/cart-count'
import { cartCookieName } from '../cart/visitor-cart'
import { configOf } from '../config'
import type { Bindings } from '../env'
import { isLive } from '../market/market'
import { errorName, logEvent } from '../ops/log'
import { recordRequest } from '../ops/metrics'
import { RequestLog } from '../ops/request-log'
import { CONSENT_COOKIE, consentFrom } from '../tracking/consent'
import type { Candidate } from './cacheable'
import { DEFAULT_VARIANT, pageKeyOf, variantOf } from './keys'
import { keptPersonalTemplates, type PersonalParts, stitchEntry } from './personal'
import { answerOf, freshnessOf, fromMemory, matchesEtag } from './store'
import { rememberedPageVersion } from './versions'

/**
 * What the page cache learnt of an address it answered: the page's candidate, its market (and whether it sells), and
 * its route kind for the metrics (src/ops/metrics.ts).
 */
type Address = { candidate: Candidate; country: string; segment: string; sellsOnline: boolean; routeKind: string }

/** Addresses (variant, path and query as sent) of kept pages, least recently answered first out. */
const addresses = isolateMemo<Address>({ limit: 4096 })
const addressKey = (variant: string, url: URL) => `${variant} ${url.pathname}${url.search}`

/**
 * Remembers that this address (as the visitor sent it) is the kept page of `candidate` in a market, so that the next
 * visitor of it may get it before the app runs (`answerEarly`). Called by the page cache when it answers a kept page.
 */
export function rememberAddress(variant: string, url: URL, address: Address): void {
  addresses.set(addressKey(variant, url), address)
}

/** Forgets the addresses (between tests). */
export function forgetAddresses(): void {
  addresses.clear()
}

/**
 * The page cache's early answer (docs/decisions/022), before the app's middleware runs: a fresh page in this isolate's
 * memory, at an address the page cache answered before, while this isolate remembers its market's site record (live)
 * and page versions. A logged-in visitor's session must be one this isolate remembers (and due no check), a cart's
 * count one their browser keeps for that cart (src/cart/cart-count.ts): their parts are stitched in as the page cache
 * does. Anything else — a session or a count to read, a stale or missing page, a market to read again, maintenance —
 * is null: the app answers it, the page cache included. Same bytes, headers, log line and metrics data point as the page
 * cache's own memory answer.
 *
 * @example
 * answerEarly(request, env) ?? app.fetch(request, env, ctx)
 */
export function answerEarly(request: Request, env: Bindings): Response | Promise<Response> | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const config = configOf(env)
  if (!config.pageCache) return null
  const cookies = parse(request.headers.get('Cookie') ?? '')
  if (cookies[NOTICE_COOKIE]) return null
  const variant = variantOf(consentFrom(cookies[CONSENT_COOKIE], request.headers.get('Sec-GPC')))
  const url = new URL(request.url)
  const address = addresses.get(addressKey(variant, url))
  if (!address) return null
  const version = rememberedPageVersion(address.country)
  const site = version === null ? undefined : rememberedSite(cacheKeysOf(config.upstream.fingerprint), address.country)
  if (!site?.value || !isLive(site.value)) return null
  const parts = personalPartsOf(cookies, address, env)
  if (parts === undefined) return null
  const templates = parts && keptPersonalTemplates(address.segment, version as string)
  if (templates === undefined) return null
  const entry = fromMemory(pageKeyOf(config, version as string, variant, address.candidate))
  if (!entry || freshnessOf(entry) !== 'fresh') return null

  // A kept page is never the whistleblower channel's (cacheable.ts): its line is a full one.
  const log = new RequestLog(request.method, url.pathname, { noTrace: false })
  log.market = address.segment
  log.page = 'memory'
  const sent = (answer: Response) => {
    answer.headers.set(
      'Cache-Control',
      cacheControl(parts || variant !== DEFAULT_VARIANT ? Caching.personal : Caching.shared),
    )
    log.write(answer.status)
    recordRequest(env.METRICS, address.routeKind, log.summary(answer.status))
    return answer
  }
  if (parts && templates) return stitchEntry(entry, request.method, parts, templates).then(sent)
  return sent(
    matchesEtag(request.headers.get('If-None-Match'), entry.etag)
      ? new Response(null, { status: 304, headers: { ETag: entry.etag } })
      : answerOf(entry, request.method),
  )
}

type Fetch = (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>

/**
 * The Worker's fetch with the early answer in front of the app: a request the early answer cannot take, or one it
 * fails on (logged; never a 500 of its own), goes to the app.
 *
 * @example
 * export default { fetch: withEarlyAnswers((request, env, ctx) => app.fetch(request, env, ctx)) }
 */
export const withEarlyAnswers =
  (appFetch: Fetch): Fetch =>
  (request, env, ctx) => {
    const failed = (error: unknown) => {
      logEvent('warn', 'early_answer_failed', { error: errorName(error) })
      return appFetch(request, env, ctx)
    }
    try {
      const early = answerEarly(request, env)
      if (!early) return appFetch(request, env, ctx)
      return early instanceof Promise ? early.catch(failed) : early
    } catch (error) {
      return failed(error)
    }
  }

/**
 * The visitor's parts as far as this isolate and their browser tell them without a read: null for a visitor without
 * a session or a cart, undefined when something must be read first (the app's page cache does).
 */
function personalPartsOf(
  cookies: Record<string, string>,
  { country, sellsOnline }: Address,
  env: Bindings,
): PersonalParts | null | undefined {
  const sessionId = cookies[SESSION_COOKIE]
  const cartCode = cookies[cartCookieName(country)]
  if (sessionId === undefined && cartCode === undefined) return null
  let name: string | null = null
  if (sessionId !== undefined) {
    const session = env.SESSION_SECRET ? rememberedSession(env.SESSION_SECRET, sessionId) : null
    if (!session) return undefined
    name = viewerName(session.user)
  }
  const holder = sessionId ?? cartCode
  if (!sellsOnline || holder === undefined) return name === null ? null : { name, count: null }
  const count = keptCount(cookies[cartCountCookieName(country)], holder)
  return count === null ? undefined : { name, count }
}
