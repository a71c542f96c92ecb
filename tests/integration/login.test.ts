import { STYLESHEET_SWAP } from '../../src/render/critical-css'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PUBLIC_PAGES } from '../fixtures/public-pages'
import { ORIGIN, textOf, visit } from '../fixtures/worker'
import { api } from '../../reference-api'
import { hashPassword } from '../../reference-api/passwords'
import {
  DEMO,
  SECOND,
  cookieHeader,
  formPost,
  logIn,
  nextClient,
  sessionIdOf,
  sessions,
  steadyRateLimiters,
  storedSession,
  visitAs,
} from '../fixtures/session'

afterEach(() => vi.restoreAllMocks())

const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  visit(path, formPost(fields, { 'CF-Connecting-IP': nextClient(), ...headers }))

/** What the API answers `GET api/auth/user` for a bearer token: 401 once the token is revoked. */
const apiUser = (token: string) =>
  api.fetch(
    new Request('http://embedded.invalid/api/auth/user', {
      headers: { Authorization: `Bearer ${token}` },
    }) as Parameters<typeof api.fetch>[0],
    env,
  )

describe('the login page', () => {
  it("renders in int-en without a remembered market, in the remembered market's language with one", async () => {
    const plain = await visit('/login')
    expect(plain.status).toBe(200)
    expect(plain.text).toContain('<html lang="en" dir="ltr">')
    expect(textOf(plain.text)).toContain('Log in to your account')
    const italian = await visit('/login', { headers: { Cookie: 'CountryLocale=it-it' } })
    expect(italian.text).toContain('<html lang="it"')
    expect(italian.text).toContain('href="/it-it"')
  })

  it('sends no cookie to an anonymous visitor, and no public page does either', async () => {
    for (const { path, status } of PUBLIC_PAGES) {
      const answer = await visit(path)
      expect(answer.status, path).toBe(status)
      expect(answer.headers.getSetCookie(), path).toEqual([])
    }
  })

  it('works without JavaScript: plain forms posting to the Worker', async () => {
    const { text } = await visit('/login')
    expect(text).toMatch(/<form [^>]*action="\/login" method="post">/)
    expect(text).toMatch(/<form [^>]*action="\/login\/forgot" method="post">/)
    // No script but the one that applies the stylesheet loaded without blocking the first paint (decision 065).
    const swaps = text.split(STYLESHEET_SWAP).length - 1
    expect(swaps).toBeLessThanOrEqual(1)
    expect(
      text.replace(/<script(?: nonce="[^"]*")?>[^<]*<\/script>/, (script) =>
        script.includes(STYLESHEET_SWAP) ? '' : script,
      ),
    ).not.toContain('<script')
  })
})

