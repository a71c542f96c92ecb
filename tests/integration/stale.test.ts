import { env } from 'cloudflare:workers'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { cacheKeysWith } from '../fixtures/cache-keys'
import { clearCaches, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }
const SITE_KEY = cacheKeysWith(http).site('it')

// One stand-in backend for the whole file, never removed: the background refreshes these tests start keep retrying
// (for seconds, as the policy says) after each test, and must keep reaching it rather than the network.
let upstream: HttpUpstream
beforeAll(() => {
  upstream = httpUpstream()
})
beforeEach(async () => {
  upstream.heal()
  await clearCaches()
})
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** The request log lines written meanwhile (every level), parsed. */
function requestLines() {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
  }
  return () =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'request')
}

/** How many calls for the site of Italy the Worker sent upstream since `from`. */
const siteCalls = (from: number) =>
  upstream.requests.slice(from).filter((request) => new URL(request.url).pathname === '/api/sites/it').length

describe('an upstream that falters after a page was served', () => {
  it.each(['slow', 'garbage', 'refused', 500] as const)(
    'serves the page from stale data when the upstream fails (%s)',
    async (fault) => {
      expect((await visit('/it-it/chi-siamo', {}, http)).status).toBe(200)
      const servedAt = ((await env.CACHE.get(SITE_KEY, 'json')) as { storedAt: number } | null)?.storedAt
      expect(servedAt).toBeTypeOf('number')

      // Two hours on, every cached lookup is stale, and every call upstream fails in this way.
      vi.useFakeTimers({ now: Date.now() + 2 * 3600 * 1000, toFake: ['Date'] })
      upstream.fail('', fault)
      const before = upstream.requests.length
      const lines = requestLines()
      // The background refresh keeps retrying (nobody waits for it); the answer does not wait for it either.
      const { status, text, background } = await visit('/it-it/chi-siamo', {}, http, { waitForBackground: false })
      expect(status).toBe(200)
      expect(text).toContain('href="/it-it/contatti"')
      // The fault was hit: the page's lookups went upstream (the site's among them) and met it…
      expect(siteCalls(before)).toBeGreaterThanOrEqual(1)
      // …and what the visitor got was the stale data, as the request's log line says.
      const [line] = lines()
      expect(line).toMatchObject({ path: '/it-it/chi-siamo', status: 200, cache: 'stale' })
      expect(line?.cacheLookups).not.toHaveProperty('miss')
      // Nothing failed was stored: the stale entry is still the one the first visit stored.
      expect(((await env.CACHE.get(SITE_KEY, 'json')) as { storedAt: number } | null)?.storedAt).toBe(servedAt)

      // The backend recovers: the refresh's next attempt succeeds and stores fresh data again.
      const failedCalls = siteCalls(before)
      upstream.heal()
      await background
      expect(siteCalls(before)).toBeGreaterThan(failedCalls)
      const stored = (await env.CACHE.get(SITE_KEY, 'json')) as { storedAt: number } | null
      expect(stored?.storedAt).toBeGreaterThan(Date.now() - 60_000)
    },
  )
})
