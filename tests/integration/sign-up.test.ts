import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import english from '../../src/i18n/en.json'
import { issueFormToken } from '../../src/forms/form-token'
import { formPost, logIn, nextClient, steadyRateLimiters, visitAs } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

const PASSWORD = 'Gravel-Roads-2027'
/** A sign-up form's token as the page would have given it `seconds` ago. */
const formToken = (seconds = 10) =>
  issueFormToken(env.SESSION_SECRET as string, 'register', Date.now() - seconds * 1000)

let people = 0
const newAddress = () => `signup-${++people}@example.com`

/** The sign-up form posted as a person would: a token given out 10 s before, a client of its own, Italy remembered. */
async function signUp(
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
  bindings: Partial<Cloudflare.Env> = {},
) {
  const body = {
    first_name: 'Chiara',
    last_name: 'Bianchi',
    email: newAddress(),
    password: PASSWORD,
    consent: 'on',
    form_token: await formToken(),
    ...fields,
  }
  const answer = await visit(
    '/login/register',
    formPost(body, { Cookie: 'CountryLocale=it-it', 'CF-Connecting-IP': nextClient(), ...headers }),
    bindings,
  )
  return { ...answer, email: body.email }
}

const userOf = (email: string) =>
  env.DB.prepare('SELECT id, email_confirmed_at FROM users WHERE email = ?')
    .bind(email)
    .first<{ id: number; email_confirmed_at: string | null }>()
const usersCount = () => env.DB.prepare('SELECT COUNT(*) AS n FROM users').first<number>('n')
const lastMail = (to: string) =>
  env.DB.prepare('SELECT subject, body, kind FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1')
    .bind(to)
    .first<{ subject: string; body: string; kind: string }>()
/** The confirmation link (path and query) of the latest mail to an address. */
async function linkMailedTo(email: string): Promise<string> {
  const link = /https:\/\/site\.test(\/[a-z]{2,3}-[a-z]{2}\/confirm-email\/[A-Za-z0-9_-]{43}(?:\?redirect=\S+)?)/.exec(
    (await lastMail(email))?.body ?? '',
  )?.[1]
  expect(link).toBeTruthy()
  return link as string
}

