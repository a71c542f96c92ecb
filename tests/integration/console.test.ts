import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { cacheKeys } from '../fixtures/cache-keys'
import { ACCESS_OTHER_PERSON } from '../../src/console/guard'
import { SIGN_IN_LIMITED, SIGN_IN_NOT_ACCESS, SIGN_IN_REFUSED } from '../../src/console/sign-in'
import { CONSOLE_SECTIONS } from '../../src/console/sections'
import { ConsoleLifetime } from '../../src/console/session'
import { CONSOLE_POLICY } from '../../src/security/content-security-policy'
import { storeCv } from '../../src/forms/cv'
import {
  consoleIdOf,
  consoleLogin,
  consoleStore,
  demoStaff,
  forgetUsedCode,
  idOfCookie,
  storedConsoleSession,
  totpCode,
  visitConsole,
} from '../fixtures/console'
import { sealedReport } from '../fixtures/cases'
import { pdfOf } from '../fixtures/cv-files'
import { DEMO, formPost, logIn, nextClient, steadyRateLimiters, visitAs } from '../fixtures/session'
import { clearCaches, ORIGIN, textOf, visit } from '../fixtures/worker'

/** A page's visible text, its white space collapsed. */
const plain = (html: string) => textOf(html).replace(/\s+/g, ' ')

/** Every console route but sign-in, with an example path. */
const GUARDED: Array<[method: 'GET' | 'POST', path: string]> = [
  ['GET', '/_console'],
  ['GET', '/_console/leads?market=it'],
  ['GET', '/_console/leads/1'],
  ['GET', '/_console/leads/1/cv'],
  ['POST', '/_console/leads/1/handled'],
  ['GET', '/_console/outbox'],
  ['GET', '/_console/outbox/1'],
  ['GET', '/_console/markets'],
  ['POST', '/_console/markets/it'],
  ['GET', '/_console/purge'],
  ['POST', '/_console/purge'],
]
/** The editor's pages. */
const EDITOR_PAGES = GUARDED.filter(([, path]) => path !== '/_console')
/** Every console POST (sign-in and sign-out included). */
const POSTS = [
  ...GUARDED.filter(([method]) => method === 'POST').map(([, path]) => path),
  '/_console/login',
  '/_console/logout',
]

const signInPost = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  formPost(fields, { 'CF-Connecting-IP': nextClient(), ...headers })

/** The sign-in fields of a demo member with the current code, changed as given. */
async function signInFields(role: 'editor' | 'case_handler', change: Record<string, string> = {}) {
  const member = demoStaff(role)
  return { email: member.email, password: member.password, code: await totpCode(member.totp_secret), ...change }
}

/** What the staff API answers a token at `GET api/staff/me`. */
async function staffMeStatus(token: string): Promise<number> {
  const response = await api.fetch(
    new Request('http://embedded.invalid/api/staff/me', {
      headers: { Authorization: `Bearer ${token}` },
    }) as Parameters<typeof api.fetch>[0],
    env,
  )
  return response.status
}

/** Whether the staff API still knows a token. */
const tokenWorks = async (token: string): Promise<boolean> => (await staffMeStatus(token)) === 200