describe('logging in', () => {
  it('goes to the redirect parameter with an opaque, HttpOnly, Secure, SameSite=Lax session cookie', async () => {
    const { status, headers, text } = await post('/login', { ...DEMO, redirect: '/it-it/my-account/orders?page=1' })
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/it-it/my-account/orders?page=1')
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    const [cookie] = headers.getSetCookie()
    expect(cookie).toMatch(/^__Host-AuthTkn=[A-Za-z0-9_-]{43}; /)
    expect(cookie).toMatch(/; Path=\//)
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; Secure/)
    expect(cookie).toMatch(/; SameSite=Lax/)
    const session = await storedSession(sessionIdOf(headers) as string)
    // The cookie expires with the token (12 h here), and the token itself goes nowhere near the browser.
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie as string)?.[1] ?? '')
    expect(Math.abs(expires - session.expiresAt)).toBeLessThan(1000)
    expect(session.expiresAt - Date.now()).toBeGreaterThan(11 * 3600_000)
    expect(cookie).not.toContain(session.token)
    expect(text).not.toContain(session.token)
  })

  it("goes to the remembered market's home without a redirect, and never to another site", async () => {
    const away = [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/%0d%0aSet-Cookie:x',
    ]
    const normalisedAway = ['/..//evil.example', '/.//evil.example', '/%2e%2e//evil.example', '/a/..//evil.example']
    for (const redirect of ['', ...away, ...normalisedAway]) {
      const { status, headers } = await post('/login', { ...DEMO, redirect }, { Cookie: 'CountryLocale=de-de' })
      expect(status, redirect).toBe(303)
      const location = headers.get('Location') as string
      expect(location.startsWith('/') && !location.startsWith('//'), `${redirect} → ${location}`).toBe(true)
      expect(new URL(location, ORIGIN).origin).toBe(ORIGIN)
      expect(location).not.toContain('evil')
    }
    const home = await post('/login', DEMO, { Cookie: 'CountryLocale=de-de' })
    expect(home.headers.get('Location')).toBe('/de-de')
    expect((await post('/login', SECOND)).headers.get('Location')).toBe('/int-en')
  })

  it('answers the same 422 for a wrong password and an unknown account, translated, and sets no cookie', async () => {
    const wrong = await post(
      '/login',
      { email: DEMO.email, password: 'not-the-password' },
      { Cookie: 'CountryLocale=it-it' },
    )
    const unknown = await post(
      '/login',
      { email: 'nobody@example.com', password: 'not-the-password' },
      { Cookie: 'CountryLocale=it-it' },
    )
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(422)
      expect(answer.headers.getSetCookie()).toEqual([])
      expect(textOf(answer.text)).toContain('e-mail o la password non sono corretti')
    }
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, '').replace(/value="[^"]*@example.com"/, '')
    expect(withoutNonce(wrong.text)).toBe(withoutNonce(unknown.text))
  })

  it('asks for the missing fields with a 422 and keeps what was typed', async () => {
    const { status, text } = await post('/login', { email: 'not-an-address', password: '' })
    expect(status).toBe(422)
    expect(text).toContain('value="not-an-address"')
    expect(textOf(text)).toContain('Enter a valid e-mail address.')
    expect(textOf(text)).toContain('This field is required.')
    expect(text).toContain('aria-invalid="true"')
  })

  it('gives a new session id at every login, whatever cookie the browser brought (no session fixation)', async () => {
    const planted = 'a'.repeat(43)
    const first = await post('/login', DEMO, cookieHeader(planted))
    const firstId = sessionIdOf(first.headers)
    expect(firstId).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(firstId).not.toBe(planted)
    const second = await logIn()
    expect(second).not.toBe(firstId)
  })

  it('ends the session a browser held when it logs in again, as someone else or as the same customer: new id, old token revoked', async () => {
    const giulia = await logIn()
    const { token } = await storedSession(giulia)
    const asLukas = await post('/login', { ...SECOND, redirect: '/it-it/my-account' }, cookieHeader(giulia))
    expect(asLukas.status).toBe(303)
    expect(asLukas.headers.get('Location')).toBe('/it-it/my-account')
    const lukas = sessionIdOf(asLukas.headers) as string
    expect(lukas).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(lukas).not.toBe(giulia)
    expect((await storedSession(lukas)).user.email).toBe(SECOND.email)
    expect(await sessions().read(giulia)).toBeNull()
    expect((await apiUser(token)).status).toBe(401)
    expect((await visitAs(giulia, '/it-it/my-account')).status).toBe(302)
    expect(textOf((await visitAs(lukas, '/it-it/my-account')).text)).toContain(SECOND.email)

    const again = await post('/login', SECOND, cookieHeader(lukas))
    const next = sessionIdOf(again.headers)
    expect(next).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(next).not.toBe(lukas)
    expect(await sessions().read(lukas)).toBeNull()
  })

  it('keeps the session a browser held when a new login fails', async () => {
    const giulia = await logIn()
    const { status, headers } = await post(
      '/login',
      { email: SECOND.email, password: 'not-the-password' },
      cookieHeader(giulia),
    )
    expect(status).toBe(422)
    expect(headers.getSetCookie()).toEqual([])
    expect((await visitAs(giulia, '/it-it/my-account')).status).toBe(200)
  })

  it('sends a logged-in visitor away from the guest pages', async () => {
    const id = await logIn()
    const login = await visitAs(id, '/login', { headers: { Cookie: 'CountryLocale=es-es' } })
    expect(login.headers.get('Location')).toBe('/es-es')
    expect(login.status).toBe(302)
    const reset = await visitAs(id, '/it-it/update-password/abcdefghijklmnopqrstuvwxyz')
    expect(reset.status).toBe(302)
    expect(reset.headers.get('Location')).toBe('/it-it')
  })
})

