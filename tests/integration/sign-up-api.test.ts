import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { randomToken } from '../../src/crypto/digest'

/** Calls the embedded API in-process, as the Worker does, and waits for its background work. */
async function call(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext()
  const response = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, init) as Parameters<typeof api.fetch>[0],
    env,
    ctx,
  )
  const text = await response.text()
  await waitOnExecutionContext(ctx)
  return { status: response.status, text }
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Locale': 'it', 'X-Tenant': 'it', ...headers },
  body: JSON.stringify(body),
})

const TEMPLATE = 'https://site.test/it-it/confirm-email/{token}'
let people = 0
/** A registration of a new address of its own, with a key of its own. */
const registration = (fields: Record<string, unknown> = {}) => ({
  first_name: 'Chiara',
  last_name: 'Bianchi',
  email: `api-signup-${++people}@example.com`,
  password: 'Gravel-Roads-2027',
  consent: true,
  submission_key: randomToken(),
  link_template: TEMPLATE,
  ...fields,
})

const register = (body: unknown) => call('auth/register', json(body))
const userOf = (email: string) =>
  env.DB.prepare('SELECT id, first_name, locale, email_confirmed_at, password_hash FROM users WHERE email = ?')
    .bind(email)
    .first<{
      id: number
      first_name: string
      locale: string
      email_confirmed_at: string | null
      password_hash: string
    }>()
const mailsTo = (email: string) =>
  env.DB.prepare('SELECT subject, body, kind FROM outbox WHERE recipient = ? ORDER BY id')
    .bind(email)
    .all<{ subject: string; body: string; kind: string }>()
    .then(({ results }) => results)
const tokenIn = (body: string) => /confirm-email\/([A-Za-z0-9_-]{43})/.exec(body)?.[1] as string

describe('POST api/auth/register', () => {
  it('creates an unconfirmed account and mails a confirmation link built on the template, in the X-Locale language', async () => {
    const body = registration()
    const answer = await register(body)
    expect(answer.status).toBe(202)
    const user = await userOf(body.email)
    expect(user).toMatchObject({ first_name: 'Chiara', locale: 'it', email_confirmed_at: null })
    expect(user?.password_hash).toMatch(/^pbkdf2-sha256\$/)
    const [mail] = await mailsTo(body.email)
    expect(mail?.kind).toBe('email_confirmation')
    expect(mail?.subject).toBe('Confermi il Suo indirizzo e-mail per Aurora Cycles')
    expect(mail?.body).toMatch(/^Buongiorno Chiara,/)
    expect(mail?.body).toMatch(/https:\/\/site\.test\/it-it\/confirm-email\/[A-Za-z0-9_-]{43}\n/)
    // Only the token's hash is stored.
    const rows = await env.DB.prepare('SELECT token_hash, expires_at FROM email_confirmations WHERE user_id = ?')
      .bind(user?.id)
      .all<{ token_hash: string; expires_at: string }>()
    expect(rows.results).toHaveLength(1)
    expect(JSON.stringify(rows.results)).not.toContain(tokenIn(mail!.body))
    const hours = (Date.parse(rows.results[0]!.expires_at) - Date.now()) / 3600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)
  })

  it("answers a taken address exactly as a new one, changes nothing and mails its owner, in the owner's language, nothing of what was typed", async () => {
    const fresh = await register(registration())
    const before = await userOf('second@example.com')
    const taken = await register(
      registration({ email: 'Second@Example.com', first_name: 'Mallory', password: 'Other-Password-1' }),
    )
    expect(taken.status).toBe(fresh.status)
    expect(taken.text).toBe(fresh.text)
    expect(await userOf('second@example.com')).toEqual(before)
    const mails = await mailsTo('second@example.com')
    const mail = mails.at(-1)
    expect(mail?.kind).toBe('account_exists')
    // Lukas's account speaks German, whoever asked in Italian; his name, not the one typed.
    expect(mail?.body).toMatch(/^Guten Tag Lukas,/)
    expect(mail?.body).toContain('https://site.test/login')
    expect(mail?.body).not.toContain('Mallory')
    expect(mail?.body).not.toMatch(/confirm-email/)
  })

  it('mails the owner of a taken address at most once in ten minutes', async () => {
    const count = async () =>
      (await mailsTo('customer@example.com')).filter((mail) => mail.kind === 'account_exists').length
    const before = await count()
    for (let i = 0; i < 3; i++)
      expect((await register(registration({ email: 'customer@example.com' }))).status).toBe(202)
    expect(await count()).toBe(before + 1)
    await env.DB.prepare(
      `UPDATE outbox SET created_at = '2020-01-01T00:00:00.000Z' WHERE kind = 'account_exists'`,
    ).run()
    expect((await register(registration({ email: 'customer@example.com' }))).status).toBe(202)
    expect(await count()).toBe(before + 2)
  })

  it('handles the same submission key once: one account, one mail', async () => {
    const body = registration()
    expect((await register(body)).status).toBe(202)
    expect((await register(body)).status).toBe(202)
    expect((await register({ ...body, first_name: 'Changed' })).status).toBe(202)
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?')
      .bind(body.email)
      .first<number>('n')
    expect(count).toBe(1)
    expect(await mailsTo(body.email)).toHaveLength(1)
    expect((await userOf(body.email))?.first_name).toBe('Chiara')
  })

  it('refuses a weak password, a bad address, missing fields and a foreign link with 422 and the message keys', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ password: 'short1!' }, 'password', 'password_rules'],
      [{ password: 'onlyletterslong' }, 'password', 'password_rules'],
      [{ email: 'not-an-address' }, 'email', 'email'],
      [{ first_name: '' }, 'first_name', 'required'],
      [{ last_name: 'www.spam.example' }, 'last_name', 'name_link'],
      [{ consent: false }, 'consent', 'register_consent'],
      [{ link_template: 'https://evil.example/steal/{token}' }, 'link_template', 'invalid'],
      [{ link_template: 'http://site.test/it-it/confirm-email/{token}' }, 'link_template', 'invalid'],
      [{ submission_key: 'short' }, 'submission_key', 'invalid'],
    ]
    for (const [fields, field, key] of cases) {
      const body = registration(fields)
      const answer = await register(body)
      expect(answer.status, JSON.stringify(fields)).toBe(422)
      expect(JSON.parse(answer.text).errors[field]).toContain(key)
      expect(await userOf(body.email)).toBeNull()
    }
  })

  it('answers any body below 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            email: fc.string(),
            password: fc.string(),
            first_name: fc.string(),
            submission_key: fc.string(),
            link_template: fc.string(),
          }),
        ),
        async (body) => {
          expect((await register(body)).status).toBeLessThan(500)
          expect((await call('auth/confirm-email', json(body))).status).toBeLessThan(500)
        },
      ),
      { numRuns: 80 },
    )
    expect((await call('auth/register', { method: 'POST', body: '{not json' })).status).toBe(422)
  })
})

