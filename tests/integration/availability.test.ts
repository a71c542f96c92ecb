import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL }

/** Switches a brand feature off for one test. */
async function switchOff(feature: string) {
  await env.DB.prepare('UPDATE features SET enabled = 0 WHERE key = ?').bind(feature).run()
  await clearCaches()
}

let upstream: HttpUpstream
beforeEach(async () => {
  upstream = httpUpstream()
  await env.DB.prepare('UPDATE features SET enabled = 1').run()
  await clearCaches()
})
afterEach(() => vi.unstubAllGlobals())

/** The paths the Worker asked the API for since `from` (without `/api/` and the query). */
const calledSince = (from: number) =>
  upstream.requests.slice(from).map((request) => new URL(request.url).pathname.replace(/^\/api\//, ''))

describe('one availability rule', () => {
  it('answers a switched-off search "Page Not Found" without sending the search upstream', async () => {
    await switchOff('search')
    const before = upstream.requests.length
    const { status, text } = await visit('/it-it/search/all?q=strada', {}, http)
    expect(status).toBe(404)
    expect(text).toContain('Page Not Found: /it-it/search/all?q=strada')
    expect(calledSince(before)).not.toContain('front/search')
  })

  it('sends the search upstream when it is on', async () => {
    const before = upstream.requests.length
    expect((await visit('/it-it/search/all?q=strada', {}, http)).status).toBe(200)
    expect(calledSince(before)).toContain('front/search')
  })

  it('answers switched-off dealer pages "Page Not Found" without reading the dealers, and drops their links', async () => {
    await switchOff('dealer_locator')
    const before = upstream.requests.length
    expect((await visit('/it-it/dealers/cicli-bergamasca', {}, http)).status).toBe(404)
    expect((await visit('/it-it/rivenditori', {}, http)).status).toBe(404)
    expect(calledSince(before)).not.toContain('front/dealers')
    const home = await visit('/it-it', {}, http)
    expect(home.text).not.toContain('href="/it-it/rivenditori"')
  })

  it('takes login and the account away with the customer_login feature: routes, guards and the header', async () => {
    await switchOff('customer_login')
    expect((await visit('/login')).status).toBe(404)
    expect((await visit('/it-it/my-account')).status).toBe(404)
    expect((await visit('/it-it/update-password/abcdefghijklmnopqrstuvwxyz')).status).toBe(404)
    expect((await visit('/it-it')).text).not.toContain('href="/login')
  })

  it('lists in the footer and the header only the pages a market has switched on', async () => {
    // de-de has test rides switched off; it-it has them on.
    const de = await visit('/de-de')
    expect(de.text).not.toContain('href="/de-de/probefahrt"')
    expect(de.text).toContain('href="/de-de/ueber-uns"')
    expect((await visit('/de-de/probefahrt')).status).toBe(404)
    expect((await visit('/it-it')).text).toContain('href="/it-it/prova-su-strada"')
  })

  it('logs, and keeps every page on, when the features cannot be read at all', async () => {
    const warnings: string[] = []
    vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warnings.push(String(line)))
    upstream.fail('get-features', 503)
    const { status, text } = await visit('/it-it', {}, http)
    expect(status).toBe(200)
    expect(text).toContain('href="/login?redirect=%2Fit-it"')
    expect(warnings.some((line) => line.includes('"features_unavailable"'))).toBe(true)
  })
})
