import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { configOf } from '../../src/config'
import type { Bindings } from '../../src/env'
import { issueFormToken } from '../../src/forms/form-token'
import { embedReferenceApi, embeddedReferenceApi, type ReferenceApi } from '../../src/upstream/reference-api'
import { cacheKeys, cacheKeysWith } from '../fixtures/cache-keys'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { sendForm } from '../fixtures/lead-forms'
import { DEMO, formPost, nextClient } from '../fixtures/session'
import { ANONYMOUS_REPORT, postReport } from '../fixtures/whistleblower'
import { clearCaches, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }
/** An HTTP upstream and no Access service token. */
const withoutCredential = { ...http, UPSTREAM_ACCESS_CLIENT_ID: '', UPSTREAM_ACCESS_CLIENT_SECRET: '' }
const CONTACT = {
  topic: 'warranty',
  name: 'Giulia Rossi',
  email: 'giulia@example.com',
  order_code: '',
  message: 'The bell of my Strada rattles.',
  consent: 'on',
}

/** Every line the Worker logs while `run` runs, as written. */
async function logLinesOf(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = []
  const spies = (['log', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line))),
  )
  try {
    await run()
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
  return lines
}

beforeEach(clearCaches)
afterEach(() => vi.unstubAllGlobals())

describe("the Worker's Access service token (UPSTREAM_ACCESS_CLIENT_ID / _SECRET)", () => {
  it('goes with every call to an HTTP upstream, reads and writes, and is never logged', async () => {
    const upstream = httpUpstream()
    const lines = await logLinesOf(async () => {
      expect((await visit('/it-it', {}, http)).status).toBe(200)
      expect((await visit('/it-it/chi-siamo', {}, http)).status).toBe(200)
      expect((await sendForm('/it-it/contatti', 'contact', CONTACT, {}, http)).status).toBe(303)
    })
    expect(upstream.requests.map((request) => request.method)).toContain('POST')
    for (const request of upstream.requests) {
      expect(request.headers.get('CF-Access-Client-Id'), request.url).toBe(env.UPSTREAM_ACCESS_CLIENT_ID)
      expect(request.headers.get('CF-Access-Client-Secret'), request.url).toBe(env.UPSTREAM_ACCESS_CLIENT_SECRET)
    }
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(env.UPSTREAM_ACCESS_CLIENT_SECRET)
  })

  describe('with the embedded API', () => {
    let composed: ReferenceApi | null = null
    beforeEach(() => {
      composed = embeddedReferenceApi()
    })
    afterEach(() => {
      if (composed) embedReferenceApi(composed)
    })

    it('goes with no call: the embedded API is no origin behind Access', async () => {
      const calls: Array<{ url: string; headers: Headers }> = []
      const recording = composed as ReferenceApi
      // The real reference API, its requests seen on their way in.
      embedReferenceApi({
        ...recording,
        fetch: (request, bindings, ctx) => {
          calls.push({ url: request.url, headers: new Headers(request.headers) })
          return api.fetch(request, bindings, ctx)
        },
      })
      expect((await visit('/it-it')).status).toBe(200)
      expect(calls.length).toBeGreaterThan(0)
      for (const request of calls) {
        expect(request.headers.has('CF-Access-Client-Id'), request.url).toBe(false)
        expect(request.headers.has('CF-Access-Client-Secret'), request.url).toBe(false)
      }
    })
  })

  it('missing: no form, sign-up, password reset or whistleblower post reaches the backend (503, logged)', async () => {
    const upstream = httpUpstream()
    const lines = await logLinesOf(async () => {
      const contact = await sendForm('/it-it/contatti', 'contact', CONTACT, {}, withoutCredential)
      expect(contact.status).toBe(503)
      expect(contact.text).toContain(CONTACT.message)
      const forgot = await visit(
        '/login/forgot',
        formPost({ forgot_email: DEMO.email }, { Cookie: 'CountryLocale=it-it', 'CF-Connecting-IP': nextClient() }),
        withoutCredential,
      )
      expect(forgot.status).toBe(503)
      const signUp = await visit(
        '/login/register',
        formPost(
          {
            first_name: 'Chiara',
            last_name: 'Bianchi',
            email: 'no-credential@example.com',
            password: 'Gravel-Roads-2027',
            consent: 'on',
            form_token: await issueFormToken(env.SESSION_SECRET as string, 'register', Date.now() - 10_000),
          },
          { Cookie: 'CountryLocale=it-it', 'CF-Connecting-IP': nextClient() },
        ),
        withoutCredential,
      )
      expect(signUp.status).toBe(503)
      const report = await postReport('it-it', ANONYMOUS_REPORT, [], withoutCredential)
      expect(report.status).toBe(503)
      expect(report.receipt).toBeNull()
    })
    expect(upstream.requests.filter((request) => request.method !== 'GET')).toEqual([])
    expect(lines.filter((line) => line.includes('"upstream_credential_missing"')).length).toBeGreaterThanOrEqual(4)
  })

  it('half given is none, logged config_invalid', async () => {
    const upstream = httpUpstream()
    const half = { ...http, UPSTREAM_ACCESS_CLIENT_SECRET: '' }
    const lines = await logLinesOf(async () => {
      expect((await sendForm('/it-it/contatti', 'contact', CONTACT, {}, half)).status).toBe(503)
    })
    expect(upstream.requests.some((request) => request.headers.has('CF-Access-Client-Id'))).toBe(false)
    expect(
      lines.some((line) => line.includes('"config_invalid"') && line.includes('UPSTREAM_ACCESS_CLIENT_SECRET')),
    ).toBe(true)
  })
})

