import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { cacheKeysWith } from '../fixtures/cache-keys'
import { createUpstream } from '../../src/upstream/client'
import { UpstreamError } from '../../src/upstream/errors'
import { EMBEDDED_ORIGIN, embeddedTransport } from '../../src/upstream/transport'
import { markChecked } from '../../contract/checked-answers'
import { productAnswer } from '../../contract/catalogue-schemas'
import { api } from '../../reference-api'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import italian from '../../demo/messages/it.json'
import { clearCaches, visit } from '../fixtures/worker'

const MAINTENANCE = 'This page its under maintenance, please check again later.'
const UNAVAILABLE = 'This page is temporarily unavailable, please try again in a moment.'
const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }

beforeEach(clearCaches)
afterEach(() => vi.unstubAllGlobals())

describe('the upstream client', () => {
  const answer = z.object({ data: z.object({ ok: z.boolean() }) })
  const client = (respond: (request: Request) => Response | Promise<Response>, timeoutMs = 200) => {
    const seen: Request[] = []
    const upstream = createUpstream({
      transport: async (request) => {
        seen.push(request)
        return respond(request)
      },
      baseUrl: 'http://backend.test',
      timeoutMs,
    })
    return { upstream, seen }
  }

  it('sends X-Tenant and X-Locale when the market is known, and the bearer token when given', async () => {
    const { upstream, seen } = client(() => Response.json({ data: { ok: true } }))
    await upstream.get('a', answer)
    await upstream.forMarket({ country: 'ch', locale: 'fr' }).withToken('secret-token').get('b', answer)
    expect(seen[0]?.url).toBe('http://backend.test/api/a')
    expect(seen[0]?.headers.get('X-Tenant')).toBeNull()
    expect(seen[0]?.headers.get('Authorization')).toBeNull()
    expect(seen[1]?.headers.get('X-Tenant')).toBe('ch')
    expect(seen[1]?.headers.get('X-Locale')).toBe('fr')
    expect(seen[1]?.headers.get('Authorization')).toBe('Bearer secret-token')
  })

  it('sends a state-changing call once, as JSON, with the same headers and no retry', async () => {
    const { upstream, seen } = client(() => new Response('', { status: 502 }))
    const call = upstream
      .forMarket({ country: 'it', locale: 'it' })
      .send('POST', 'auth/logout', { reason: 'user' }, answer)
    await expect(call).rejects.toMatchObject({ failure: 'unavailable', status: 502 })
    expect(seen).toHaveLength(1)
    expect(seen[0]?.method).toBe('POST')
    expect(seen[0]?.headers.get('Content-Type')).toBe('application/json')
    expect(seen[0]?.headers.get('X-Tenant')).toBe('it')
    expect(await seen[0]?.json()).toEqual({ reason: 'user' })
  })

  it('answers null for a 404 and the validated data otherwise', async () => {
    expect(await client(() => new Response('', { status: 404 })).upstream.get('x', answer)).toBeNull()
    expect(await client(() => Response.json({ data: { ok: true } })).upstream.get('x', answer)).toEqual({
      data: { ok: true },
    })
  })

  it('turns a 401 into the distinct "unauthorized" failure, without retrying', async () => {
    const { upstream, seen } = client(() => new Response('', { status: 401 }))
    await expect(upstream.get('user', answer)).rejects.toMatchObject({ failure: 'unauthorized', status: 401 })
    expect(seen).toHaveLength(1)
  })

  it('treats an answer that fails its schema as a failure', async () => {
    await expect(client(() => Response.json({ data: { ok: 'yes' } })).upstream.get('x', answer)).rejects.toMatchObject({
      failure: 'invalid',
    })
    await expect(client(() => new Response('<html>')).upstream.get('x', answer)).rejects.toMatchObject({
      failure: 'invalid',
    })
  })

  it('takes an answer of the embedded API in this isolate, checked with the very schema it is read with, as it is', async () => {
    // Its body is not even JSON: the checked value is taken, the body never read or checked again.
    const checked = embeddedTransport(() => markChecked(new Response('not read'), answer, { data: { ok: true } }))
    const upstream = createUpstream({ transport: checked, baseUrl: EMBEDDED_ORIGIN, timeoutMs: 200 })
    expect(await upstream.get('x', answer)).toEqual({ data: { ok: true } })
  })

  it('reads and checks an answer marked with another schema, or not handed over in-process (over HTTP), again', async () => {
    const other = z.object({ data: z.unknown() })
    const marked = (schema: object) => markChecked(new Response('not JSON'), schema, { data: { ok: true } })
    const otherSchema = createUpstream({
      transport: embeddedTransport(() => marked(other)),
      baseUrl: EMBEDDED_ORIGIN,
      timeoutMs: 200,
    })
    await expect(otherSchema.get('x', answer)).rejects.toMatchObject({ failure: 'invalid' })
    await expect(client(() => marked(answer)).upstream.get('x', answer)).rejects.toMatchObject({ failure: 'invalid' })
  })

  it('gives up after its timeout, and can be aborted by the caller', async () => {
    const never = () => new Promise<Response>(() => {})
    await expect(client(never, 50).upstream.get('slow', answer)).rejects.toMatchObject({ failure: 'timeout' })
    const controller = new AbortController()
    const upstream = createUpstream({
      transport: never,
      baseUrl: 'http://b.test',
      timeoutMs: 10_000,
      signal: controller.signal,
    })
    const pending = upstream.get('slow', answer)
    controller.abort()
    await expect(pending).rejects.toBeInstanceOf(UpstreamError)
  })

  it("retries a transport failure while the visitor's timeout allows, but not a 500 or 503", async () => {
    let calls = 0
    const flaky = client(
      () => (++calls === 1 ? new Response('', { status: 502 }) : Response.json({ data: { ok: true } })),
      2000,
    )
    expect(await flaky.upstream.get('x', answer)).toEqual({ data: { ok: true } })
    expect(calls).toBe(2)
    const down = client(() => new Response('', { status: 503 }), 2000)
    await expect(down.upstream.get('x', answer)).rejects.toMatchObject({ failure: 'unavailable', status: 503 })
    expect(down.seen).toHaveLength(1)
  })
})