describe('the login and forgot-password forms are protected against cross-site posts (login CSRF included)', () => {
  /** The site's form post with some headers changed (null: not sent at all). */
  const changed = (fields: Record<string, string>, headers: Record<string, string | null>): RequestInit => {
    const init = formPost(fields)
    const sent = new Headers(init.headers as Record<string, string>)
    for (const [name, value] of Object.entries(headers)) value === null ? sent.delete(name) : sent.set(name, value)
    return { ...init, headers: sent }
  }
  const attempts: Array<[string, Record<string, string | null>]> = [
    ['another origin', { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }],
    ['a sibling site', { Origin: 'https://shop.site.test', 'Sec-Fetch-Site': 'same-site' }],
    ['another origin without fetch metadata', { Origin: 'https://evil.example', 'Sec-Fetch-Site': null }],
    ['no origin at all', { Origin: null, 'Sec-Fetch-Site': null }],
  ]
  it.each(attempts)('refuses %s with a 403 and sets no session', async (_, headers) => {
    for (const path of ['/login', '/login/forgot', '/logout', '/_market']) {
      const {
        status,
        headers: answer,
        text,
      } = await visit(path, changed({ ...DEMO, forgot_email: DEMO.email, market: 'it-it' }, headers))
      expect(status, path).toBe(403)
      expect(answer.getSetCookie(), path).toEqual([])
      expect(text).toContain('This form was sent from another site.')
    }
  })

  it('refuses a cross-site text/plain post too, which a content-type check alone would let through', async () => {
    const id = await logIn()
    const { status } = await visit('/logout', {
      method: 'POST',
      headers: {
        ...cookieHeader(id),
        'Content-Type': 'text/plain',
        Origin: 'https://evil.example',
        'Sec-Fetch-Site': 'cross-site',
      },
      body: 'x',
    })
    expect(status).toBe(403)
    expect((await visitAs(id, '/it-it/my-account')).status).toBe(200)
  })
})

describe('rate limits', () => {
  let limiters: Partial<Cloudflare.Env> = {}
  beforeEach(() => {
    limiters = steadyRateLimiters()
  })
  const attempt = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    visit(path, formPost(fields, { 'CF-Connecting-IP': nextClient(), ...headers }), limiters)

  it('locks an account for one client after five failed logins from it, with 429 and Retry-After; other clients still log in', async () => {
    const attacker = { 'CF-Connecting-IP': '203.0.113.5' }
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push((await attempt('/login', { email: SECOND.email, password: 'wrong-password' }, attacker)).status)
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429])
    // Locked for that client: even the right password waits now.
    const limited = await attempt('/login', SECOND, attacker)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toBe('60')
    expect(limited.headers.getSetCookie()).toEqual([])
    expect(textOf(limited.text)).toContain('Too many attempts')
    // The customer, elsewhere, is not locked out by someone else's guesses.
    expect((await attempt('/login', SECOND)).status).toBe(303)
  })

  it('locks an account for everyone after thirty failed logins from many clients within a minute', async () => {
    const email = 'targeted@example.com'
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await attempt('/login', { email, password: 'wrong-password' })).status)
    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true)
    expect(statuses[30]).toBe(429)
    expect((await attempt('/login', { email, password: 'wrong-password' })).status).toBe(429)
  })

  it('logs a lock it could not write, and still refuses the attempt that passed the limit', async () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    // A store that reads and writes sessions, but cannot write the locks.
    const kv = env.SESSIONS
    const sessionsWithoutLocks = {
      get: (...args: Parameters<KVNamespace['get']>) => kv.get(...args),
      list: (...args: Parameters<KVNamespace['list']>) => kv.list(...args),
      delete: (key: string) => kv.delete(key),
      put: (...args: Parameters<KVNamespace['put']>) =>
        args[0].startsWith('attempts:') ? Promise.reject(new Error('KV write failed')) : kv.put(...args),
    } as unknown as KVNamespace
    const client = { 'CF-Connecting-IP': '203.0.113.77' }
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const fields = formPost({ email: SECOND.email, password: 'wrong-password' }, client)
      statuses.push((await visit('/login', fields, { ...limiters, SESSIONS: sessionsWithoutLocks })).status)
    }
    expect(statuses.at(-1)).toBe(429)
    expect(errors.some((line) => line.includes('"attempt_lock_not_written"'))).toBe(true)
    vi.restoreAllMocks()
  })

  it('does not count successful logins against the account', async () => {
    // From one client: were successes counted, the sixth would be refused.
    const client = { 'CF-Connecting-IP': '203.0.113.44' }
    for (let i = 0; i < 7; i++) expect((await attempt('/login', DEMO, client)).status).toBe(303)
  })

  it('uses the limits of wrangler.toml', () => {
    expect(env.TEST_RATE_LIMITS).toMatchObject({
      CLIENT_ATTEMPTS: 20,
      ACCOUNT_CLIENT_ATTEMPTS: 5,
      ACCOUNT_ATTEMPTS: 30,
    })
  })

  it('refuses the 21st login from one client within a minute, whatever the accounts', async () => {
    const client = { 'CF-Connecting-IP': '203.0.113.77' }
    const statuses: number[] = []
    for (let i = 0; i < 21; i++) {
      statuses.push((await attempt('/login', { email: `client${i}@example.com`, password: 'x' }, client)).status)
    }
    expect(statuses.slice(0, 20).every((status) => status === 422)).toBe(true)
    expect(statuses[20]).toBe(429)
  })

  it("never locks a customer out of password links: asks from many clients are all answered, then the owner's", async () => {
    const statuses: number[] = []
    for (let i = 0; i < 40; i++)
      statuses.push((await attempt('/login/forgot', { forgot_email: 'recovering@example.com' })).status)
    expect(statuses.every((status) => status === 303)).toBe(true)
    const owner = await attempt('/login/forgot', { forgot_email: 'recovering@example.com' })
    expect(owner.status).toBe(303)
    expect(owner.headers.get('Location')).toBe('/login')
  })

  it('limits forgot-password per account and client the same way, every request counted', async () => {
    const client = { 'CF-Connecting-IP': '203.0.113.9' }
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push((await attempt('/login/forgot', { forgot_email: 'forgetful@example.com' }, client)).status)
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429])
  })
})