describe('the sign-up form', () => {
  it('is linked from the login page, keeping the redirect, and shows the fields, the rules, the consent, a token and a honeypot', async () => {
    const login = await visit('/login?redirect=%2Fit-it%2Fcheckout%2FABC', {
      headers: { Cookie: 'CountryLocale=it-it' },
    })
    expect(login.text).toContain(
      `href="/login/register?redirect=%2Fit-it%2Fcheckout%2FABC">${italian.register.title}</a>`,
    )
    const { status, text, headers } = await visit('/login/register?redirect=%2Fit-it%2Fcheckout%2FABC', {
      headers: { Cookie: 'CountryLocale=it-it' },
    })
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toMatch(/no-store/)
    expect(text).toContain('<html lang="it"')
    expect(text).toContain(`<h1>${italian.register.title}</h1>`)
    for (const name of ['first_name', 'last_name', 'email', 'password', 'consent', 'form_token', 'homepage'])
      expect(text).toContain(`name="${name}"`)
    expect(text).toContain('name="redirect" value="/it-it/checkout/ABC"')
    expect(textOf(text)).toContain(italian.password.rules.replace('{{min}}', '10'))
    expect(text).toContain('href="/it-it/informativa-privacy"')
    expect(text).toContain(`href="/login?redirect=%2Fit-it%2Fcheckout%2FABC">${italian.auth.submit}</a>`)
  })

  it("speaks the remembered market's language, int-en without one, and right to left in il-he", async () => {
    expect((await visit('/login/register')).text).toContain(`<h1>${english.register.title}</h1>`)
    const he = await visit('/login/register', { headers: { Cookie: 'CountryLocale=il-he' } })
    expect(he.text).toContain('<html lang="he" dir="rtl"')
    expect(he.text).toContain(`<h1>${hebrew.register.title}</h1>`)
  })

  it('creates an unconfirmed account and answers "check your mailbox"; the mail, in Italian, links under PUBLIC_ORIGIN with the redirect', async () => {
    const answer = await signUp({ redirect: '/it-it/my-account/bikes' })
    expect(answer.status).toBe(303)
    expect(answer.headers.get('Location')).toBe('/login/register/sent')
    expect(answer.headers.get('Set-Cookie') ?? '').not.toMatch(/__Host-AuthTkn=/)
    expect((await userOf(answer.email))?.email_confirmed_at).toBeNull()
    const mail = await lastMail(answer.email)
    expect(mail).toMatchObject({ kind: 'email_confirmation', subject: italian.mail.confirm_email_subject })
    expect(mail?.body).toMatch(
      /https:\/\/site\.test\/it-it\/confirm-email\/[A-Za-z0-9_-]{43}\?redirect=%2Fit-it%2Fmy-account%2Fbikes\n/,
    )
    const sent = await visit('/login/register/sent', { headers: { Cookie: 'CountryLocale=it-it' } })
    expect(sent.status).toBe(200)
    expect(textOf(sent.text)).toContain(italian.register.sent_text)
  })

  it('inside checkout (its redirect), logs the new account in at once and goes on to the checkout; the mail confirms later, into the account (decision 057)', async () => {
    const answer = await signUp({ redirect: '/it-it/checkout/ABC' })
    expect(answer.status).toBe(303)
    expect(answer.headers.get('Location')).toBe('/it-it/checkout/ABC')
    expect(answer.headers.get('Set-Cookie')).toMatch(/__Host-AuthTkn=/)
    expect((await userOf(answer.email))?.email_confirmed_at).toBeNull()
    const mail = await lastMail(answer.email)
    expect(mail?.kind).toBe('email_confirmation')
    expect(mail?.body).toMatch(/https:\/\/site\.test\/it-it\/confirm-email\/[A-Za-z0-9_-]{43}\n/)
    // A taken address is not logged in (its owner's password is not this one): "check your mailbox", as ever.
    const taken = await signUp({ email: 'second@example.com', redirect: '/it-it/checkout/ABC' })
    expect(taken.headers.get('Location')).toBe('/login/register/sent')
    expect(taken.headers.get('Set-Cookie') ?? '').not.toMatch(/__Host-AuthTkn=/)
    expect((await lastMail('second@example.com'))?.kind).toBe('account_exists')
  })

  it('answers a taken address exactly as a new one, changes nothing and mails the owner instead', async () => {
    const fresh = await signUp()
    const users = await usersCount()
    const taken = await signUp({ email: 'second@example.com' })
    expect(taken.status).toBe(fresh.status)
    expect(taken.headers.get('Location')).toBe(fresh.headers.get('Location'))
    expect(taken.text).toBe(fresh.text)
    expect(await usersCount()).toBe(users)
    expect((await lastMail('second@example.com'))?.kind).toBe('account_exists')
    // The owner can still log in with their own password.
    await logIn({ email: 'second@example.com', password: 'Second-Rider-2026!' })
  })

  it('brings the form back with 422, a message per field and the values typed (never the password)', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ password: 'short' }, 'password', italian.validation.password_rules],
      [{ password: 'lettersonlyhere' }, 'password', italian.validation.password_rules],
      [{ email: 'chiara@' }, 'email', italian.validation.email],
      [{ first_name: '' }, 'first_name', italian.validation.required],
      [{ password: '' }, 'password', italian.validation.required],
      [{ consent: '' }, 'consent', italian.validation.register_consent],
    ]
    for (const [fields, field, message] of cases) {
      const users = await usersCount()
      const answer = await signUp({
        last_name: 'Bianchi-Kept',
        ...fields,
        password: fields.password ?? 'Typed-Secret-2027',
      })
      if (fields.password === '') expect(textOf(answer.text)).not.toContain(italian.validation.password_rules)
      expect(answer.status, field).toBe(422)
      expect(answer.text).toContain(`id="field-${field}-error"`)
      expect(textOf(answer.text)).toContain(message)
      expect(answer.text).toContain('value="Bianchi-Kept"')
      if (field !== 'email') expect(answer.text).toContain(`value="${answer.email}"`)
      expect(answer.text).not.toContain('Typed-Secret-2027')
      expect(await usersCount()).toBe(users)
    }
  })

  it('creates one account when the same form is sent twice', async () => {
    const token = await formToken()
    const email = newAddress()
    for (let i = 0; i < 2; i++) expect((await signUp({ email, form_token: token })).status).toBe(303)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(email).first<number>('n')).toBe(
      1,
    )
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox WHERE recipient = ?').bind(email).first<number>('n'),
    ).toBe(1)
  })

  it('creates nothing for a bot (honeypot, no token, a forged one, too fast) and answers it as a person', async () => {
    const users = await usersCount()
    const bots: Record<string, string>[] = [
      { homepage: 'http://spam.example' },
      { form_token: '' },
      { form_token: 'x.1.y' },
      { form_token: await formToken(1) },
    ]
    for (const fields of bots) {
      const answer = await signUp(fields)
      expect(answer.status).toBe(303)
      expect(answer.headers.get('Location')).toBe('/login/register/sent')
    }
    expect(await usersCount()).toBe(users)
  })

  it('answers 429 with Retry-After past the attempts of one client, and past five for one address from one client', async () => {
    const limiters = steadyRateLimiters()
    const client = { 'CF-Connecting-IP': '203.0.113.91' }
    const limit = env.TEST_RATE_LIMITS.CLIENT_ATTEMPTS as number
    for (let i = 0; i < limit; i++) expect((await signUp({}, client, limiters)).status).toBe(303)
    const refused = await signUp({}, client, limiters)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('60')
    expect(textOf(refused.text)).toContain(italian.auth.too_many)
    expect(await userOf(refused.email)).toBeNull()

    const email = newAddress()
    const other = { 'CF-Connecting-IP': '203.0.113.92' }
    const perAddress = env.TEST_RATE_LIMITS.ACCOUNT_CLIENT_ATTEMPTS as number
    for (let i = 0; i < perAddress; i++) expect((await signUp({ email }, other, limiters)).status).toBe(303)
    expect((await signUp({ email }, other, limiters)).status).toBe(429)
  })

  it('refuses a cross-site post with 403 and creates nothing', async () => {
    const users = await usersCount()
    const answer = await signUp({}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })
    expect(answer.status).toBe(403)
    expect(await usersCount()).toBe(users)
  })

  it('answers any fields and any body below 500', async () => {
    const token = await formToken()
    const field = fc.constantFrom(
      'first_name',
      'last_name',
      'email',
      'password',
      'consent',
      'form_token',
      'homepage',
      'redirect',
      '__proto__',
    )
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('on', '', token, 'x'.repeat(300), '//evil.example', 'a@b.example'),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(field, value), { maxLength: 10 }),
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'text/plain',
          'application/json',
        ),
        fc.constantFrom('/login/register', '/it-it/confirm-email/AAAAAAAAAAAAAAAAAAAAAAAA', '/it-it/confirm-email/%00'),
        async (pairs, type, path) => {
          const { status } = await visit(path, {
            method: 'POST',
            headers: {
              'Content-Type': type,
              Origin: ORIGIN,
              'Sec-Fetch-Site': 'same-origin',
              'CF-Connecting-IP': nextClient(),
            },
            body: new URLSearchParams(pairs).toString(),
          })
          expect(status, path).toBeLessThan(500)
        },
      ),
      { numRuns: 120 },
    )
  })
})

