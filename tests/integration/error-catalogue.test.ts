import { afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest'
import { type Fault, type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { faultLane, type OriginalFault, refusedUpstreamUrl } from '../fixtures/original-backend-lanes'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { formPost, nextClient } from '../fixtures/session'
import { clearCaches, textOf, visit } from '../fixtures/worker'

// The original's error catalogue (seed §8; docs/decisions/039): maintenance only when the site lookup answers 500 or
// 503 (or the site says `under_maintenance`), any other failed call is logged, and a page whose own data cannot be
// read is "temporarily unavailable" (503) in the market's language, the remembered market kept. Where the original's
// eight calls are what fails, over real HTTP at the stand-in of the brand's backend (tests/fixtures/original-backend.mjs),
// each test in a lane of its own (tests/fixtures/original-backend-lanes.ts); the catalogue's own reads (a product's),
// which the stand-in does not serve, through the fetch stub of tests/fixtures/http-upstream.ts.

const MAINTENANCE = 'This page its under maintenance, please check again later.'
const UNAVAILABLE = 'This page is temporarily unavailable, please try again in a moment.'
const PRODUCT = '/it-it/products/aurora-strada-9'
const REMEMBERED = { headers: { Cookie: 'CountryLocale=it-it' } }

let lines: Array<Record<string, unknown>>
beforeEach(async () => {
  await clearCaches()
  lines = []
  for (const level of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => {
      try {
        lines.push(JSON.parse(String(line)) as Record<string, unknown>)
      } catch {
        // not a log line of the Worker's
      }
    })
  }
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** The log lines of an event. */
const logged = (event: string) => lines.filter((line) => line.event === event)

/** The failures of upstream calls the request lines name. */
const upstreamFailures = () => logged('request').flatMap((line) => (line.upstreamFailures as unknown[]) ?? [])

/** Checks a "temporarily unavailable" answer: 503, not maintenance, in Italian, the remembered market kept. */
function expectUnavailableInItalian({ status, text, headers }: { status: number; text: string; headers: Headers }) {
  expect(status).toBe(503)
  expect(text).toContain(UNAVAILABLE)
  expect(text).not.toContain(MAINTENANCE)
  expect(textOf(text)).toContain('Pagina temporaneamente non disponibile')
  expect(text).toMatch(/<html[^>]* lang="it"/)
  expect(headers.get('Retry-After')).toBe('60')
  expect(headers.get('Cache-Control')).toBe('no-store')
  expect(headers.get('Set-Cookie') ?? '').not.toContain('CountryLocale=')
}

/**
 * The site on a lane of its own at the stand-in (the brand's eight calls, `UPSTREAM_AREAS=none`), with a short upstream
 * timeout, and the way to make the lane's calls fail.
 */
function onTheBrandsBackend() {
  const lane = faultLane()
  // A timeout well above what a healthy call to the stand-in takes on a loaded machine (the faults' delay is 5 s).
  const bindings = { UPSTREAM_URL: lane.url, UPSTREAM_AREAS: 'none', UPSTREAM_TIMEOUT_MS: '1500' }
  return {
    fail: lane.fail,
    visit: (path: string, init: RequestInit = REMEMBERED) => visit(path, init, bindings),
  }
}

/** The faults every call of the stand-in can be given, by name. */
const FAULTS: Array<[string, OriginalFault]> = [
  ['a timeout', { delay: 5_000 }],
  ['garbage', { garbage: true }],
  ['a connection lost', { drop: true }],
  ['502', { status: 502 }],
  ['401 (an anonymous visitor)', { status: 401 }],
]

describe("the site lookup (api/sites/{slug}), over HTTP at the brand's backend", () => {
  it("meets only its own lane's faults: files and tests running at once never see each other's", async () => {
    const failing = onTheBrandsBackend()
    await failing.fail('sites/it', { status: 503 })
    expect((await onTheBrandsBackend().visit('/it-it')).status).toBe(200)
    expect((await visit('/it-it', REMEMBERED, { UPSTREAM_URL: inject('originalBackendUrl') })).status).toBe(200)
    expect((await failing.visit('/it-it')).status).toBe(503)
  })

  it.each([500, 503])(
    'answers %s with maintenance: 503, Retry-After, the remembered market cleared',
    async (status) => {
      const site = onTheBrandsBackend()
      await site.fail('sites/it', { status })
      const { status: answered, text, headers } = await site.visit('/it-it')
      expect(answered).toBe(503)
      expect(text).toContain(MAINTENANCE)
      expect(headers.get('Retry-After')).toBe('300')
      expect(headers.get('Set-Cookie')).toMatch(/^CountryLocale=;.*Max-Age=0/)
    },
  )

  it('says `under_maintenance` for a market: maintenance too, the remembered market cleared', async () => {
    const { status, text, headers } = await onTheBrandsBackend().visit('/nl-nl', {
      headers: { Cookie: 'CountryLocale=nl-nl' },
    })
    expect(status).toBe(503)
    expect(text).toContain(MAINTENANCE)
    expect(headers.get('Retry-After')).toBe('300')
    expect(headers.get('Set-Cookie')).toMatch(/^CountryLocale=;.*Max-Age=0/)
  })

  it.each(FAULTS)(
    'failing with %s is not maintenance: 503 "temporarily unavailable", logged, the market kept',
    async (_, fault) => {
      const site = onTheBrandsBackend()
      await site.fail('sites/it', fault)
      expectUnavailableInItalian(await site.visit('/it-it'))
      expect(logged('page_unavailable')).toEqual([expect.objectContaining({ path: '/it-it' })])
      expect(upstreamFailures()).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'sites/it' })]))
    },
  )

  it('refusing every connection (nothing listens) is not maintenance: 503 "temporarily unavailable", the market kept', async () => {
    const { status, text, headers } = await visit('/it-it', REMEMBERED, { UPSTREAM_URL: refusedUpstreamUrl() })
    expect(status).toBe(503)
    // Nothing of this backend was ever read, its texts neither: the message is the original's, in English.
    expect(text).toContain(UNAVAILABLE)
    expect(text).not.toContain(MAINTENANCE)
    expect(headers.get('Retry-After')).toBe('60')
    expect(headers.get('Set-Cookie') ?? '').not.toContain('CountryLocale=')
    expect(logged('page_unavailable')).toEqual([expect.objectContaining({ path: '/it-it' })])
  })

  it('answering 404 is a market that does not exist: 404 "(no-country)", not an outage', async () => {
    const site = onTheBrandsBackend()
    await site.fail('sites/it', { status: 404 })
    const { status, text, headers } = await site.visit('/it-it')
    expect(status).toBe(404)
    expect(text).toContain('This page could not be found (no-country).')
    expect(headers.get('Retry-After')).toBeNull()
  })
})

