import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import italian from '../../demo/messages/it.json'
import { hashPassword } from '../../reference-api/passwords'
import { heldDatabase } from '../fixtures/database'
import { textOf, visit } from '../fixtures/worker'
import { formPost, logIn, nextClient, sessions, visitAs } from '../fixtures/session'

const NEW_PASSWORD = 'Fresh-Gravel-2027'
/** Each test resets the password of an account of its own (the per-account limit counts every link asked for). */
const DEMO = { email: '', password: 'Old-Password-2026' }
let customers = 0

beforeEach(async () => {
  DEMO.email = `reset-${++customers}@example.com`
  await env.DB.prepare(
    `INSERT INTO users (email, first_name, last_name, password_hash) VALUES (?, 'Reset', 'Tester', ?)`,
  )
    .bind(DEMO.email, await hashPassword(DEMO.password))
    .run()
})

const forgot = (email: string, cookie = 'CountryLocale=it-it') =>
  visit('/login/forgot', formPost({ forgot_email: email }, { Cookie: cookie, 'CF-Connecting-IP': nextClient() }))

/** The latest mail of the outbox to an address. */
const lastMail = (to: string) =>
  env.DB.prepare('SELECT subject, body, kind FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1')
    .bind(to)
    .first<{ subject: string; body: string; kind: string }>()

/** Asks for a link for the demo customer and answers its path (`/it-it/update-password/{token}`). */
async function resetLink(): Promise<string> {
  expect((await forgot(DEMO.email)).status).toBe(303)
  const mail = await lastMail(DEMO.email)
  const link = /https:\/\/site\.test(\/it-it\/update-password\/[A-Za-z0-9_-]+)/.exec(mail?.body ?? '')?.[1]
  expect(link).toBeTruthy()
  return link as string
}

const mailsTo = (email: string) =>
  env.DB.prepare('SELECT COUNT(*) AS n FROM outbox WHERE recipient = ?').bind(email).first<number>('n')

/** The update-password paths of every mail an address was sent. */
async function linksMailedTo(email: string): Promise<string[]> {
  const { results } = await env.DB.prepare('SELECT body FROM outbox WHERE recipient = ?')
    .bind(email)
    .all<{ body: string }>()
  return results.flatMap(
    ({ body }) => /https:\/\/site\.test(\/[a-z-]+\/update-password\/[A-Za-z0-9_-]+)/.exec(body)?.[1] ?? [],
  )
}

/** Makes an account's links eleven minutes older, as if that much time had passed. */
const tenMinutesLater = (email: string) =>
  env.DB.prepare(
    `UPDATE password_resets SET created_at = strftime('%Y-%m-%dT%H:%M:%SZ', created_at, '-11 minutes')
      WHERE user_id = (SELECT id FROM users WHERE email = ?)`,
  )
    .bind(email)
    .run()

const submit = (path: string, password: string, confirmation = password) =>
  visit(path, formPost({ password, password_confirmation: confirmation, username: DEMO.email }))

describe('forgot password', () => {
  it('answers the same whether or not the account exists, and mails a link only to an account', async () => {
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')
    const known = await forgot(DEMO.email)
    const unknown = await forgot('nobody@example.com')
    for (const answer of [known, unknown]) {
      expect(answer.status).toBe(303)
      expect(answer.headers.get('Location')).toBe('/login')
    }
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')).toBe((before ?? 0) + 1)
    const mail = await lastMail(DEMO.email)
    expect(mail?.kind).toBe('password_reset')
    // In the visitor's market's language, with a link into that market.
    expect(mail?.subject).toMatch(/password/i)
    expect(mail?.body).toMatch(/https:\/\/site\.test\/it-it\/update-password\/[A-Za-z0-9_-]{43}/)
    const page = await visit('/login', { headers: { Cookie: '__Host-Notice=reset_link_sent' } })
    expect(page.text).toMatch(/<p class="toast" role="status" data-notice="reset_link_sent">/)
  })

  it("stores the link's token only hashed, expiring in an hour", async () => {
    const link = await resetLink()
    const token = link.split('/').pop() as string
    const rows = await env.DB.prepare('SELECT token_hash, expires_at FROM password_resets').all<{
      token_hash: string
      expires_at: string
    }>()
    expect(JSON.stringify(rows.results)).not.toContain(token)
    const newest = rows.results
      .map((row) => Date.parse(row.expires_at))
      .sort()
      .pop() as number
    expect(Math.abs(newest - (Date.now() + 3600_000))).toBeLessThan(60_000)
  })

  it('asks again for a malformed address with a 422', async () => {
    const { status, text } = await forgot('not an address')
    expect(status).toBe(422)
    expect(text).toContain('<details class="forgot" open="">')
  })
})