describe('a browser that logged in to the account before (a device cookie)', () => {
  let limiters: Partial<Cloudflare.Env> = {}
  let owner = { email: '', password: 'Owner-Password-2026' }
  let owners = 0
  beforeEach(async () => {
    limiters = steadyRateLimiters()
    // An account of each test's own: the locks these tests cause outlive them in KV.
    owner = { email: `device-owner-${++owners}@example.com`, password: 'Owner-Password-2026' }
    await env.DB.prepare(
      `INSERT INTO users (email, first_name, last_name, password_hash) VALUES (?, 'Device', 'Owner', ?)`,
    )
      .bind(owner.email, await hashPassword(owner.password))
      .run()
  })
  const attempt = (
    fields: Record<string, string>,
    headers: Record<string, string> = {},
    bindings: Partial<Cloudflare.Env> = {},
  ) => visit('/login', formPost(fields, { 'CF-Connecting-IP': nextClient(), ...headers }), { ...limiters, ...bindings })
  const deviceCookieOf = (headers: Headers) => headers.getSetCookie().find((line) => line.startsWith('__Host-Device='))
  /** Logs in and answers the `Cookie` header of the device cookie the browser was given. */
  async function deviceOf(
    credentials: { email: string; password: string },
    bindings: Partial<Cloudflare.Env> = {},
  ): Promise<string> {
    const { status, headers } = await attempt(credentials, {}, bindings)
    expect(status).toBe(303)
    return (deviceCookieOf(headers) as string).split(';')[0] as string
  }
  /** Thirty-one wrong passwords from as many addresses: the account is locked for everyone. */
  async function lockForEveryone(email: string) {
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await attempt({ email, password: 'wrong-password' })).status)
    expect(statuses[30]).toBe(429)
  }

  it('is given at a successful login only: signed, HttpOnly, Secure, SameSite=Lax, Path=/, for 180 days', async () => {
    const failed = await attempt({ ...owner, password: 'wrong-password' })
    expect(failed.headers.getSetCookie()).toEqual([])
    const { headers } = await attempt(owner)
    const [session, device] = headers.getSetCookie()
    expect(session).toMatch(/^__Host-AuthTkn=/)
    expect(device).toMatch(/^__Host-Device=[A-Za-z0-9_-]{43}\.[0-9]+\.[A-Za-z0-9_-]{43}; /)
    expect(device).toMatch(/; Max-Age=15552000/)
    expect(device).toMatch(/; Path=\//)
    expect(device).toMatch(/; HttpOnly/)
    expect(device).toMatch(/; Secure/)
    expect(device).toMatch(/; SameSite=Lax/)
    expect(device).not.toContain(owner.email)
  })

  it('lets its owner log in while failures from elsewhere lock the account for everyone else', async () => {
    const device = await deviceOf(owner)
    await lockForEveryone(owner.email)
    expect((await attempt(owner)).status).toBe(429)
    const trusted = await attempt(owner, { Cookie: device })
    expect(trusted.status).toBe(303)
    expect(sessionIdOf(trusted.headers)).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Untrusted browsers stay locked, the right password included.
    const untrusted = await attempt(owner)
    expect(untrusted.status).toBe(429)
    expect(untrusted.headers.get('Retry-After')).toBe('60')
  })

  it("gives no exemption when forged, altered, signed with another secret, too old or another account's", async () => {
    const mine = await deviceOf(owner)
    const someoneElses = await deviceOf(SECOND)
    const otherSecret = await deviceOf(owner, { SESSION_SECRET: 'another-secret' })
    await lockForEveryone(owner.email)
    const [id, issued, signature] = mine.slice('__Host-Device='.length).split('.') as [string, string, string]
    const forged = [
      someoneElses,
      otherSecret,
      `__Host-Device=${'A'.repeat(43)}.${issued}.${signature}`,
      `__Host-Device=${id}.${issued}.${'A'.repeat(43)}`,
      `__Host-Device=${id}.${Number(issued) + 1}.${signature}`,
      `__Host-Device=${id}.${issued}`,
      `__Host-Device=${id}.${issued}.${signature}.x`,
      '__Host-Device=%00garbage',
    ]
    for (const cookie of forged) expect((await attempt(owner, { Cookie: cookie })).status, cookie).toBe(429)
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 181 * 86_400_000)
      expect((await attempt(owner, { Cookie: mine })).status).toBe(429)
    } finally {
      vi.useRealTimers()
    }
    expect((await attempt(owner, { Cookie: mine })).status).toBe(303)
  })

  it('counts its own failures against it: five, and that device waits too, while other browsers do not', async () => {
    const device = await deviceOf(owner)
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push((await attempt({ ...owner, password: 'wrong-password' }, { Cookie: device })).status)
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429])
    expect((await attempt(owner, { Cookie: device })).status).toBe(429)
    expect((await attempt(owner)).status).toBe(303)
  })

  it('bounds the guesses of many device cookies of one account together at thirty a minute', async () => {
    const devices: string[] = []
    for (let i = 0; i < 7; i++) devices.push(await deviceOf(owner))
    const statuses: number[] = []
    for (const device of devices.slice(0, 6)) {
      for (let i = 0; i < 5; i++)
        statuses.push((await attempt({ ...owner, password: 'wrong-password' }, { Cookie: device })).status)
    }
    expect(statuses.every((status) => status === 422)).toBe(true)
    expect((await attempt({ ...owner, password: 'wrong-password' }, { Cookie: devices[6] as string })).status).toBe(429)
    expect((await attempt(owner, { Cookie: devices[6] as string })).status).toBe(429)
  })
})

describe('the request log', () => {
  it('never holds the token, the session id, the password or the e-mail address', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void lines.push(String(line)))
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)))
    const id = await logIn()
    const { token } = await storedSession(id)
    await visitAs(id, '/it-it/my-account')
    await post('/login', { email: DEMO.email, password: 'wrong-password' })
    await visitAs(id, '/logout', formPost({ redirect: '/it-it' }))
    const log = lines.join('\n')
    expect(lines.length).toBeGreaterThan(3)
    for (const secret of [token, id, DEMO.password, 'wrong-password', DEMO.email]) expect(log).not.toContain(secret)
    expect(env.SESSION_SECRET && log.includes(env.SESSION_SECRET)).toBe(false)
  })
})
