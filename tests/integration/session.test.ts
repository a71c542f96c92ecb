import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { forgetRememberedSessions, SessionLifetime } from '../../src/auth/sessions'
import { api } from '../../reference-api'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, textOf, visit } from '../fixtures/worker'
import { formPost, logIn, sessionIdOf, sessions, storedSession, visitAs } from '../fixtures/session'

/** The auth routes of PRODUCT.md §3 (checkout's pages arrive with checkout; the guard is already theirs). */
const AUTH_PAGES = [
  '/it-it/my-account',
  '/it-it/my-account/addresses',
  '/it-it/my-account/addresses/1/edit',
  '/it-it/my-account/bikes',
  '/it-it/my-account/orders',
  '/it-it/my-account/orders?page=2',
  '/it-it/my-account/orders/AUR-10001',
  '/it-it/checkout/CART-1',
  '/it-it/checkout/CART-1/result',
]

/** Calls the embedded API with a token, as the Worker does. */
const apiUser = (token: string) =>
  api.fetch(
    new Request('http://embedded.invalid/api/auth/user', {
      headers: { Authorization: `Bearer ${token}` },
    }) as Parameters<typeof api.fetch>[0],
    env,
  )

describe('the auth guard', () => {
  it.each(AUTH_PAGES)('sends an anonymous visitor from %s to the login page, coming back afterwards', async (path) => {
    const { status, headers } = await visit(path)
    expect(status).toBe(302)
    expect(headers.get('Location')).toBe(`/login?redirect=${encodeURIComponent(path)}`)
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    expect(headers.getSetCookie()).toEqual([])
  })

  it("guards the account's forms too: an anonymous post changes nothing and goes to the login page (303)", async () => {
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses').first<number>('n')
    const { status, headers } = await visit('/it-it/my-account/addresses/1/delete', formPost({ first_name: 'X' }))
    expect(status).toBe(303)
    // Back to the account after login: the form itself cannot be sent again by a redirect.
    expect(headers.get('Location')).toBe('/login?redirect=%2Fit-it%2Fmy-account')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses').first<number>('n')).toBe(before)
  })

  it('still resolves the market first: an unknown market is its 404, a market under maintenance its 503', async () => {
    expect((await visit('/xx-yy/my-account')).status).toBe(404)
    expect((await visit('/nl-nl/my-account')).status).toBe(503)
  })

  it("lets a logged-in visitor in, with pages no cache keeps and the header's account link and logout button", async () => {
    const id = await logIn()
    const { status, headers, text } = await visitAs(id, '/it-it/my-account')
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    expect(text).toContain('href="/it-it/my-account"')
    expect(text).toMatch(/<form [^>]*action="\/logout" method="post">/)
    expect(text).toContain('<meta name="robots" content="noindex"/>')
    // Public pages know the visitor too, so only their browser may keep them.
    // (The first gives the browser its copy of the cart count, src/cart/cart-count.ts, and so is not kept at all.)
    const first = await visitAs(id, '/it-it')
    expect(first.headers.get('Cache-Control')).toBe('private, no-store')
    const copy = first.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-CartCount-it='))
      ?.split(';')[0] as string
    const home = await visitAs(id, '/it-it', { headers: { Cookie: copy } })
    expect(home.headers.get('Cache-Control')).toBe('private, no-cache')
    expect(home.headers.getSetCookie()).toEqual([])
    expect(textOf(home.text)).toContain('Il mio account')
  })
})

describe('logging out', () => {
  it('ends the session here and upstream, so the copied cookie stops working', async () => {
    const id = await logIn()
    const { token } = await storedSession(id)
    const { status, headers } = await visitAs(id, '/logout', formPost({ redirect: '/it-it' }))
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/it-it')
    expect(headers.getSetCookie().join()).toMatch(/__Host-AuthTkn=; Max-Age=0/)
    expect(await sessions().read(id)).toBeNull()
    expect((await apiUser(token)).status).toBe(401)
    const replay = await visitAs(id, '/it-it/my-account')
    expect(replay.status).toBe(302)
    expect(replay.headers.get('Location')).toBe('/login?redirect=%2Fit-it%2Fmy-account')
    expect(headers.getSetCookie().join()).toMatch(/__Host-Notice=logged_out/)
    const toast = await visit('/it-it', { headers: { Cookie: '__Host-Notice=logged_out' } })
    expect(toast.text).toMatch(/<p class="toast" role="status" data-notice="logged_out">[^<]+<\/p>/)
  })

  it('ends only that session: the same customer on another device stays logged in', async () => {
    const phone = await logIn()
    const laptop = await logIn()
    await visitAs(laptop, '/logout', formPost({ redirect: '/it-it' }))
    expect((await visitAs(phone, '/it-it/my-account')).status).toBe(200)
  })
})