describe('confirming an address', () => {
  async function registered() {
    const body = registration()
    await register(body)
    const token = tokenIn((await mailsTo(body.email))[0]!.body)
    return { email: body.email, token }
  }

  it("shows a link's address without confirming it, confirms it once by POST, then answers 410", async () => {
    const { email, token } = await registered()
    const look = await call(`auth/confirm-email/${token}`)
    expect(look.status).toBe(200)
    expect(JSON.parse(look.text).data.email).toBe(email)
    expect((await userOf(email))?.email_confirmed_at).toBeNull()
    const confirmed = await call('auth/confirm-email', json({ token }))
    expect(confirmed.status).toBe(200)
    expect((await userOf(email))?.email_confirmed_at).toMatch(/^\d{4}-/)
    const again = await call('auth/confirm-email', json({ token }))
    expect(again.status).toBe(410)
    expect(JSON.parse(again.text).code).toBe('confirmation_expired')
    expect((await call(`auth/confirm-email/${token}`)).status).toBe(410)
  })

  it('answers 410 for an expired link and 404 for an unknown one, confirming nothing', async () => {
    const { email, token } = await registered()
    await env.DB.prepare(
      `UPDATE email_confirmations SET expires_at = '2020-01-01T00:00:00.000Z' WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
    )
      .bind(email)
      .run()
    expect((await call('auth/confirm-email', json({ token }))).status).toBe(410)
    expect((await call('auth/confirm-email', json({ token: randomToken() }))).status).toBe(404)
    expect((await call(`auth/confirm-email/${randomToken()}`)).status).toBe(404)
    expect((await userOf(email))?.email_confirmed_at).toBeNull()
  })

  it("says in the user answer whether the address is confirmed; the demo customers' are", async () => {
    const { email, token } = await registered()
    const login = async (credentials: { email: string; password: string }) =>
      JSON.parse((await call('auth/login', json(credentials))).text).access_token as string
    const userAnswer = async (bearer: string) =>
      JSON.parse((await call('auth/user', { headers: { Authorization: `Bearer ${bearer}` } })).text).data
    // Logging in before confirming is allowed.
    const bearer = await login({ email, password: 'Gravel-Roads-2027' })
    expect((await userAnswer(bearer)).email_confirmed).toBe(false)
    await call('auth/confirm-email', json({ token }))
    expect((await userAnswer(bearer)).email_confirmed).toBe(true)
    expect(
      (await userAnswer(await login({ email: 'customer@example.com', password: 'Demo-Rider-2026!' }))).email_confirmed,
    ).toBe(true)
  })

  it('sends a new link to an unconfirmed account on request, three in the hour at most, and none once confirmed', async () => {
    const { email, token } = await registered()
    const bearer = JSON.parse((await call('auth/login', json({ email, password: 'Gravel-Roads-2027' }))).text)
      .access_token as string
    const resend = () =>
      call('auth/resend-confirmation', json({ link_template: TEMPLATE }, { Authorization: `Bearer ${bearer}` }))
    for (let i = 0; i < 4; i++) expect((await resend()).status).toBe(202)
    expect(await mailsTo(email)).toHaveLength(3)
    // The first link still works: a new one never spoils it.
    expect((await call('auth/confirm-email', json({ token }))).status).toBe(200)
    await env.DB.prepare(`UPDATE email_confirmations SET created_at = '2020-01-01T00:00:00Z'`).run()
    expect((await resend()).status).toBe(202)
    expect(await mailsTo(email)).toHaveLength(3)
    expect((await call('auth/resend-confirmation', json({ link_template: TEMPLATE }))).status).toBe(401)
  })
})