describe('forgot password answers every address after the same work', () => {
  afterEach(() => vi.restoreAllMocks())
  /** Asks with a database that answers nothing until released (a 1 s upstream timeout: were the answer waiting, a 503). */
  const forgotWith = (db: ReturnType<typeof heldDatabase>, email: string) =>
    visit(
      '/login/forgot',
      formPost({ forgot_email: email }, { 'CF-Connecting-IP': nextClient() }),
      { DB: db.database, UPSTREAM_TIMEOUT_MS: '1000' },
      { waitForBackground: false },
    )

  it('answers a known and an unknown address before the account is even looked up, and mails only the known one afterwards', async () => {
    for (const email of [DEMO.email, 'nobody@example.com']) {
      const db = heldDatabase(env.DB)
      const answer = await forgotWith(db, email)
      expect(answer.status, email).toBe(303)
      expect(answer.headers.get('Location')).toBe('/login')
      // The lookup of the account is asked for, and still waiting: the answer did not wait for it.
      expect(db.held[0]).toMatch(/FROM users WHERE email/)
      expect(await mailsTo(email)).toBe(0)
      db.release()
      await answer.background
    }
    expect(await mailsTo(DEMO.email)).toBe(1)
    expect(await mailsTo('nobody@example.com')).toBe(0)
  })

  it('logs a failure of the work left in the background, without the address', async () => {
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const)
      vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)))
    const db = heldDatabase(env.DB, { failWith: new Error('D1_ERROR: database unavailable') })
    const answer = await forgotWith(db, DEMO.email)
    expect(answer.status).toBe(303)
    db.release()
    await answer.background
    const failure = lines.map((line) => JSON.parse(line)).find((line) => line.event === 'reset_link_failed')
    expect(failure).toMatchObject({ level: 'error', error: 'Error: D1_ERROR: database unavailable' })
    expect(lines.join('\n')).not.toContain(DEMO.email)
  })
})

describe('the update-password page', () => {
  it('states the rules and asks for the new password twice', async () => {
    const { status, text, headers } = await visit(await resetLink())
    expect(status).toBe(200)
    expect(textOf(text)).toContain(DEMO.email)
    expect(text).toContain('name="password"')
    expect(text).toContain('name="password_confirmation"')
    expect(textOf(text)).toMatch(/10/)
    expect(headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(headers.get('Cache-Control')).toBe('private, no-store')
  })

  it('refuses passwords that differ or break the rules, on the server, and keeps the link usable', async () => {
    const link = await resetLink()
    for (const [password, confirmation, message] of [
      [NEW_PASSWORD, 'Something-else-1', 'password_mismatch'],
      ['short1', 'short1', 'password_rules'],
      ['onlyletterslongenough', 'onlyletterslongenough', 'password_rules'],
      ['', '', 'required'],
    ] as const) {
      const { status, text } = await submit(link, password, confirmation)
      expect(status, message).toBe(422)
      expect(text).toContain('aria-invalid="true"')
    }
    expect((await visit(link)).status).toBe(200)
  })

  it('sets the password, ends every other session, sends the visitor to log in; the link then works no more', async () => {
    const elsewhere = await logIn(DEMO)
    const link = await resetLink()
    const { status, headers } = await submit(link, NEW_PASSWORD)
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/login?market=it-it')
    expect(await sessions().read(elsewhere)).toBeNull()
    expect((await visitAs(elsewhere, '/it-it/my-account')).status).toBe(302)
    // The old password no longer works; the new one does.
    const old = await visit('/login', formPost({ ...DEMO }, { 'CF-Connecting-IP': nextClient() }))
    expect(old.status).toBe(422)
    await logIn({ email: DEMO.email, password: NEW_PASSWORD })
    // Used once: the link now explains itself.
    const again = await visit(link)
    expect(again.status).toBe(410)
    expect(textOf(again.text)).toContain(italian.password.link_invalid_title)
    expect((await submit(link, 'Another-Password-3')).status).toBe(410)
    await logIn({ email: DEMO.email, password: NEW_PASSWORD })
  })

  it('explains an expired link with a 410 and an unknown or malformed one with a 404, never a 500', async () => {
    const link = await resetLink()
    await env.DB.prepare(`UPDATE password_resets SET expires_at = '2020-01-01T00:00:00.000Z'`).run()
    const expired = await visit(link)
    expect(expired.status).toBe(410)
    expect(textOf(expired.text)).toContain(italian.password.link_invalid_text)
    expect((await submit(link, NEW_PASSWORD)).status).toBe(410)
    for (const path of [
      `/it-it/update-password/${'x'.repeat(43)}`,
      '/it-it/update-password/short',
      '/it-it/update-password/%00%ff',
    ]) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(404)
      expect(textOf(text)).toContain(italian.password.link_invalid_title)
    }
  })

  it('lets only one of two concurrent uses of a link set the password', async () => {
    const link = await resetLink()
    const answers = await Promise.all([submit(link, 'First-Password-2027'), submit(link, 'Second-Password-2027')])
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410])
    const winner = answers[0]?.status === 303 ? 'First-Password-2027' : 'Second-Password-2027'
    await logIn({ email: DEMO.email, password: winner })
  })
})