describe('signing in to the console', () => {
  beforeEach(() => forgetUsedCode('editor'))

  it.each(GUARDED)('sends %s %s to sign in without a console session', async (method, path) => {
    const init = method === 'POST' ? formPost({}) : {}
    const { status, headers } = await visit(path, init)
    expect(status).toBe(303)
    const location = new URL(headers.get('Location') ?? '', ORIGIN)
    expect(location.pathname).toBe('/_console/login')
    if (method === 'GET') expect(location.searchParams.get('next')).toBe(path)
  })

  it("is not opened by a customer's site session, nor a customer's session by the console's", async () => {
    const site = await logIn(DEMO)
    expect((await visitAs(site, '/_console')).status).toBe(303)
    const cookie = await consoleLogin('editor')
    const account = await visitConsole(cookie, '/it-it/my-account')
    expect(account.status).toBe(302)
    expect(account.headers.get('Location')).toMatch(/^\/login\?redirect=/)
  })

  it('shows the sign-in form: e-mail, password, a numeric one-time code; English, noindex, never kept, no script', async () => {
    const { status, headers, text } = await visit('/_console/login')
    expect(status).toBe(200)
    expect(text).toContain('<html lang="en" dir="ltr">')
    expect(text).toMatch(
      /<input id="code" type="text" inputMode="numeric" autoComplete="one-time-code" pattern="\[0-9\]\{6\}"[^>]* name="code"\/>/,
    )
    expect(text).toContain('autoComplete="current-password"')
    expect(text).toContain('<meta name="robots" content="noindex, nofollow"/>')
    expect(text).not.toContain('<script')
    expect(headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
    expect(headers.get('Cache-Control')).toBe('no-store')
    expect(headers.get('Content-Security-Policy')).toBe(CONSOLE_POLICY)
    expect(CONSOLE_POLICY).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    expect(headers.get('Set-Cookie')).toBeNull()
  })

  it('signs in with e-mail, password and the current code: a Secure, HttpOnly, SameSite=Strict __Host-Console cookie, then `next`', async () => {
    const { status, headers } = await visit(
      '/_console/login?next=%2F_console%2Fleads%3Fkind%3Djob',
      signInPost(await signInFields('editor')),
    )
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/_console/leads?kind=job')
    const cookie = headers.getSetCookie().find((line) => line.startsWith('__Host-Console='))
    expect(cookie).toMatch(/^__Host-Console=[A-Za-z0-9_-]{43}; /)
    expect(cookie).toMatch(/; Path=\//)
    expect(cookie).toMatch(/; Secure/)
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Strict/)
    expect(cookie).not.toMatch(/Domain=/)
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    const home = await visitConsole(`__Host-Console=${consoleIdOf(headers)}`, '/_console')
    expect(home.status).toBe(200)
    expect(textOf(home.text)).toContain('Erik Lund')
    expect(home.text).toContain('<span class="role">Editor</span>')
    expect(home.text).toContain('href="/_console/leads"')
    expect(home.text).not.toContain('href="/_console/cases"')
    expect(home.headers.get('Cache-Control')).toBe('private, no-store')
    expect(home.headers.get('Content-Security-Policy')).toBe(CONSOLE_POLICY)
  })

  it('goes only to console paths after signing in', async () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example/_console',
      '/it-it',
      '/_consolex',
      '/_console/../it-it',
    ]) {
      await forgetUsedCode('editor')
      const { headers } = await visit(
        `/_console/login?next=${encodeURIComponent(next)}`,
        signInPost(await signInFields('editor')),
      )
      expect(headers.get('Location'), next).toBe('/_console')
    }
  })

  it('refuses a wrong password, a wrong code, a used code and an unknown address with one message, 422, and no cookie', async () => {
    const right = await signInFields('editor')
    const wrongCode = String((Number(right.code) + 1) % 1_000_000).padStart(6, '0')
    const refusals = [
      await visit('/_console/login', signInPost({ ...right, password: 'Not-The-Password-1' })),
      await visit('/_console/login', signInPost({ ...right, code: wrongCode })),
      await visit('/_console/login', signInPost({ ...right, email: 'someone@aurora-cycles.example' })),
      await visit('/_console/login', signInPost({ ...right, code: 'abc' })),
    ]
    expect((await visit('/_console/login', signInPost(right))).status).toBe(303)
    // The same code again, seconds later.
    refusals.push(await visit('/_console/login', signInPost(right)))
    for (const refusal of refusals) {
      expect(refusal.status).toBe(422)
      expect(textOf(refusal.text)).toContain(SIGN_IN_REFUSED)
      expect(consoleIdOf(refusal.headers)).toBeNull()
      expect(refusal.text).not.toContain(right.password)
    }
  })

  it('answers 429 after too many wrong attempts for an address, even with the right code', async () => {
    const limiters = steadyRateLimiters()
    const member = demoStaff('case_handler')
    const client = { 'CF-Connecting-IP': '203.0.113.77' }
    let status = 0
    for (let i = 0; i < 6 && status !== 429; i++) {
      status = (
        await visit(
          '/_console/login',
          formPost({ email: member.email, password: `wrong-${i}`, code: '000000' }, client),
          limiters,
        )
      ).status
    }
    expect(status).toBe(429)
    await forgetUsedCode('case_handler')
    const locked = await visit('/_console/login', formPost(await signInFields('case_handler'), client), limiters)
    expect(locked.status).toBe(429)
    expect(locked.headers.get('Retry-After')).toBe('60')
    expect(textOf(locked.text)).toContain(SIGN_IN_LIMITED)
    expect(consoleIdOf(locked.headers)).toBeNull()
  })

  it('gives a new session id at each sign-in, and ends the session (and token) the browser held', async () => {
    const first = await consoleLogin('editor')
    const firstToken = (await storedConsoleSession(first)).token
    await forgetUsedCode('editor')
    const again = await visitConsole(first, '/_console/login', signInPost(await signInFields('editor')))
    expect(again.status).toBe(303)
    const second = consoleIdOf(again.headers)
    expect(second).toBeTruthy()
    expect(second).not.toBe(idOfCookie(first))
    expect((await visitConsole(first, '/_console')).status).toBe(303)
    expect(await tokenWorks(firstToken)).toBe(false)
    expect((await visitConsole(`__Host-Console=${second}`, '/_console')).status).toBe(200)
  })

  it('sends a signed-in member from the sign-in page to the console', async () => {
    const cookie = await consoleLogin('editor')
    const { status, headers } = await visitConsole(cookie, '/_console/login?next=/_console/outbox')
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/_console/outbox')
  })
})

