import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { mailsOf, referenceOf, sendForm } from '../fixtures/lead-forms'
import { cacheKeys } from '../fixtures/cache-keys'
import { PUBLIC_PAGES } from '../fixtures/public-pages'
import { steadyRateLimiters } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

afterEach(() => vi.restoreAllMocks())

describe('security headers', () => {
  it("protect every HTML answer: each script allowed by the answer's nonce, or on a kept page by its hash, never by its origin", async () => {
    const sha256 = async (code: string) =>
      btoa(
        String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)))),
      )
    // A page of every public kind, once fresh and once kept (a page that may be kept answers by hashes the second time).
    const pages = PUBLIC_PAGES.map(({ path }) => path)
    for (const path of [...pages, ...pages]) {
      const { headers, text } = await visit(path)
      if (!headers.get('Content-Type')?.startsWith('text/html')) continue
      expect(headers.get('Strict-Transport-Security'), path).toMatch(/max-age=(\d{8,})/)
      expect(Number(/max-age=(\d+)/.exec(headers.get('Strict-Transport-Security')!)![1])).toBeGreaterThanOrEqual(
        31_536_000,
      )
      expect(headers.get('X-Content-Type-Options')).toBe('nosniff')
      // The whistleblower channel sends no referrer at all (no trace of a reporter).
      expect(headers.get('Referrer-Policy'), path).toBe(
        path.includes('/whistleblower-form') ? 'no-referrer' : 'strict-origin-when-cross-origin',
      )
      const csp = headers.get('Content-Security-Policy') ?? ''
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).toContain("object-src 'none'")
      expect(csp, path).not.toContain('unsafe-inline')
      // A page that runs no script (an error page) allows none; any other only its own, by nonce or hash.
      if (csp.includes("script-src 'none'")) expect(text, path).not.toContain('<script')
      else expect(csp, path).toContain("'strict-dynamic'")
      // No script is loaded by the page's markup: one inline loader starts its modules.
      expect(text, path).not.toMatch(/<script[^>]* src=/)
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1]
      for (const [, attributes, code] of text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/type="application\/(ld\+)?json"/.test(attributes!)) continue
        if (nonce) expect(attributes, path).toContain(`nonce="${nonce}"`)
        else expect(csp, path).toContain(`'sha256-${await sha256(code!)}'`)
      }
    }
    // The landing page is no kept page: each answer has a nonce of its own.
    const [a, b] = await Promise.all([visit('/'), visit('/')])
    expect(a.headers.get('Content-Security-Policy')).toMatch(/'nonce-/)
    expect(a.headers.get('Content-Security-Policy')).not.toBe(b.headers.get('Content-Security-Policy'))
  })

  it('let error and maintenance pages run no script at all', async () => {
    for (const path of ['/zz-zz', '/nl-nl', '/it-it/no-such-page']) {
      const { headers, text } = await visit(path)
      expect(headers.get('Content-Security-Policy'), path).toContain("script-src 'none'")
      expect(headers.get('Content-Security-Policy'), path).toContain("frame-ancestors 'none'")
      expect(text, path).not.toContain('<script')
    }
  })
})

describe('the request log', () => {
  it('writes one JSON line per request, with no cookie, token or query', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    await visit('/it-it/chi-siamo?email=someone@example.com', {
      headers: {
        Cookie: 'CountryLocale=it-it; __Host-AuthTkn=secret-session-id',
        Authorization: 'Bearer secret-token',
      },
    })
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.method)
    expect(requestLines).toHaveLength(1)
    expect(requestLines[0]).toMatchObject({ method: 'GET', path: '/it-it/chi-siamo', status: 200, market: 'it-it' })
    expect(requestLines[0]).toHaveProperty('cache')
    expect(requestLines[0]).toHaveProperty('upstreamCalls')
    expect(requestLines[0]).toHaveProperty('durationMs')
    const all = lines.join('\n')
    for (const secret of ['secret-session-id', 'secret-token', 'someone@example.com']) expect(all).not.toContain(secret)
  })

  it('never writes a password-reset token that stands in the path', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    await visit('/it-it/update-password/Zm9yZ2V0LW1lLW5vdA')
    expect(lines.join('\n')).not.toContain('Zm9yZ2V0LW1lLW5vdA')
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.method)?.path).toBe('/it-it/update-password/:token')
  })
})

