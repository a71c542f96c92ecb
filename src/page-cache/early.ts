import { parse } from 'hono/utils/cookie'
import { SESSION_COOKIE } from '../auth/session-cookie'
import { Caching, cacheControl } from '../cache/answer-caching'
import { rememberedSite } from '../cache/lookups'
import { cartCookieName } from '../cart/visitor-cart'
import { configOf } from '../config'
import type { Bindings } from '../env'
import { isLive } from '../market/market'
import { RequestLog } from '../ops/request-log'
import { CONSENT_COOKIE, consentFrom } from '../tracking/consent'
import type { Candidate } from './cacheable'
import { DEFAULT_VARIANT, pageKeyOf, variantOf } from './keys'
import { answerOf, freshnessOf, fromMemory, matchesEtag } from './store'
import { rememberedPageVersion } from './versions'

/** What the page cache learnt of an address it answered: the page's candidate and its market. */
type Address = { candidate: Candidate; country: string; segment: string }

/** Addresses (variant, path and query as sent) of kept pages, least recently answered first out. */
const addresses = new Map<string, Address>()
const ADDRESSES_LIMIT = 4096
const addressKey = (variant: string, url: URL) => `${variant} ${url.pathname}${url.search}`

/**
 * Remembers that this address (as the visitor sent it) is the kept page of `candidate` in a market, so that the next
 * visitor without a session or a cart gets it before the app runs (`answerEarly`). Called by the page cache when it
 * answers a kept page.
 */
export function rememberAddress(variant: string, url: URL, address: Address): void {
  const key = addressKey(variant, url)
  addresses.delete(key)
  if (addresses.size >= ADDRESSES_LIMIT) addresses.delete(addresses.keys().next().value as string)
  addresses.set(key, address)
}

/** Forgets the addresses (between tests). */
export function forgetAddresses(): void {
  addresses.clear()
}

/**
 * The page cache's early answer (docs/decisions/022), before the app's middleware runs: a fresh page in this isolate's
 * memory for a visitor without a session or a cart of its market, at an address the page cache answered before,
 * while this isolate remembers its market's site record (live) and page versions. Anything else — a session or a
 * cart to stitch, a stale or missing page, a market to read again, maintenance — is null: the app answers it, the
 * page cache included. Same bytes, headers and log line as the page cache's own memory answer.
 *
 * @example
 * fetch: (request, env, ctx) => answerEarly(request, env) ?? app.fetch(request, env, ctx)
 */
export function answerEarly(request: Request, env: Bindings): Response | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null
  const config = configOf(env)
  if (!config.pageCache) return null
  const cookies = parse(request.headers.get('Cookie') ?? '')
  const variant = variantOf(consentFrom(cookies[CONSENT_COOKIE], request.headers.get('Sec-GPC')))
  const url = new URL(request.url)
  const address = addresses.get(addressKey(variant, url))
  if (!address || SESSION_COOKIE in cookies || cartCookieName(address.country) in cookies) return null
  const version = rememberedPageVersion(address.country)
  const site = version === null ? undefined : rememberedSite(address.country)
  if (!site?.value || !isLive(site.value)) return null
  const entry = fromMemory(pageKeyOf(config, version as string, variant, address.candidate))
  if (!entry || freshnessOf(entry) !== 'fresh') return null

  const log = new RequestLog(request.method, url.pathname)
  log.market = address.segment
  log.page = 'memory'
  const caching = cacheControl(variant === DEFAULT_VARIANT ? Caching.shared : Caching.personal)
  const answer = matchesEtag(request.headers.get('If-None-Match'), entry.etag)
    ? new Response(null, { status: 304, headers: { ETag: entry.etag } })
    : answerOf(entry, request.method)
  answer.headers.set('Cache-Control', caching)
  log.write(answer.status)
  return answer
}