describe('the console session', () => {
  /** Stores the cookie's session again with its times moved. */
  async function age(cookie: string, { seenAgoMs, createdAgoMs }: { seenAgoMs: number; createdAgoMs?: number }) {
    const session = await storedConsoleSession(cookie)
    const now = Date.now()
    await consoleStore().save(idOfCookie(cookie), {
      ...session,
      seenAt: now - seenAgoMs,
      createdAt: createdAgoMs === undefined ? session.createdAt : now - createdAgoMs,
      expiresAt: now + 3600_000,
    })
  }

  it('ends after 30 minutes without a request, and takes its cookie back', async () => {
    const cookie = await consoleLogin('editor')
    await age(cookie, { seenAgoMs: ConsoleLifetime.idleMs + 1000 })
    const { status, headers } = await visitConsole(cookie, '/_console/leads')
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/_console/login?next=%2F_console%2Fleads')
    expect(headers.getSetCookie().some((line) => /^__Host-Console=;/.test(line))).toBe(true)
    expect(await consoleStore().read(idOfCookie(cookie))).toBeNull()
  })

  it('revokes the staff token upstream when it finds the session idle: the old token answers 401', async () => {
    const cookie = await consoleLogin('editor')
    const token = (await storedConsoleSession(cookie)).token
    expect(await staffMeStatus(token)).toBe(200)
    await age(cookie, { seenAgoMs: ConsoleLifetime.idleMs + 1000 })
    expect((await visitConsole(cookie, '/_console/leads')).status).toBe(303)
    expect(await staffMeStatus(token)).toBe(401)
  })

  it('revokes the staff token upstream when it finds the session past its 8 hours', async () => {
    const cookie = await consoleLogin('editor')
    const token = (await storedConsoleSession(cookie)).token
    await age(cookie, { seenAgoMs: 0, createdAgoMs: ConsoleLifetime.absoluteMs + 1000 })
    expect((await visitConsole(cookie, '/_console')).status).toBe(303)
    expect(await staffMeStatus(token)).toBe(401)
  })

  it('ends an idle session even when its token cannot be revoked (logged by name only)', async () => {
    const cookie = await consoleLogin('editor')
    const token = (await storedConsoleSession(cookie)).token
    await age(cookie, { seenAgoMs: ConsoleLifetime.idleMs + 1000 })
    await env.DB.prepare('DELETE FROM staff_tokens').run()
    const lines: string[] = []
    const warn = vi
      .spyOn(console, 'warn')
      .mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    try {
      const { status, headers } = await visitConsole(cookie, '/_console/leads')
      expect(status).toBe(303)
      expect(headers.get('Location')).toBe('/_console/login?next=%2F_console%2Fleads')
    } finally {
      warn.mockRestore()
    }
    expect(lines.some((line) => line.includes('"event":"token_revoke_failed"'))).toBe(true)
    expect(lines.join('\n')).not.toContain(token)
    expect(await consoleStore().read(idOfCookie(cookie))).toBeNull()
  })

  it('lives on while used: a request after 28 minutes refreshes its idle time', async () => {
    const cookie = await consoleLogin('editor')
    await age(cookie, { seenAgoMs: ConsoleLifetime.idleMs - 2 * 60_000 })
    expect((await visitConsole(cookie, '/_console')).status).toBe(200)
    expect(Date.now() - (await storedConsoleSession(cookie)).seenAt).toBeLessThan(5000)
  })

  it('ends 8 hours after sign-in, however busy', async () => {
    const cookie = await consoleLogin('editor')
    await age(cookie, { seenAgoMs: 0, createdAgoMs: ConsoleLifetime.absoluteMs + 1000 })
    expect((await visitConsole(cookie, '/_console')).status).toBe(303)
  })

  it('signing out revokes the token and deletes the session: the old cookie and the old token no longer work', async () => {
    const cookie = await consoleLogin('editor')
    const token = (await storedConsoleSession(cookie)).token
    expect(await tokenWorks(token)).toBe(true)
    const { status, headers } = await visitConsole(cookie, '/_console/logout', formPost({}))
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/_console/login?signed_out=1')
    expect(headers.getSetCookie().some((line) => /^__Host-Console=;/.test(line))).toBe(true)
    expect(await tokenWorks(token)).toBe(false)
    expect((await visitConsole(cookie, '/_console')).status).toBe(303)
    expect(textOf((await visit('/_console/login?signed_out=1')).text)).toContain('You are signed out.')
  })

  it('ends the session when the API no longer knows its token', async () => {
    const cookie = await consoleLogin('editor')
    await env.DB.prepare('DELETE FROM staff_tokens').run()
    const { status, headers } = await visitConsole(cookie, '/_console/leads')
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/_console/login?next=%2F_console%2Fleads')
    expect(await consoleStore().read(idOfCookie(cookie))).toBeNull()
  })
})