describe('the site over an HTTP upstream', () => {
  it('calls UPSTREAM_URL/api/... with the market headers', async () => {
    const upstream = httpUpstream()
    expect((await visit('/ch-fr', {}, http)).status).toBe(200)
    const siteCall = upstream.requests.find((r) => r.url === `${UPSTREAM_URL}/api/sites/ch`)
    expect(siteCall?.headers.get('X-Tenant')).toBe('ch')
    expect(siteCall?.headers.get('X-Locale')).toBe('fr')
    expect(upstream.requests.some((r) => r.url === `${UPSTREAM_URL}/api/country-wise-locale-content/ch/fr`)).toBe(true)
    expect(upstream.requests.some((r) => r.url === `${UPSTREAM_URL}/api/front/menu/products?type_id=1`)).toBe(true)
    expect(upstream.requests.every((r) => !r.headers.has('Authorization'))).toBe(true)
  })

  it('makes no upstream call for an anonymous page from warm caches', async () => {
    const upstream = httpUpstream()
    await visit('/it-it', {}, http)
    const before = upstream.requests.length
    expect((await visit('/it-it', {}, http)).status).toBe(200)
    expect(upstream.requests.length).toBe(before)
  })

  it.each([500, 503])('answers maintenance when the site lookup answers %i', async (status) => {
    const upstream = httpUpstream()
    upstream.fail('sites/it', status)
    const {
      status: answered,
      text,
      headers,
    } = await visit('/it-it', { headers: { Cookie: 'CountryLocale=it-it' } }, http)
    expect(answered).toBe(503)
    expect(text).toContain(MAINTENANCE)
    expect(headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(headers.get('Set-Cookie')).toMatch(/^CountryLocale=;.*Max-Age=0/)
    // The way out is the landing page's market picker, never the market under maintenance itself.
    expect(text).toContain('href="/"')
    expect(text).not.toContain('href="/it-it"')
  })

  it('answers 503 "temporarily unavailable", never a 500 nor maintenance, when a slow upstream times out with nothing cached', async () => {
    httpUpstream().fail('sites/', 'slow')
    const { status, text } = await visit('/it-it/chi-siamo', {}, http)
    expect(status).toBe(503)
    expect(text).toContain(UNAVAILABLE)
    expect(text).not.toContain(MAINTENANCE)
  })

  it('heads the "temporarily unavailable" page of a known market in its language, with the exact message and the 503 unchanged', async () => {
    const upstream = httpUpstream()
    await visit('/it-it', {}, http)
    upstream.fail('', 'refused')
    const { status, text, headers } = await visit('/it-it/chi-siamo', {}, http)
    expect(status).toBe(503)
    expect(headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(text).toContain(`<h1 class="error-title">${italian.common.unavailable_title}</h1>`)
    expect(text).toContain(`<p class="error-message" lang="en" dir="ltr">${UNAVAILABLE}</p>`)
  })

  it('never caches an answer that failed validation', async () => {
    const upstream = httpUpstream()
    upstream.fail('sites/es', 'garbage')
    expect((await visit('/es-es', {}, http)).status).toBe(503)
    expect(await env.CACHE.get(cacheKeysWith(http).site('es'))).toBeNull()
    upstream.heal()
    expect((await visit('/es-es', {}, http)).status).toBe(200)
  })

  it("gives the error page for a backend's product that fails its schema, even in an answer the embedded API marked as checked", async () => {
    const upstream = httpUpstream()
    const product = await (
      await api.fetch(
        new Request(`${UPSTREAM_URL}/api/front/products/aurora-strada-9`, {
          headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
        }),
        env,
      )
    ).json()
    // A backend over HTTP is never trusted: a wrong answer is refused whatever this isolate remembers of its object.
    upstream.fail('front/products/aurora-strada-9', () =>
      markChecked(Response.json({ data: { name: 42 } }), productAnswer, product),
    )
    const { status, text } = await visit('/it-it/products/aurora-strada-9', {}, http)
    expect(status).toBe(503)
    expect(text).toContain(UNAVAILABLE)
  })

  it('answers a page not found as the page does, even with the upstream down', async () => {
    const upstream = httpUpstream()
    await visit('/it-it', {}, http)
    upstream.fail('', 'refused')
    const { status, text } = await visit('/it-it/pagina-inesistente', {}, http)
    expect(status).toBe(404)
    expect(text).toContain('Page Not Found: /it-it/pagina-inesistente')
  })
})