describe("the other of the eight calls, over HTTP at the brand's backend", () => {
  it.each([...FAULTS, ['500', { status: 500 }] as [string, OriginalFault]])(
    'the menu (api/front/menu/products) failing with %s: a product named only there is "temporarily unavailable", the home answers without it',
    async (_, fault) => {
      const site = onTheBrandsBackend()
      await site.fail('front/menu/products', fault)
      expectUnavailableInItalian(await site.visit(PRODUCT))
      expect(logged('page_unavailable')).toEqual([expect.objectContaining({ path: PRODUCT })])
      const home = await site.visit('/it-it')
      expect(home.status).toBe(200)
      expect(home.text).not.toContain(MAINTENANCE)
      expect(logged('header_data_unavailable')).toEqual(
        expect.arrayContaining([expect.objectContaining({ part: 'product_menu' })]),
      )
    },
  )

  it.each<[string, string, string]>([
    ['the translation resource', 'country-wise-locale-content/it/it', 'translations_unavailable'],
    ['the features', 'get-features', 'features_unavailable'],
  ])('%s failing with 500: the page answers all the same, the failure logged', async (_, path, event) => {
    const site = onTheBrandsBackend()
    await site.fail(path, { status: 500 })
    const { status, text, headers } = await site.visit('/it-it')
    expect(status).toBe(200)
    expect(text).not.toContain(UNAVAILABLE)
    expect(headers.get('Set-Cookie') ?? '').not.toContain('CountryLocale=')
    expect(logged(event).length).toBeGreaterThan(0)
  })

  it.each<[string, OriginalFault]>([
    ['500', { status: 500 }],
    ['a timeout', { delay: 5_000 }],
  ])(
    'the login (api/auth/login) failing with %s: 503 "temporarily unavailable" in the market\'s language, never maintenance',
    async (_, fault) => {
      const site = onTheBrandsBackend()
      await site.fail('auth/login', fault)
      const answer = await site.visit(
        '/login',
        formPost(
          { email: 'customer@example.com', password: ORIGINAL_PASSWORD, market: 'it-it' },
          { 'CF-Connecting-IP': nextClient(), Cookie: 'CountryLocale=it-it' },
        ),
      )
      // The login's path names no market: its texts are the remembered market's, the one its page was in.
      expectUnavailableInItalian(answer)
      expect(logged('page_unavailable')).toEqual([expect.objectContaining({ path: '/login' })])
    },
  )
})

describe("a page's own data from the contract's catalogue (the fetch stub)", () => {
  const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }
  // One stand-in backend for the rest of the file: background refreshes started by a test keep reaching it afterwards.
  let upstream: HttpUpstream
  beforeAll(() => {
    upstream = httpUpstream()
  })
  beforeEach(() => upstream.heal())

  it.each<[string, Fault]>([
    ['500', 500],
    ['a timeout', 'slow'],
    ['401 (an anonymous visitor)', 401],
  ])(
    'failing with %s answers 503 "temporarily unavailable" in the market\'s language, never maintenance',
    async (_, fault) => {
      upstream.fail('front/products/aurora-strada-9', fault)
      expectUnavailableInItalian(await visit(PRODUCT, REMEMBERED, http))
      expect(logged('page_unavailable')).toEqual([expect.objectContaining({ path: PRODUCT })])
      // The market itself is fine: its other pages answer.
      expect((await visit('/it-it/chi-siamo', REMEMBERED, http)).status).toBe(200)
    },
  )

  it('failing after the page was served answers its stale copy', async () => {
    const served = await visit(PRODUCT, {}, http)
    expect(served.status).toBe(200)
    // Two hours on, every cached read is stale, and the product's read fails.
    vi.useFakeTimers({ now: Date.now() + 2 * 3600 * 1000, toFake: ['Date'] })
    upstream.fail('front/products/aurora-strada-9', 500)
    const { status, text } = await visit(PRODUCT, REMEMBERED, http, { waitForBackground: false })
    expect(status).toBe(200)
    expect(textOf(text)).toContain('Aurora Strada 9')
    expect(text).not.toContain(UNAVAILABLE)
  })
})