describe('reset links and the logs', () => {
  it('sends one account three links at once at most, with the same answer to every ask', async () => {
    for (let i = 0; i < 4; i++) expect((await forgot(DEMO.email)).headers.get('Location')).toBe('/login')
    expect(await mailsTo(DEMO.email)).toBe(3)
  })

  it('sends no more when asked many times at once', async () => {
    await Promise.all(Array.from({ length: 8 }, () => forgot(DEMO.email)))
    expect(await mailsTo(DEMO.email)).toBe(3)
  })

  it("still sends the owner a working link after a stranger used up the hour's: one more ten minutes after the newest", async () => {
    // A stranger asks, again and again, from address after address.
    for (let i = 0; i < 5; i++) await forgot(DEMO.email)
    expect(await mailsTo(DEMO.email)).toBe(3)
    const strangers = await linksMailedTo(DEMO.email)
    await tenMinutesLater(DEMO.email)
    // The owner asks: a new mail, with a new link.
    const link = await resetLink()
    expect(await mailsTo(DEMO.email)).toBe(4)
    expect(strangers).not.toContain(link)
    // The stranger asking right after sends nothing more; the owner's link works all the same.
    await forgot(DEMO.email)
    expect(await mailsTo(DEMO.email)).toBe(4)
    expect((await visit(link)).status).toBe(200)
    expect((await submit(link, NEW_PASSWORD)).status).toBe(303)
    await logIn({ email: DEMO.email, password: NEW_PASSWORD })
  })

  it("never logs a reset token: the page's path and the API call's are logged as :token", async () => {
    const lines: string[] = []
    for (const level of ['log', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    }
    try {
      const link = await resetLink()
      const token = link.split('/').pop() as string
      expect((await visit(link)).status).toBe(200)
      expect((await submit(link, NEW_PASSWORD)).status).toBe(303)
      // Spent: the API refuses the token with a 410, a failure the log line lists by its call's path.
      expect((await visit(link)).status).toBe(410)

      const requests = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.event === 'request')
      const pageLines = requests.filter((line) => line.path === '/it-it/update-password/:token')
      expect(pageLines.map((line) => `${line.method} ${line.status}`)).toEqual(['GET 200', 'POST 303', 'GET 410'])
      expect(pageLines[2]?.upstreamFailures).toEqual([
        { path: 'auth/reset-password/:token', failure: 'rejected', status: 410 },
      ])
      expect(lines.length).toBeGreaterThanOrEqual(4)
      for (const line of lines) expect(line).not.toContain(token)
    } finally {
      vi.restoreAllMocks()
    }
  })
})
