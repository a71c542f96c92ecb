import { env } from 'cloudflare:workers'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }

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
afterEach(() => vi.useRealTimers())

describe('an upstream that falters after a page was served', () => {
  it.each(['slow', 'garbage', 'refused', 500] as const)('serves the page from stale data when the upstream fails (%s)', async (fault) => {
    expect((await visit('/it-it/chi-siamo', {}, http)).status).toBe(200)
    vi.useFakeTimers({ now: Date.now() + 2 * 3600 * 1000, toFake: ['Date'] })
    upstream.fail('', fault)
    // The background refresh keeps retrying (nobody waits for it); the answer does not wait for it either.
    const { status, text, background } = await visit('/it-it/chi-siamo', {}, http, { waitForBackground: false })
    expect(status).toBe(200)
    expect(text).toContain('href="/it-it/contatti"')
    // The backend recovers: the refresh's next attempt succeeds and stores fresh data again.
    upstream.heal()
    await background
    const stored = (await env.CACHE.get('v2:site:it', 'json')) as { storedAt: number } | null
    expect(stored?.storedAt).toBeGreaterThan(Date.now() - 60_000)
  })
})