describe('the confirmation link', () => {
  it('shows a button on GET and confirms nothing; POST confirms once and sends the visitor to log in, back to the redirect', async () => {
    const { email } = await signUp({ redirect: '/it-it/my-account/bikes' })
    const link = await linkMailedTo(email)
    const page = await visit(link)
    expect(page.status).toBe(200)
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(page.headers.get('Cache-Control')).toMatch(/no-store/)
    expect(page.text).toContain(`<h1>${italian.confirm.title}</h1>`)
    expect(page.text).toContain(`<bdi dir="ltr">${email}</bdi>`)
    expect(page.text).toContain('name="redirect" value="/it-it/my-account/bikes"')
    expect((await userOf(email))?.email_confirmed_at).toBeNull()

    const confirmed = await visit(link, formPost({ redirect: '/it-it/my-account/bikes' }))
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('Location')).toBe('/login?redirect=%2Fit-it%2Fmy-account%2Fbikes')
    expect(confirmed.headers.get('Set-Cookie')).toMatch(/CountryLocale=it-it/)
    expect((await userOf(email))?.email_confirmed_at).toMatch(/^\d{4}-/)
    expect(confirmed.headers.getSetCookie().join()).toMatch(/__Host-Notice=email_confirmed/)
    const login = await visit('/login?redirect=%2Fit-it%2Fmy-account%2Fbikes', {
      headers: { Cookie: 'CountryLocale=it-it; __Host-Notice=email_confirmed' },
    })
    expect(textOf(login.text)).toContain(italian.notice.email_confirmed)

    // Used: the same link no longer works, by GET or POST.
    for (const again of [await visit(link), await visit(link, formPost({}))]) {
      expect(again.status).toBe(410)
      expect(textOf(again.text)).toContain(italian.confirm.invalid_text)
    }
  })

  it('answers 404 for an unknown link and 410 for an expired one, with the same message', async () => {
    const { email } = await signUp()
    const link = await linkMailedTo(email)
    await env.DB.prepare(
      `UPDATE email_confirmations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
    )
      .bind(email)
      .run()
    expect((await visit(link, formPost({}))).status).toBe(410)
    const unknown = await visit('/it-it/confirm-email/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
    expect(unknown.status).toBe(404)
    expect(textOf(unknown.text)).toContain(italian.confirm.invalid_text)
    expect((await userOf(email))?.email_confirmed_at).toBeNull()
  })

  it("never logs the token: the page's path and the API call's are logged as :token", async () => {
    const { email } = await signUp()
    const link = await linkMailedTo(email)
    const token = link.split('/').pop()!.split('?')[0] as string
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error', 'info'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    }
    try {
      expect((await visit(link)).status).toBe(200)
      expect((await visit(link, formPost({}))).status).toBe(303)
      expect((await visit(link)).status).toBe(410)
      const requests = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.event === 'request')
      expect(
        requests
          .filter((line) => line.path === '/it-it/confirm-email/:token')
          .map((line) => `${line.method} ${line.status}`),
      ).toEqual(['GET 200', 'POST 303', 'GET 410'])
      expect(requests.at(-1)?.upstreamFailures).toEqual([
        { path: 'auth/confirm-email/:token', failure: 'rejected', status: 410 },
      ])
      for (const line of lines) expect(line).not.toContain(token)
    } finally {
      vi.restoreAllMocks()
    }
  })
})

describe('an unconfirmed account', () => {
  it('may log in; its overview shows the banner whose "send again" mails a new link, counted per account', async () => {
    const { email } = await signUp()
    const session = await logIn({ email, password: PASSWORD })
    const overview = await visitAs(session, '/it-it/my-account')
    expect(overview.status).toBe(200)
    expect(overview.text).toContain(`<h2 id="confirm-title">${italian.confirm.banner_title}</h2>`)
    expect(overview.text).toContain(`<bdi dir="ltr">${email}</bdi>`)
    expect(overview.text).toContain('action="/it-it/my-account/confirm-email"')

    const first = await linkMailedTo(email)
    const limiters = steadyRateLimiters()
    const resend = () =>
      visitAs(
        session,
        '/it-it/my-account/confirm-email',
        formPost({}, { 'CF-Connecting-IP': '203.0.113.93' }),
        limiters,
      )
    const again = await resend()
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toBe('/it-it/my-account')
    const second = await linkMailedTo(email)
    expect(second).not.toBe(first)
    for (let i = 1; i < (env.TEST_RATE_LIMITS.ACCOUNT_CLIENT_ATTEMPTS as number); i++)
      expect((await resend()).status).toBe(303)
    const refused = await resend()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('60')

    // Confirmed while logged in: straight back to the account, and no banner any more.
    const confirmed = await visitAs(session, second, formPost({}))
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('Location')).toBe('/it-it/my-account')
    expect((await visitAs(session, '/it-it/my-account')).text).not.toContain('confirm-title')
  })

  it('is never shown the banner when confirmed, as the demo customers are', async () => {
    const overview = await visitAs(await logIn(), '/it-it/my-account')
    expect(overview.status).toBe(200)
    expect(overview.text).not.toContain('confirm-title')
  })

  it('refuses "send again" cross-site and without a session', async () => {
    const session = await logIn()
    expect(
      (
        await visitAs(
          session,
          '/it-it/my-account/confirm-email',
          formPost({}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
        )
      ).status,
    ).toBe(403)
    const anonymous = await visit('/it-it/my-account/confirm-email', formPost({}))
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get('Location')).toMatch(/^\/login\?redirect=/)
  })
})