describe('roles and cross-site posts', () => {
  it.each(EDITOR_PAGES)('refuses a case handler %s %s with the 403 console page', async (method, path) => {
    const cookie = await consoleLogin('case_handler')
    const { status, text, headers } = await visitConsole(
      cookie,
      path,
      method === 'POST' ? formPost({ scope: 'everything', under_maintenance: 'on' }) : {},
    )
    expect(status).toBe(403)
    expect(textOf(text)).toContain('This part of the console is not for your role.')
    expect(headers.get('Content-Security-Policy')).toBe(CONSOLE_POLICY)
    expect(headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
  })

  it("shows a case handler only the case handler's sections", async () => {
    const { text } = await visitConsole(await consoleLogin('case_handler'), '/_console')
    expect(text).toContain('href="/_console/cases"')
    expect(text).not.toMatch(/href="\/_console\/(leads|outbox|markets|purge)"/)
  })

  it.each(POSTS)('refuses a cross-site POST %s, signed in or not, and changes nothing', async (path) => {
    const cookie = await consoleLogin('editor')
    const crossSite = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'Sec-Fetch-Site': 'cross-site',
      Origin: 'https://evil.example',
    }
    const body = new URLSearchParams({
      ...(await signInFields('editor')),
      scope: 'everything',
      under_maintenance: 'on',
    }).toString()
    const { status } = await visitConsole(cookie, path, { method: 'POST', headers: crossSite, body })
    expect(status).toBe(403)
    expect((await visitConsole(cookie, '/_console')).status).toBe(200)
    const it = await env.DB.prepare("SELECT settings FROM sites WHERE slug = 'it'").first<string>('settings')
    expect(JSON.parse(it ?? '{}').under_maintenance).toBe(false)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM staff_events').first<number>('n')).toBe(0)
  })
})