describe("the Worker's own paths", () => {
  it('answers /_health', async () => {
    const { status, text, headers } = await visit('/_health')
    expect(status).toBe(200)
    expect(JSON.parse(text)).toEqual({ status: 'ok', upstream: 'embedded', publicOrigin: true })
    expect(headers.get('Cache-Control')).toBe('no-store')
  })

  it('answers /robots.txt, keeping crawlers out of private and operator paths', async () => {
    const { status, text } = await visit('/robots.txt')
    expect(status).toBe(200)
    expect(text).toContain('User-agent: *')
    expect(text).toContain('Disallow: /api/')
    expect(text).toContain('Disallow: /*/my-account')
  })

  it('serves the embedded API under /api/ only when it is the upstream', async () => {
    expect((await visit('/api/sites/it')).status).toBe(200)
    expect((await visit('/api/sites/it', {}, { UPSTREAM_URL })).status).toBe(404)
    expect((await visit('/api/nowhere')).status).toBe(404)
  })

  it("keeps the markets' lead mailboxes out of the public site records, while a lead form still reaches its market's", async () => {
    for (const path of ['/api/sites', '/api/sites/it', '/api/sites/int']) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(200)
      expect(text, path).not.toContain('form_recipients')
      expect(text, path).not.toMatch(/[\w.+-]+@[\w-]+(\.[\w-]+)+/)
    }
    const contact = {
      topic: 'other',
      name: 'Giulia Rossi',
      email: 'giulia@example.com',
      order_code: '',
      message: 'Una domanda.',
      consent: 'on',
    }
    const { status, headers } = await sendForm('/it-it/contatti', 'contact', contact)
    expect(status).toBe(303)
    const mails = await mailsOf(referenceOf(headers.get('Location'))!)
    expect(mails.find((mail) => mail.kind === 'contact_notice')?.recipient).toBe('hello.it@aurora-cycles.example')
  })

  it('sends hreflang alternates of the live markets and an x-default', async () => {
    const { text } = await visit('/it-it/chi-siamo')
    expect(text).toContain('<link rel="canonical" href="https://site.test/it-it/chi-siamo"/>')
    expect(text).toMatch(/hreflang="de-CH" href="https:\/\/site.test\/ch-de\/ueber-uns"/i)
    expect(text).toContain('href="https://site.test/de-de/ueber-uns"')
    expect(text).toMatch(/hreflang="x-default" href="https:\/\/site.test\/"/i)
    expect(text).not.toContain('https://site.test/nl-nl')
  })
})

describe('wrong purge secrets', () => {
  let limiters: Partial<Cloudflare.Env> = {}
  beforeEach(() => {
    limiters = steadyRateLimiters()
  })
  const purge = (client: string, secret: string) =>
    visit(
      '/_purge?market=it-it',
      { method: 'POST', headers: { 'CF-Connecting-IP': client, Authorization: `Bearer ${secret}` } },
      limiters,
    )

  it('lock a client out with 429 and Retry-After after five, the right secret included; another client still purges', async () => {
    const guesser = '203.0.113.50'
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await purge(guesser, `guess-${i}`)).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    const locked = await purge(guesser, env.PURGE_SECRET)
    expect(locked.status).toBe(429)
    expect(locked.headers.get('Retry-After')).toBe('60')
    expect(JSON.parse(locked.text)).toEqual({ error: 'too many wrong secrets' })
    const operator = await purge('203.0.113.51', env.PURGE_SECRET)
    expect(operator.status).toBe(200)
    expect(JSON.parse(operator.text)).toMatchObject({ scope: 'it' })
  })

  it('are the only ones counted: an operator who purges often is never locked', async () => {
    for (let i = 0; i < 8; i++) expect((await purge('203.0.113.52', env.PURGE_SECRET)).status).toBe(200)
  })

  it('never reach the log, and neither does the right one', async () => {
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
    for (let i = 0; i < 6; i++) await purge('203.0.113.53', `wrong-secret-${i}`)
    await purge('203.0.113.54', env.PURGE_SECRET)
    const log = lines.join('\n')
    expect(log).toContain('"event":"purge_locked"')
    expect(log).toContain('"event":"cache_purged"')
    for (const secret of [env.PURGE_SECRET, 'wrong-secret-']) expect(log).not.toContain(secret)
  })

  it('uses the limit of wrangler.toml', () => {
    expect(env.TEST_RATE_LIMITS.PURGE_ATTEMPTS).toBe(5)
  })
})

describe("the brand's features (api/get-features)", () => {
  it("are cached with the other lookups and switch the header's login link", async () => {
    await clearCaches()
    expect((await visit('/it-it')).text).toContain('href="/login?redirect=%2Fit-it"')
    expect(await env.CACHE.get(cacheKeys.features())).not.toBeNull()
    await env.DB.prepare("UPDATE features SET enabled = 0 WHERE key = 'customer_login'").run()
    try {
      await clearCaches()
      expect((await visit('/it-it')).text).not.toContain('href="/login')
    } finally {
      await env.DB.prepare("UPDATE features SET enabled = 1 WHERE key = 'customer_login'").run()
      await clearCaches()
    }
  })
})

describe('configuration', () => {
  it('answers 503 maintenance, never a 500, when UPSTREAM_URL is not a URL, and says so on /_health', async () => {
    const { status, text } = await visit('/it-it', {}, { UPSTREAM_URL: 'not a url' })
    expect(status).toBe(503)
    expect(text).toContain('This page its under maintenance, please check again later.')
    const health = await visit('/_health', {}, { UPSTREAM_URL: 'not a url' })
    expect(health.status).toBe(503)
    expect(JSON.parse(health.text)).toEqual({ status: 'misconfigured', upstream: 'invalid', publicOrigin: true })
  })

  it("lets images come from the brand's API host when there is one, and from the tile server on the dealer locator only", async () => {
    httpUpstream()
    try {
      const home = await visit('/it-it', {}, { UPSTREAM_URL: `${UPSTREAM_URL}/` })
      expect(home.status).toBe(200)
      // (before a choice nothing of the tag manager: docs/decisions/064-before-consent.md)
      expect(home.headers.get('Content-Security-Policy')).toContain(`img-src 'self' data: ${UPSTREAM_URL};`)
      // The tile server once the visitor allowed functional content (the map's street tiles).
      const locator = await visit(
        '/it-it/rivenditori',
        { headers: { Cookie: '__Host-Consent=v1.a0.m0.f1' } },
        { UPSTREAM_URL: `${UPSTREAM_URL}/` },
      )
      expect(locator.status).toBe(200)
      expect(locator.headers.get('Content-Security-Policy')).toContain(
        `img-src 'self' data: ${UPSTREAM_URL} https://tile.openstreetmap.org;`,
      )
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