describe('a 401 on a call of an anonymous visitor (seed §8: "401 on any call: log out")', () => {
  const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }
  /** The request log line of the last request, parsed. */
  const requestLine = (lines: string[]) =>
    JSON.parse(lines.filter((line) => line.includes('"event":"request"')).at(-1) ?? '{}') as Record<string, unknown>

  /** An anonymous visit of `path` (a market remembered) over an API that answers 401 to `prefix`, with its log lines. */
  async function visitRefused(prefix: string, path: string) {
    await clearCaches()
    const upstream = httpUpstream()
    upstream.fail(prefix, 401)
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
    return { ...(await visit(path, { headers: { Cookie: 'CountryLocale=it-it' } }, http)), upstream, lines }
  }

  it.each([
    ['the SEO record', 'front/seo', '/it-it/chi-siamo'],
    ['the product menu', 'front/menu', '/it-it'],
    ['the latest news', 'front/news', '/it-it'],
  ])(
    'on %s: nobody to log out, so the page is answered without it, and the refusal is logged',
    async (_, prefix, path) => {
      const { status, headers, lines } = await visitRefused(prefix, path)
      expect(status).toBe(200)
      expect(headers.get('Location')).toBeNull()
      expect(headers.getSetCookie()).toEqual([])
      expect(requestLine(lines).upstreamFailures).toContainEqual(
        expect.objectContaining({ failure: 'unauthorized', status: 401 }),
      )
    },
  )

  it.each([
    ['the site lookup', 'sites/it', '/it-it'],
    ['the content page', 'front/pages/about-us', '/it-it/chi-siamo'],
    ['the product', 'front/products/aurora-strada-9', '/it-it/products/aurora-strada-9'],
  ])(
    'on %s the page needs: 503 "temporarily unavailable" (a failed call, seed §8), neither maintenance nor a login, and the visitor keeps the market they picked',
    async (_, prefix, path) => {
      const { status, headers, text, upstream, lines } = await visitRefused(prefix, path)
      expect(status).toBe(503)
      expect(text).toContain('This page is temporarily unavailable, please try again in a moment.')
      expect(text).not.toContain('under maintenance')
      expect(headers.get('Retry-After')).toBe('60')
      expect(headers.get('Location')).toBeNull()
      // Only maintenance (a site lookup's 500 or 503) forgets the remembered market: a 401 leaves every cookie alone.
      expect(headers.getSetCookie()).toEqual([])
      expect(headers.get('Cache-Control')).toBe('no-store')
      expect(upstream.requests.filter((request) => request.url.includes(`/api/${prefix}`))).toHaveLength(1)
      expect(requestLine(lines)).toMatchObject({ status: 503, error: expect.stringContaining('unauthorized') })
      expect(lines.join('\n')).not.toContain('Stack')
    },
  )
})

describe('a 401 from the API ends the session', () => {
  it('on an account page: the visitor goes to log in again, back to the page, and the session is gone', async () => {
    const id = await logIn()
    await env.DB.prepare('DELETE FROM access_tokens').run()
    const { status, headers } = await visitAs(id, '/it-it/my-account/orders')
    expect(status).toBe(302)
    expect(headers.get('Location')).toBe('/login?redirect=%2Fit-it%2Fmy-account%2Forders')
    expect(headers.getSetCookie().join()).toMatch(/__Host-AuthTkn=; Max-Age=0/)
    expect(await sessions().read(id)).toBeNull()
  })

  it('on an account form: the post changes nothing and answers 303 to the login page, back to the account', async () => {
    const id = await logIn()
    await env.DB.prepare('DELETE FROM access_tokens').run()
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses').first<number>('n')
    const { status, headers } = await visitAs(id, '/it-it/my-account/addresses/1/delete', formPost({}))
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/login?redirect=%2Fit-it%2Fmy-account')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses').first<number>('n')).toBe(before)
  })

  it('on a public page: when the session is next checked it renders as anonymous and takes the cookie back', async () => {
    const id = await logIn()
    const session = await storedSession(id)
    await sessions().save(id, { ...session, seenAt: Date.now() - SessionLifetime.refreshMs - 1000 })
    await env.DB.prepare('DELETE FROM access_tokens').run()
    const { status, headers, text } = await visitAs(id, '/it-it')
    expect(status).toBe(200)
    expect(text).toContain('href="/login?redirect=%2Fit-it"')
    // It clears a cookie: no cache may keep it.
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(headers.getSetCookie().join()).toMatch(/__Host-AuthTkn=; Max-Age=0/)
    expect(await sessions().read(id)).toBeNull()
  })

  it.each([503, 'slow', 'refused'] as const)(
    'keeps a session whose check fails because the API is down (%s), and asks again only after a while: an outage costs one wait, not one per page',
    async (fault) => {
      const upstream = httpUpstream()
      try {
        const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '200' }
        const id = await logIn()
        const session = await storedSession(id)
        await sessions().save(id, { ...session, seenAt: Date.now() - SessionLifetime.refreshMs - 1000 })
        upstream.fail('auth/user', fault)
        const warnings: string[] = []
        vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warnings.push(String(line)))
        const checks = () =>
          upstream.requests.filter((request) => new URL(request.url).pathname === '/api/auth/user').length

        // The first page asks, meets the outage, and stays logged in (only a 401 logs out).
        const first = await visitAs(id, '/it-it', {}, http)
        expect(first.text).toContain('href="/it-it/my-account"')
        expect(checks()).toBeGreaterThanOrEqual(1)
        expect(warnings.some((line) => line.includes('"session_check_failed"'))).toBe(true)
        const asked = checks()

        // The next pages do not ask again: the outage was remembered with the session.
        for (const path of ['/it-it/chi-siamo', '/it-it/news', '/it-it/my-account']) {
          const { status, text } = await visitAs(id, path, {}, http)
          expect(status, path).toBe(200)
          expect(text, path).toContain('href="/it-it/my-account"')
        }
        expect(checks()).toBe(asked)

        // A while later, the API is back: the session is checked again, and kept.
        upstream.heal()
        vi.useFakeTimers({ now: Date.now() + SessionLifetime.retryMs + 1000, toFake: ['Date'] })
        expect((await visitAs(id, '/it-it', {}, http)).text).toContain('href="/it-it/my-account"')
        expect(checks()).toBe(asked + 1)
      } finally {
        vi.useRealTimers()
        vi.restoreAllMocks()
        vi.unstubAllGlobals()
      }
    },
  )
})