/** Stores a submission as the forms do (a CV in R2 for a job application); answers its id. */
async function storeSubmission(row: {
  reference: string
  kind: string
  site: string
  created_at: string
  fields: Record<string, unknown>
  cv?: Uint8Array
}) {
  const fileKey = row.cv ? await storeCv(env.FILES, { bytes: row.cv, type: 'pdf', name: 'cv.pdf' }) : null
  await env.DB.prepare(
    `INSERT INTO form_submissions (reference, submission_key, kind, site, locale, email, fields, file_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      row.reference,
      `key-${row.reference}-abcdefghijklmnop`,
      row.kind,
      row.site,
      row.site === 'de' ? 'de' : 'it',
      String(row.fields.email),
      JSON.stringify(row.fields),
      fileKey,
      row.created_at,
    )
    .run()
  return (await env.DB.prepare('SELECT id FROM form_submissions WHERE reference = ?')
    .bind(row.reference)
    .first<number>('id')) as number
}

const TEST_RIDE = {
  product: 'aurora-strada-9',
  dealer: 'cicli-bergamasca',
  date: '2026-12-02',
  part_of_day: 'morning',
  first_name: 'Giulia',
  last_name: 'Rossi',
  email: 'giulia@example.com',
  phone: '+39 035 555 0101',
  message: 'Can I bring my own pedals?\nThanks',
  consent: true,
}
const JOB = {
  position: null,
  name: 'Lukas Meyer',
  email: 'lukas@example.com',
  phone: '+49 30 555 0102',
  cover_letter: 'I build wheels.',
  consent: true,
  cv: { key: 'x', type: 'pdf', size: 2048, name: 'lebenslauf.pdf' },
}

describe('leads', () => {
  let rideId = 0
  let jobId = 0
  const cv = pdfOf('Lukas Meyer, wheel builder')
  beforeEach(async () => {
    await env.DB.prepare('DELETE FROM form_submissions').run()
    rideId = await storeSubmission({
      reference: 'TR-4K7M-Q2XD',
      kind: 'test_ride',
      site: 'it',
      created_at: '2026-11-20T09:15:00.000Z',
      fields: TEST_RIDE,
    })
    jobId = await storeSubmission({
      reference: 'JA-8H2K-P4MN',
      kind: 'job',
      site: 'de',
      created_at: '2026-11-22T17:40:00.000Z',
      fields: JOB,
      cv,
    })
  })

  it('lists the submissions newest first: received, reference, kind, market, e-mail, handled', async () => {
    const { status, text } = await visitConsole(await consoleLogin('editor'), '/_console/leads')
    expect(status).toBe(200)
    const page = plain(text)
    expect(page.indexOf('JA-8H2K-P4MN')).toBeLessThan(page.indexOf('TR-4K7M-Q2XD'))
    expect(page).toMatch(
      /2026-11-20 09:15 UTC\s+TR-4K7M-Q2XD\s+Test ride\s+Italia\s+\(it-it\)\s+giulia@example.com\s+Open/,
    )
    expect(text).toContain(`href="/_console/leads/${rideId}"`)
  })

  it('filters by market, kind, dates and handled, and keeps the filters in the form', async () => {
    const cookie = await consoleLogin('editor')
    const references = async (query: string) => {
      const { status, text } = await visitConsole(cookie, `/_console/leads?${query}`)
      expect(status).toBe(200)
      return ['TR-4K7M-Q2XD', 'JA-8H2K-P4MN'].filter((reference) => text.includes(reference))
    }
    expect(await references('market=it')).toEqual(['TR-4K7M-Q2XD'])
    expect(await references('kind=job')).toEqual(['JA-8H2K-P4MN'])
    expect(await references('from=2026-11-21&to=2026-11-22')).toEqual(['JA-8H2K-P4MN'])
    expect(await references('to=2026-11-20')).toEqual(['TR-4K7M-Q2XD'])
    expect(await references('handled=yes')).toEqual([])
    expect(await references('handled=no&market=de')).toEqual(['JA-8H2K-P4MN'])
    // Malformed filters are left out, never a 500.
    expect(await references('market=ITALIA&kind=pizza&from=yesterday&page=-1')).toEqual([
      'TR-4K7M-Q2XD',
      'JA-8H2K-P4MN',
    ])
    const { text } = await visitConsole(cookie, '/_console/leads?market=de&kind=job&from=2026-11-01')
    expect(text).toContain('<option value="de" selected="">')
    expect(text).toContain('<option value="job" selected="">')
    expect(text).toContain('name="from" value="2026-11-01"')
  })

  it('shows one submission in full with readable labels, then marks it handled and says who and when', async () => {
    const cookie = await consoleLogin('editor')
    const before = await visitConsole(cookie, `/_console/leads/${rideId}`)
    expect(before.status).toBe(200)
    const page = plain(before.text)
    for (const line of [
      'Model aurora-strada-9',
      'Preferred day 2026-12-02',
      'Time of day Morning',
      'First name Giulia',
      'Phone +39 035 555 0101',
      'Agreed to the privacy notice Yes',
      'Handled Not yet',
    ]) {
      expect(page).toContain(line)
    }
    expect(before.text).toContain('Can I bring my own pedals?\nThanks')
    expect(before.text).not.toContain('Download the CV')
    const handled = await visitConsole(cookie, `/_console/leads/${rideId}/handled`, formPost({}))
    expect(handled.status).toBe(303)
    expect(handled.headers.get('Location')).toBe(`/_console/leads/${rideId}?done=handled`)
    const after = plain((await visitConsole(cookie, `/_console/leads/${rideId}?done=handled`)).text)
    expect(after).toContain('Marked as handled.')
    expect(after).toMatch(/Handled \d{4}-\d\d-\d\d \d\d:\d\d UTC by Erik Lund/)
    expect(after).not.toContain('Mark as handled')
    const event = await env.DB.prepare(
      'SELECT e.action, s.name FROM staff_events e JOIN staff_users s ON s.id = e.staff_id WHERE e.target = ?',
    )
      .bind(`submission:${rideId}`)
      .first()
    expect(event).toEqual({ action: 'submission_handled', name: 'Erik Lund' })
    expect(await visitConsole(cookie, '/_console/leads?handled=yes').then((v) => v.text.includes('TR-4K7M-Q2XD'))).toBe(
      true,
    )
  })

  it("shows a job application's CV by its name and downloads it as an attachment, never kept, never sniffed", async () => {
    const cookie = await consoleLogin('editor')
    const page = await visitConsole(cookie, `/_console/leads/${jobId}`)
    expect(plain(page.text)).toContain('Position Open application')
    expect(plain(page.text)).toContain('CV lebenslauf.pdf · PDF · 2 KB')
    expect(page.text).toContain(`href="/_console/leads/${jobId}/cv"`)
    const download = await visitConsole(cookie, `/_console/leads/${jobId}/cv`)
    expect(download.status).toBe(200)
    expect(download.headers.get('Content-Type')).toBe('application/pdf')
    expect(download.headers.get('Content-Disposition')).toBe('attachment; filename="JA-8H2K-P4MN-cv.pdf"')
    expect(download.headers.get('Cache-Control')).toMatch(/no-store/)
    expect(download.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(download.text).toBe(new TextDecoder().decode(cv))
  })

  it('answers 404 for a lead without a CV, a CV gone from storage, and an unknown or malformed lead', async () => {
    const cookie = await consoleLogin('editor')
    expect((await visitConsole(cookie, `/_console/leads/${rideId}/cv`)).status).toBe(404)
    const key = await env.DB.prepare('SELECT file_key FROM form_submissions WHERE id = ?')
      .bind(jobId)
      .first<string>('file_key')
    await env.FILES.delete(key as string)
    expect((await visitConsole(cookie, `/_console/leads/${jobId}/cv`)).status).toBe(404)
    for (const path of ['/_console/leads/999999', '/_console/leads/abc', '/_console/leads/0/cv']) {
      const { status, headers } = await visitConsole(cookie, path)
      expect(status, path).toBe(404)
      expect(headers.get('Content-Security-Policy')).toBe(CONSOLE_POLICY)
    }
    expect((await visitConsole(cookie, '/_console/leads/999999/handled', formPost({}))).status).toBe(404)
  })

  it("reads nothing but a CV from the bucket: a lead whose key names a whistleblower's attachment answers 404", async () => {
    const report = await sealedReport({
      attachments: [{ name: 'evidence.pdf', type: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) }],
    })
    const objectKey = (report.attachments[0] as { objectKey: string }).objectKey
    const sealed = await ((await env.FILES.get(objectKey)) as R2ObjectBody).text()
    await env.DB.prepare('UPDATE form_submissions SET file_key = ? WHERE id = ?').bind(objectKey, jobId).run()
    const cookie = await consoleLogin('editor')
    const lines: string[] = []
    const error = vi
      .spyOn(console, 'error')
      .mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
    let answer: Awaited<ReturnType<typeof visitConsole>>
    try {
      answer = await visitConsole(cookie, `/_console/leads/${jobId}/cv`)
    } finally {
      error.mockRestore()
    }
    expect(answer.status).toBe(404)
    expect(answer.headers.get('Content-Disposition')).toBeNull()
    expect(answer.text).not.toContain(sealed)
    expect(lines).toEqual(['{"level":"error","event":"cv_key_invalid"}'])
  })
})

describe('outbox', () => {
  it('lists the mails newest first and opens one in full', async () => {
    await env.DB.prepare(
      "INSERT INTO outbox (recipient, subject, body, kind, created_at) VALUES ('sales.it@aurora-cycles.example', 'Test ride TR-4K7M-Q2XD', 'Model: Strada 9\nDay: 2 December', 'test_ride_notice', '2026-11-20T09:15:01.000Z')",
    ).run()
    const cookie = await consoleLogin('editor')
    const { status, text } = await visitConsole(cookie, '/_console/outbox')
    expect(status).toBe(200)
    expect(plain(text)).toMatch(
      /2026-11-20 09:15 UTC\s+Test ride TR-4K7M-Q2XD\s+sales.it@aurora-cycles.example\s+Test ride notice\s+Queued/,
    )
    const href = /href="(\/_console\/outbox\/\d+)"/.exec(text)?.[1]
    const mail = await visitConsole(cookie, href as string)
    expect(mail.status).toBe(200)
    expect(mail.text).toContain('<pre class="mail">Model: Strada 9\nDay: 2 December</pre>')
    expect((await visitConsole(cookie, '/_console/outbox?kind=password_reset')).text).not.toContain('TR-4K7M-Q2XD')
    expect((await visitConsole(cookie, '/_console/outbox/999999')).status).toBe(404)
  })
})

describe('markets and purges', () => {
  beforeEach(() => clearCaches())

  it('switches a market into maintenance, recorded: its next request answers 503 at once; and back', async () => {
    const cookie = await consoleLogin('editor')
    // The market's site record is in the cache first.
    expect((await visit('/it-it')).status).toBe(200)
    expect(await env.CACHE.get(cacheKeys.site('it'))).not.toBeNull()
    const page = await visitConsole(cookie, '/_console/markets')
    expect(page.status).toBe(200)
    expect(page.text).toContain('action="/_console/markets/it"')
    const on = await visitConsole(
      cookie,
      '/_console/markets/it',
      formPost({ under_maintenance: 'on', test_ride_inquiry: 'on', become_a_partner: 'on', work_with_us: 'on' }),
    )
    expect(on.status).toBe(303)
    expect(on.headers.get('Location')).toBe('/_console/markets?changed=it#market-it')
    expect((await visit('/it-it')).status).toBe(503)
    expect((await visit('/it-it/products')).status).toBe(503)
    expect((await visit('/de-de')).status).toBe(200)
    const listed = plain((await visitConsole(cookie, '/_console/markets?changed=it')).text)
    expect(listed).toMatch(/Italia ?: saved, and its cache purged\./)
    expect(listed).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC, Erik Lund: Under maintenance on/)
    const off = await visitConsole(
      cookie,
      '/_console/markets/it',
      formPost({ test_ride_inquiry: 'on', become_a_partner: 'on', work_with_us: 'on' }),
    )
    expect(off.status).toBe(303)
    expect((await visit('/it-it')).status).toBe(200)
    const { results } = await env.DB.prepare(
      "SELECT action, detail FROM staff_events WHERE target = 'market:it' ORDER BY id",
    ).all()
    expect(results).toEqual([
      { action: 'market_changed', detail: '{"under_maintenance":{"from":false,"to":true}}' },
      { action: 'market_changed', detail: '{"under_maintenance":{"from":true,"to":false}}' },
    ])
  })

  it('switches a lead form off: its page answers 404 at once', async () => {
    const cookie = await consoleLogin('editor')
    const testRide = '/it-it/prova-su-strada'
    const before = (await visit(testRide)).status
    await visitConsole(cookie, '/_console/markets/it', formPost({ become_a_partner: 'on', work_with_us: 'on' }))
    expect(before).toBe(200)
    expect((await visit(testRide)).status).toBe(404)
    await visitConsole(
      cookie,
      '/_console/markets/it',
      formPost({ test_ride_inquiry: 'on', become_a_partner: 'on', work_with_us: 'on' }),
    )
    expect((await visit(testRide)).status).toBe(200)
  })

  it('purges one market or everything, recorded with who', async () => {
    const cookie = await consoleLogin('editor')
    await visit('/it-it')
    await visit('/de-de')
    expect(await env.CACHE.get(cacheKeys.site('it'))).not.toBeNull()
    const one = await visitConsole(cookie, '/_console/purge', formPost({ scope: 'it' }))
    expect(one.status).toBe(303)
    expect(one.headers.get('Location')).toMatch(/^\/_console\/purge\?done=it&purged=[1-9][0-9]*$/)
    expect(await env.CACHE.get(cacheKeys.site('it'))).toBeNull()
    expect(await env.CACHE.get(cacheKeys.site('de'))).not.toBeNull()
    expect(plain((await visitConsole(cookie, one.headers.get('Location') as string)).text)).toMatch(
      /Italia ?: purged \(\d+ cached entries\)\./,
    )
    const all = await visitConsole(cookie, '/_console/purge', formPost({ scope: 'everything' }))
    expect(all.status).toBe(303)
    expect(await env.CACHE.get(cacheKeys.site('de'))).toBeNull()
    const { results } = await env.DB.prepare(
      "SELECT action, target FROM staff_events WHERE action = 'cache_purged' ORDER BY id",
    ).all()
    expect(results).toEqual([
      { action: 'cache_purged', target: 'market:it' },
      { action: 'cache_purged', target: 'cache:everything' },
    ])
    expect(plain((await visitConsole(cookie, '/_console/purge')).text)).toMatch(/\d\d:\d\d UTC\s+Erik Lund/)
    const unknown = await visitConsole(cookie, '/_console/purge', formPost({ scope: 'zz' }))
    expect(unknown.status).toBe(422)
    expect(textOf(unknown.text)).toContain('Choose a market, or everything.')
  })
})

describe('Cloudflare Access in front of the console (ACCESS_TEAM_DOMAIN, ACCESS_AUD)', () => {
  const TEAM = 'https://aurora.cloudflareaccess.com'
  const AUD = 'a1b2c3d4e5f6'
  const access = { ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUD } as Partial<Cloudflare.Env>
  const base64url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
  const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)))

  async function rsaKey(kid: string) {
    const pair = (await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    const jwk = { ...((await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey), kid }
    return { kid, privateKey: pair.privateKey, jwk }
  }
  async function sign(key: { kid: string; privateKey: CryptoKey }, claims: Record<string, unknown>) {
    const head = encode({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    const body = encode(claims)
    const signature = new Uint8Array(
      await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key.privateKey, new TextEncoder().encode(`${head}.${body}`)),
    )
    return `${head}.${body}.${base64url(signature)}`
  }

  it("refuses every console request without Access's good assertion, and lets a good one through to the console's own sign-in", async () => {
    const team = await rsaKey('team-key-1')
    const stranger = await rsaKey('team-key-1')
    const certs = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input)
      return url === `${TEAM}/cdn-cgi/access/certs`
        ? Response.json({ keys: [team.jwk] })
        : new Response('no', { status: 404 })
    })
    try {
      const now = Math.floor(Date.now() / 1000)
      const good = { aud: [AUD], iss: TEAM, exp: now + 600, iat: now, email: 'editor@aurora-cycles.example' }
      const refused = [
        undefined,
        'not-a-jwt',
        await sign(team, { ...good, aud: ['another-app'] }),
        await sign(team, { ...good, iss: 'https://evil.cloudflareaccess.com' }),
        await sign(team, { ...good, exp: now - 3600 }),
        await sign(stranger, good),
      ]
      // Every page of the console (its home, sign-in and each section) and its posts, the sign-in's and sign-out's.
      const requests: Array<[string, (headers: Record<string, string>) => RequestInit]> = [
        ...['', '/login', ...CONSOLE_SECTIONS.map(({ slug }) => `/${slug}`)].map(
          (path): [string, (headers: Record<string, string>) => RequestInit] => [
            `/_console${path}`,
            (headers) => ({ headers }),
          ],
        ),
        [
          '/_console/login',
          (headers) => formPost({ email: 'editor@aurora-cycles.example', password: 'x', code: '000000' }, headers),
        ],
        ['/_console/logout', (headers) => formPost({}, headers)],
      ]
      for (const assertion of refused) {
        for (const [path, init] of requests) {
          const headers: Record<string, string> = assertion ? { 'Cf-Access-Jwt-Assertion': assertion } : {}
          const { status, text } = await visit(path, init(headers), access)
          expect(status, `${path} ${assertion}`).toBe(403)
          expect(textOf(text), path).toContain('The console is reached through Cloudflare Access only.')
        }
      }
      const through = await visit(
        '/_console/login',
        { headers: { 'Cf-Access-Jwt-Assertion': await sign(team, good) } },
        access,
      )
      expect(through.status).toBe(200)
      expect(through.text).toContain('autoComplete="one-time-code"')
      // The keys were fetched from the team, once per new key id at most.
      expect(
        certs.mock.calls.every(
          ([input]) => String(input instanceof Request ? input.url : input) === `${TEAM}/cdn-cgi/access/certs`,
        ),
      ).toBe(true)
      // Without the variables, nothing is checked.
      expect((await visit('/_console/login')).status).toBe(200)
    } finally {
      certs.mockRestore()
    }
  })

  /** A team key of its own (the isolate keeps a team's keys by id) whose certs `fetch` answers while `work` runs. */
  async function withTeamKey(
    kid: string,
    work: (assert: (email?: string) => Promise<Record<string, string>>) => Promise<void>,
  ) {
    const team = await rsaKey(kid)
    const certs = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input)
      return url === `${TEAM}/cdn-cgi/access/certs`
        ? Response.json({ keys: [team.jwk] })
        : new Response('no', { status: 404 })
    })
    const assert = async (email?: string) => {
      const now = Math.floor(Date.now() / 1000)
      return {
        'Cf-Access-Jwt-Assertion': await sign(team, {
          aud: [AUD],
          iss: TEAM,
          exp: now + 600,
          iat: now,
          ...(email === undefined ? {} : { email }),
        }),
      }
    }
    try {
      await work(assert)
    } finally {
      certs.mockRestore()
    }
  }
  const tokensOf = (role: 'editor' | 'case_handler') =>
    env.DB.prepare('SELECT COUNT(*) AS n FROM staff_tokens WHERE staff_id = ?')
      .bind(demoStaff(role).id)
      .first<number>('n')

  it('signs in only the staff member whose address Access let in (in any case), and no one without an address', async () => {
    await withTeamKey('team-key-2', async (assert) => {
      const editor = demoStaff('editor')
      const asEditor = await assert(editor.email.toUpperCase())
      const handlerTokens = await tokensOf('case_handler')
      await forgetUsedCode('case_handler')
      const other = await visit('/_console/login', signInPost(await signInFields('case_handler'), asEditor), access)
      expect(other.status).toBe(403)
      expect(textOf(other.text)).toContain(SIGN_IN_NOT_ACCESS)
      expect(consoleIdOf(other.headers)).toBeNull()
      expect(await tokensOf('case_handler')).toBe(handlerTokens)
      await forgetUsedCode('editor')
      const nobody = await visit('/_console/login', signInPost(await signInFields('editor'), await assert()), access)
      expect(nobody.status).toBe(403)
      expect(consoleIdOf(nobody.headers)).toBeNull()
      const own = await visit('/_console/login', signInPost(await signInFields('editor'), asEditor), access)
      expect(own.status).toBe(303)
      const id = consoleIdOf(own.headers) as string
      expect(id).toBeTruthy()
      expect(
        (await visitConsole(`__Host-Console=${id}`, '/_console/leads', { headers: asEditor }, access)).status,
      ).toBe(200)
    })
  })

  it('ends a session (and revokes its token) used by someone else than Access let in: 403', async () => {
    await withTeamKey('team-key-3', async (assert) => {
      const asEditor = await assert(demoStaff('editor').email)
      await forgetUsedCode('editor')
      const signedIn = await visit('/_console/login', signInPost(await signInFields('editor'), asEditor), access)
      expect(signedIn.status).toBe(303)
      const cookie = `__Host-Console=${consoleIdOf(signedIn.headers)}`
      const token = (await storedConsoleSession(cookie)).token
      const stranger = await visitConsole(
        cookie,
        '/_console/leads',
        { headers: await assert(demoStaff('case_handler').email) },
        access,
      )
      expect(stranger.status).toBe(403)
      expect(textOf(stranger.text)).toContain(ACCESS_OTHER_PERSON)
      expect(stranger.text).not.toContain('Leads (')
      expect(stranger.headers.getSetCookie().some((line) => /^__Host-Console=;/.test(line))).toBe(true)
      expect(await consoleStore().read(idOfCookie(cookie))).toBeNull()
      expect(await tokenWorks(token)).toBe(false)
      const back = await visitConsole(cookie, '/_console/leads', { headers: asEditor }, access)
      expect(back.status).toBe(303)
      expect(back.headers.get('Location')).toBe('/_console/login?next=%2F_console%2Fleads')
    })
  })
})
