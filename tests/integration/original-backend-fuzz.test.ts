import fc from 'fast-check'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { SESSION_COOKIE } from '../../src/auth/session-cookie'
import languages from '../../demo/page-slugs.json' with { type: 'json' }
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { LIVE_SEGMENTS, MAINTENANCE_SEGMENTS } from '../fixtures/demo-markets'
import { slugOf } from '../fixtures/page-slugs'
import { formPost, nextClient, sessionIdOf } from '../fixtures/session'
import { ORIGIN, visit } from '../fixtures/worker'
import { headerValue, queryOf } from '../fixtures/fuzz-inputs'

/**
 * A fuzzed crawl of the Worker in workerd against the stand-in of the brand's own backend over real HTTP
 * (tests/fixtures/original-backend.mjs: the original's eight calls, nothing else): paths made of the markets'
 * segments, their page slugs and junk, with query strings and cookies, anonymous and as a plain Laravel user.
 */
const bindings = { UPSTREAM_URL: inject('originalBackendUrl') }

const MAINTENANCE = 'This page its under maintenance, please check again later.'

/** The first segment of a path as the Worker sees it: normalised (`/../x` is `/x`) and decoded where it can be. */
function firstSegment(path: string): string {
  const segment = new URL(path, 'https://site.test').pathname.split('/')[1] ?? ''
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const SEGMENTS = [...LIVE_SEGMENTS, ...MAINTENANCE_SEGMENTS, 'xx-yy', 'it-xx', 'il-en']
const PAGE_KEYS = Object.keys((languages as Record<string, Record<string, string>>).en ?? {})
const SLUGS = [
  ...new Set(SEGMENTS.flatMap((segment) => PAGE_KEYS.map((key) => slugOf(segment, key)))),
  'my-account',
  'orders',
  'bikes',
  'addresses',
  'products',
  'type',
  'aurora-strada-9',
  'news',
  'details',
  'search',
  'all',
  'cart',
  'checkout',
  'login',
  'api',
  '_health',
  'sitemap.xml',
]

const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 4, arbitrary: fc.constantFrom(...SLUGS) },
  fc.constantFrom('..', '%', '%ZZ', '%2F'),
  fc.webSegment(),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
)
const junkPath = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => `/${parts.join('/')}`)
/** A market's page: its segment, then up to two of the slugs (`/it-it/my-account/orders`). */
const marketPath = fc
  .tuple(fc.constantFrom(...SEGMENTS), fc.array(fc.constantFrom(...SLUGS), { maxLength: 2 }))
  .map(([market, slugs]) => `/${[market, ...slugs].join('/')}`)
/** A market's account: `/{m}/my-account`, or one of its pages. */
const accountPath = fc
  .tuple(fc.constantFrom(...SEGMENTS), fc.constantFrom('', '/orders', '/bikes', '/addresses', '/orders/A-1'))
  .map(([market, page]) => `/${market}/my-account${page}`)
const path = fc.oneof({ weight: 3, arbitrary: marketPath }, accountPath, { weight: 2, arbitrary: junkPath })
const query = queryOf(['q', 'page', 'near', 'lat', 'type', 'redirect'])
const header = headerValue(40)

describe("a fuzzed crawl over the brand's own backend", () => {
  let customerCookie = ''

  beforeAll(async () => {
    const login = await visit(
      '/login',
      formPost(
        { email: 'customer@example.com', password: ORIGINAL_PASSWORD, market: 'it-it' },
        { 'CF-Connecting-IP': nextClient(), Cookie: 'CountryLocale=it-it' },
      ),
      bindings,
    )
    expect(login.status).toBe(303)
    customerCookie = `${SESSION_COOKIE}=${sessionIdOf(login.headers) ?? ''}`
  })

  it('answers every path, query and cookie below 500, but 503 maintenance for the market the stand-in puts in maintenance (nl-nl): no "temporarily unavailable", the stand-in is up', async () => {
    const cookie = fc.oneof(
      fc.constantFrom(...SEGMENTS).map((s) => `CountryLocale=${s}`),
      header.map((h) => `CountryLocale=${h}`),
      fc.constant('customer'),
      header.map((h) => `${SESSION_COOKIE}=${h}`),
    )
    await fc.assert(
      fc.asyncProperty(
        path,
        query,
        cookie,
        header,
        fc.constantFrom('GET', 'HEAD', 'POST'),
        async (p, q, c, language, method) => {
          const { status, text } = await visit(
            q ? `${p}?${q}` : p,
            {
              method,
              headers: {
                Cookie: c === 'customer' ? `${customerCookie}; CountryLocale=it-it` : c,
                'Accept-Language': language,
                'CF-Connecting-IP': nextClient(),
                Origin: ORIGIN,
              },
            },
            bindings,
          )
          if (status === 503 && MAINTENANCE_SEGMENTS.includes(firstSegment(p))) {
            if (method !== 'HEAD') expect(text).toContain(MAINTENANCE)
          } else expect(status, `${method} ${p}${q ? `?${q}` : ''} (${c})`).toBeLessThan(500)
        },
      ),
      {
        numRuns: 300,
        // Seeds the crawl always walks: the landing page, a market's home and the account overview, as the customer.
        examples: [
          ['/', undefined, 'customer', '', 'GET'],
          ['/it-it', undefined, 'customer', '', 'GET'],
          ['/it-it/my-account', undefined, 'customer', '', 'GET'],
        ],
      },
    )
  })
})