describe('session lifetimes', () => {
  it('ends a session left idle for longer than the idle lifetime', async () => {
    const id = await logIn()
    const session = await storedSession(id)
    await sessions().save(id, { ...session, seenAt: Date.now() - SessionLifetime.idleMs - 1000 })
    expect((await visitAs(id, '/it-it/my-account')).status).toBe(302)
    expect(await sessions().read(id)).toBeNull()
  })

  it('ends a session past its absolute lifetime however active it was', async () => {
    const id = await logIn()
    const session = await storedSession(id)
    await sessions().save(id, {
      ...session,
      createdAt: Date.now() - SessionLifetime.absoluteMs - 1000,
      seenAt: Date.now(),
    })
    expect((await visitAs(id, '/it-it/my-account')).status).toBe(302)
  })

  it('ends a session when its token expires', async () => {
    const id = await logIn()
    const session = await storedSession(id)
    const expiresAt = Date.now() + 120_000
    await sessions().save(id, { ...session, expiresAt })
    expect(await sessions().read(id, expiresAt - 1000)).not.toBeNull()
    expect(await sessions().read(id, expiresAt + 1000)).toBeNull()
  })

  it('refuses a forged, altered or unknown cookie, takes it back and renders as anonymous', async () => {
    const id = await logIn()
    const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(id)))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('')
    const sealed = (await env.SESSIONS.get(`session:${hash}`)) as string
    await env.SESSIONS.put(`session:${hash}`, `${sealed.slice(0, -4)}AAA=`)
    // Read by an isolate that did not start it: the store's record, not this isolate's memory of the login.
    forgetRememberedSessions()
    for (const cookie of [id, 'x'.repeat(43), 'short', '../../etc/passwd', '%00%ff']) {
      const { status, headers, text } = await visitAs(cookie, '/it-it')
      expect(status, cookie).toBe(200)
      expect(text).toContain('href="/login?redirect=%2Fit-it"')
      expect(sessionIdOf(headers)).toBeNull()
    }
  })
})

describe('a session store that fails', () => {
  it('renders public pages as anonymous, never a 500, and keeps the cookie for when it is back', async () => {
    const id = await logIn()
    const broken = {
      get: () => Promise.reject(new Error('KV unavailable')),
      put: () => Promise.reject(new Error('KV unavailable')),
      delete: () => Promise.reject(new Error('KV unavailable')),
      list: () => Promise.reject(new Error('KV unavailable')),
    } as unknown as KVNamespace
    forgetRememberedSessions()
    const { status, text, headers } = await visit(
      '/it-it',
      { headers: { Cookie: `__Host-AuthTkn=${id}` } },
      { SESSIONS: broken },
    )
    expect(status).toBe(200)
    expect(text).toContain('href="/login?redirect=%2Fit-it"')
    expect(headers.getSetCookie()).toEqual([])
    expect((await visitAs(id, '/it-it/my-account')).status).toBe(200)
  })
})

describe('the session store', () => {
  it("keeps neither the cookie's id nor the token readable in KV", async () => {
    const id = await logIn()
    const { token } = await storedSession(id)
    const { keys } = await env.SESSIONS.list()
    const values = await Promise.all(keys.map(({ name }) => env.SESSIONS.get(name)))
    const everything = keys.map(({ name }) => name).join() + values.join()
    expect(everything).not.toContain(id)
    expect(everything).not.toContain(token)
    expect(everything).not.toContain('customer@example.com')
  })
})