describe('UPSTREAM_URL in clear', () => {
  it('is refused outside this machine: 503 and config_invalid, nothing sent', async () => {
    const fetched = vi.fn(async () => new Response('{}'))
    vi.stubGlobal('fetch', fetched)
    const lines = await logLinesOf(async () => {
      expect((await visit('/it-it', {}, { UPSTREAM_URL: 'http://api.brand.example' })).status).toBe(503)
      expect((await visit('/_health', {}, { UPSTREAM_URL: 'http://api.brand.example' })).status).toBe(503)
    })
    expect(fetched).not.toHaveBeenCalled()
    expect(lines.some((line) => line.includes('"config_invalid"') && line.includes('"UPSTREAM_URL"'))).toBe(true)
  })

  it('is taken on this machine (a backend beside `npm start`), https anywhere', () => {
    for (const url of ['http://127.0.0.1:8000', 'http://localhost:8000/', 'https://api.brand.example']) {
      expect(configOf({ ...env, UPSTREAM_URL: url } as Bindings).upstream.kind, url).toBe('http')
    }
  })
})

describe('a switch of upstream', () => {
  it("never serves the previous upstream's cached answers", async () => {
    expect((await visit('/it-it/chi-siamo')).status).toBe(200)
    expect(await env.CACHE.get(cacheKeys.site('it'))).not.toBeNull()
    const upstream = httpUpstream()
    upstream.fail('', 503)
    // The brand's backend is down and nothing of its own is cached: the embedded API's answers are not its.
    expect((await visit('/it-it/chi-siamo', {}, http)).status).toBe(503)
    expect(upstream.requests.some((request) => request.url === `${UPSTREAM_URL}/api/sites/it`)).toBe(true)
    expect(await env.CACHE.get(cacheKeysWith(http).site('it'))).toBeNull()
  })

  it('keys every cached lookup by the upstream it came from', () => {
    expect(cacheKeysWith(http).site('it')).not.toBe(cacheKeys.site('it'))
    expect(cacheKeysWith({ UPSTREAM_URL: 'https://other.test' }).site('it')).not.toBe(cacheKeysWith(http).site('it'))
  })
})
