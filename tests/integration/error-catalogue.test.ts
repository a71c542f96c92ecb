import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Fault, type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, textOf, visit } from '../fixtures/worker'

// The original's error catalogue (seed §8; docs/decisions/039): maintenance only when the site lookup answers 500 or
// 503 (or the site says `under_maintenance`, markets.test.ts); any other failed call is logged, and a page whose own
// data cannot be read is "temporarily unavailable" (503) in the market's language, the remembered market kept.

const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }
const MAINTENANCE = 'This page its under maintenance, please check again later.'
const UNAVAILABLE = 'This page is temporarily unavailable, please try again in a moment.'
const PRODUCT = '/it-it/products/aurora-strada-9'
const REMEMBERED = { headers: { Cookie: 'CountryLocale=it-it' } }

// One stand-in backend for the whole file: background refreshes started by a test keep reaching it afterwards.
let upstream: HttpUpstream
beforeAll(() => {
  upstream = httpUpstream()
})
let lines: Array<Record<string, unknown>>
beforeEach(async () => {
  upstream.heal()
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

describe('the site lookup', () => {
  it.each([500, 503])('answers %s with maintenance: 503, Retry-After, the remembered market cleared', async (fault) => {
    upstream.fail('sites/it', fault)
    const { status, text, headers } = await visit('/it-it/chi-siamo', REMEMBERED, http)
    expect(status).toBe(503)
    expect(text).toContain(MAINTENANCE)
    expect(headers.get('Retry-After')).toBe('300')
    expect(headers.get('Set-Cookie')).toMatch(/^CountryLocale=;.*Max-Age=0/)
  })

  it.each<[string, Fault]>([
    ['a timeout', 'slow'],
    ['garbage', 'garbage'],
    ['no connection', 'refused'],
    ['502', 502],
    ['401 (an anonymous visitor)', 401],
  ])('failing with %s is not maintenance: 503 "temporarily unavailable", logged, the market kept', async (_, fault) => {
    upstream.fail('sites/it', fault)
    const answer = await visit('/it-it/chi-siamo', REMEMBERED, http)
    expectUnavailableInItalian(answer)
    expect(logged('page_unavailable')).toEqual([expect.objectContaining({ path: '/it-it/chi-siamo' })])
    const [request] = logged('request')
    expect(request?.upstreamFailures).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'sites/it' })]))
  })

  it('answering 404 is a market that does not exist: 404 "(no-country)", not an outage', async () => {
    upstream.fail('sites/it', 404)
    const { status, text, headers } = await visit('/it-it', REMEMBERED, http)
    expect(status).toBe(404)
    expect(text).toContain('This page could not be found (no-country).')
    expect(headers.get('Retry-After')).toBeNull()
  })
})

describe("a page's own data", () => {
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
