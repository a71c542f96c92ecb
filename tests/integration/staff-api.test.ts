import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { demoStaff, forgetUsedCode, totpCode } from '../fixtures/console'
import { visit } from '../fixtures/worker'

/** Calls the embedded API in-process, as the Worker does, with a staff token when given. */
async function call(
  path: string,
  { token, method = 'GET', body }: { token?: string; method?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }) as Parameters<typeof api.fetch>[0],
    env,
  )
  const text = await response.text()
  return { status: response.status, text, json: () => JSON.parse(text) }
}

const STEP = 30_000

/** A cursor's text as the API writes one (base64url without padding), of any content: forged. */
const unpadded = (text: string) => btoa(text).replace(/=+$/, '')

/** Signs a demo member in through the API (code of now, or of `at`) and answers the token. */
async function staffToken(role: 'editor' | 'case_handler', at = Date.now()): Promise<string> {
  await forgetUsedCode(role)
  const member = demoStaff(role)
  const answer = await call('staff/login', {
    method: 'POST',
    body: { email: member.email, password: member.password, code: await totpCode(member.totp_secret, at) },
  })
  expect(answer.status).toBe(200)
  return answer.json().access_token
}

async function insertSubmission(row: {
  reference: string
  kind: string
  site: string
  created_at: string
  email?: string
  handled?: boolean
}) {
  await env.DB.prepare(
    `INSERT INTO form_submissions (reference, submission_key, kind, site, locale, email, fields, created_at, handled_at)
     VALUES (?, ?, ?, ?, 'en', ?, '{"name":"Test"}', ?, ?)`,
  )
    .bind(
      row.reference,
      `key-${row.reference}-${'x'.repeat(20)}`,
      row.kind,
      row.site,
      row.email ?? 'lead@example.com',
      row.created_at,
      row.handled ? row.created_at : null,
    )
    .run()
}

describe('POST api/staff/login', () => {
  beforeEach(() => forgetUsedCode('editor'))

  it('answers a token for 8 hours and the staff member, for the right e-mail, password and current code', async () => {
    const member = demoStaff('editor')
    const answer = await call('staff/login', {
      method: 'POST',
      body: { email: member.email.toUpperCase(), password: member.password, code: await totpCode(member.totp_secret) },
    })
    expect(answer.status).toBe(200)
    const { access_token, expires_at, staff } = answer.json()
    expect(access_token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(8 * 3600_000 - 60_000)
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(8 * 3600_000)
    expect(staff).toEqual({ id: member.id, email: member.email, name: member.name, role: 'editor' })
    expect(answer.text).not.toMatch(/password|totp/)
    // Only the token's hash is stored.
    const stored = await env.DB.prepare('SELECT token_hash FROM staff_tokens WHERE staff_id = ?')
      .bind(member.id)
      .all<{ token_hash: string }>()
    expect(stored.results.map((row) => row.token_hash)).not.toContain(access_token)
  })

  it('accepts the code of the step before or after (clock drift), not two steps away', async () => {
    // The clock held in the middle of a step: a step turning mid-test would move every code one step away.
    const now = Math.floor(Date.now() / STEP) * STEP + STEP / 2
    vi.useFakeTimers({ now, toFake: ['Date'] })
    try {
      const member = demoStaff('editor')
      const login = async (at: number) => {
        await forgetUsedCode('editor')
        return call('staff/login', {
          method: 'POST',
          body: { email: member.email, password: member.password, code: await totpCode(member.totp_secret, at) },
        })
      }
      expect((await login(now - STEP)).status).toBe(200)
      expect((await login(now + STEP)).status).toBe(200)
      const farCode = await totpCode(member.totp_secret, now - 2 * STEP)
      const nearCodes = await Promise.all([-1, 0, 1].map((n) => totpCode(member.totp_secret, now + n * STEP)))
      if (!nearCodes.includes(farCode)) expect((await login(now - 2 * STEP)).status).toBe(422)
    } finally {
      vi.useRealTimers()
    }
  })

  it('answers the same 422 for a wrong password, a wrong code, a used code, an unknown address and an inactive member', async () => {
    const member = demoStaff('editor')
    const code = await totpCode(member.totp_secret)
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const attempts = [
      { email: member.email, password: 'wrong-password', code },
      { email: member.email, password: member.password, code: wrongCode },
      { email: 'nobody@aurora-cycles.example', password: member.password, code },
    ]
    const answers = []
    for (const body of attempts) answers.push(await call('staff/login', { method: 'POST', body }))
    // The right code once, then the same code again.
    expect(
      (await call('staff/login', { method: 'POST', body: { email: member.email, password: member.password, code } }))
        .status,
    ).toBe(200)
    answers.push(
      await call('staff/login', { method: 'POST', body: { email: member.email, password: member.password, code } }),
    )
    await env.DB.prepare('UPDATE staff_users SET active = 0 WHERE id = ?').bind(member.id).run()
    await forgetUsedCode('editor')
    answers.push(
      await call('staff/login', { method: 'POST', body: { email: member.email, password: member.password, code } }),
    )
    await env.DB.prepare('UPDATE staff_users SET active = 1 WHERE id = ?').bind(member.id).run()
    for (const answer of answers) {
      expect(answer.status).toBe(422)
      expect(answer.text).toBe(answers[0]?.text)
    }
  })

  it('refuses an earlier step once a later one was used', async () => {
    const member = demoStaff('editor')
    expect(
      (
        await call('staff/login', {
          method: 'POST',
          body: {
            email: member.email,
            password: member.password,
            code: await totpCode(member.totp_secret, Date.now() + STEP),
          },
        })
      ).status,
    ).toBe(200)
    const now = await call('staff/login', {
      method: 'POST',
      body: { email: member.email, password: member.password, code: await totpCode(member.totp_secret) },
    })
    expect(now.status).toBe(422)
  })

  it('answers 422 for malformed bodies', async () => {
    for (const body of [
      null,
      {},
      { email: 'x', password: 'y', code: '123456' },
      { email: 'editor@aurora-cycles.example', password: 'x', code: '12345' },
      'text',
    ]) {
      expect((await call('staff/login', { method: 'POST', body })).status).toBe(422)
    }
  })
})

describe('GET api/staff/me and POST api/staff/logout', () => {
  it("answers the token's member, and 401 once the token is revoked", async () => {
    const token = await staffToken('case_handler')
    const me = await call('staff/me', { token })
    expect(me.status).toBe(200)
    expect(me.json().data).toMatchObject({ role: 'case_handler', email: demoStaff('case_handler').email })
    expect((await call('staff/logout', { token, method: 'POST', body: {} })).status).toBe(200)
    expect((await call('staff/me', { token })).status).toBe(401)
    expect((await call('staff/logout', { token, method: 'POST', body: {} })).status).toBe(401)
  })

  it('answers 401 for an expired token', async () => {
    const token = await staffToken('editor')
    await env.DB.prepare("UPDATE staff_tokens SET expires_at = '2020-01-01T00:00:00.000Z'").run()
    expect((await call('staff/me', { token })).status).toBe(401)
  })

  it('is never served on the public /api/', async () => {
    const token = await staffToken('editor')
    for (const path of ['/api/staff/me', '/api/staff/submissions', '/api/staff/outbox', '/api/staff/markets']) {
      const { status } = await visit(path, { headers: { Authorization: `Bearer ${token}` } })
      expect(status, path).toBe(404)
    }
  })
})

describe("the editors' staff calls", () => {
  const EDITOR_CALLS: Array<[method: string, path: string, body?: unknown]> = [
    ['GET', 'staff/submissions'],
    ['GET', 'staff/submissions/1'],
    ['POST', 'staff/submissions/1/handled', {}],
    ['GET', 'staff/outbox'],
    ['GET', 'staff/outbox/1'],
    ['GET', 'staff/markets'],
    ['POST', 'staff/markets/it', { under_maintenance: false }],
    ['POST', 'staff/events', { action: 'cache_purged', target: 'market:it' }],
    ['GET', 'staff/events?target=market:it'],
  ]

  it.each(EDITOR_CALLS)(
    '%s api/%s answers 401 without a token and 403 to a case handler',
    async (method, path, body) => {
      expect((await call(path, { method, body })).status).toBe(401)
      const token = await staffToken('case_handler')
      expect((await call(path, { token, method, body })).status).toBe(403)
    },
  )

  it('lists submissions newest first, filtered by market, kind, dates (inclusive) and handled, paged', async () => {
    await env.DB.prepare('DELETE FROM form_submissions').run()
    await insertSubmission({
      reference: 'TR-AAAA-0001',
      kind: 'test_ride',
      site: 'it',
      created_at: '2026-11-01T09:00:00.000Z',
    })
    await insertSubmission({
      reference: 'TR-AAAA-0002',
      kind: 'test_ride',
      site: 'de',
      created_at: '2026-11-02T23:59:00.000Z',
    })
    await insertSubmission({
      reference: 'CT-AAAA-0003',
      kind: 'contact',
      site: 'it',
      created_at: '2026-11-03T00:00:00.000Z',
      handled: true,
    })
    const token = await staffToken('editor')
    const references = async (query: string) =>
      (await call(`staff/submissions${query}`, { token })).json().data.map((s: { reference: string }) => s.reference)
    expect(await references('')).toEqual(['CT-AAAA-0003', 'TR-AAAA-0002', 'TR-AAAA-0001'])
    expect(await references('?site=it')).toEqual(['CT-AAAA-0003', 'TR-AAAA-0001'])
    expect(await references('?kind=test_ride')).toEqual(['TR-AAAA-0002', 'TR-AAAA-0001'])
    expect(await references('?from=2026-11-02&to=2026-11-02')).toEqual(['TR-AAAA-0002'])
    expect(await references('?handled=1')).toEqual(['CT-AAAA-0003'])
    expect(await references('?handled=0&site=it')).toEqual(['TR-AAAA-0001'])
    const first = (await call('staff/submissions?per_page=2', { token })).json()
    expect(first.meta).toEqual({ per_page: 2, next_cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/) })
    const paged = (await call(`staff/submissions?per_page=2&cursor=${first.meta.next_cursor}`, { token })).json()
    expect(paged.meta).toEqual({ per_page: 2, next_cursor: null })
    expect(paged.data.map((s: { reference: string }) => s.reference)).toEqual(['TR-AAAA-0001'])
    for (const bad of [
      '?site=ITALY',
      '?kind=pizza',
      '?from=2026-13-01',
      '?to=yesterday',
      '?handled=yes',
      '?per_page=0',
    ]) {
      const answer = await call(`staff/submissions${bad}`, { token })
      expect(answer.status, bad).toBe(422)
    }
  })

  it('walks a list longer than a page to its end by cursor: rows received at the same moment neither repeated nor skipped, a forged cursor a 400', async () => {
    await env.DB.prepare('DELETE FROM form_submissions').run()
    const references = Array.from({ length: 7 }, (_, i) => `TR-KEYS-000${i}`)
    // Three pairs received at the same moment, and one alone: a page boundary falls inside a pair.
    for (const [i, reference] of references.entries())
      await insertSubmission({
        reference,
        kind: 'test_ride',
        site: 'it',
        created_at: `2026-10-0${1 + Math.floor(i / 2)}T08:00:00.000Z`,
      })
    const token = await staffToken('editor')
    const seen: string[] = []
    let cursor = ''
    for (let pages = 0; pages < 10; pages++) {
      const answer = (await call(`staff/submissions?per_page=3&cursor=${cursor}`, { token })).json()
      seen.push(...answer.data.map((s: { reference: string }) => s.reference))
      if (!answer.meta.next_cursor) break
      cursor = answer.meta.next_cursor
    }
    expect(seen).toEqual([...references].reverse())
    for (const forged of [
      'not-a-cursor',
      unpadded('2026-10-01T08:00:00.000Z|0'),
      unpadded("x' OR 1=1|5"),
      'A'.repeat(200),
    ]) {
      const answer = await call(`staff/submissions?cursor=${encodeURIComponent(forged)}`, { token })
      expect(answer.status, forged).toBe(400)
    }
  })

  it("refuses the orders' list a malformed filter, as the submissions' list does, with the parameter named", async () => {
    const token = await staffToken('editor')
    expect((await call('staff/orders?per_page=2', { token })).json().meta).toMatchObject({ per_page: 2 })
    for (const [bad, named] of [
      ['?site=ITALY', 'site'],
      ['?status=lost', 'status'],
      ['?from=2026-13-01', 'from'],
      ['?to=yesterday', 'to'],
      ['?per_page=0', 'per_page'],
    ]) {
      const answer = await call(`staff/orders${bad}`, { token })
      expect(answer.status, bad).toBe(422)
      expect(answer.json().message, bad).toContain(named)
    }
  })

  it('marks a submission handled once, names who, and records it', async () => {
    await insertSubmission({
      reference: 'JA-BBBB-0001',
      kind: 'job',
      site: 'it',
      created_at: '2026-11-05T10:00:00.000Z',
    })
    const id = await env.DB.prepare("SELECT id FROM form_submissions WHERE reference = 'JA-BBBB-0001'").first<number>(
      'id',
    )
    const token = await staffToken('editor')
    const first = await call(`staff/submissions/${id}/handled`, { token, method: 'POST', body: {} })
    expect(first.status).toBe(200)
    expect(first.json().data).toMatchObject({ reference: 'JA-BBBB-0001', handled_by: demoStaff('editor').name })
    const handledAt = first.json().data.handled_at
    expect(Date.parse(handledAt)).toBeGreaterThan(Date.now() - 60_000)
    const again = await call(`staff/submissions/${id}/handled`, { token, method: 'POST', body: {} })
    expect(again.json().data.handled_at).toBe(handledAt)
    const events = await env.DB.prepare('SELECT action, detail FROM staff_events WHERE target = ?')
      .bind(`submission:${id}`)
      .all()
    expect(events.results).toEqual([{ action: 'submission_handled', detail: '{"reference":"JA-BBBB-0001"}' }])
    expect((await call('staff/submissions/999999/handled', { token, method: 'POST', body: {} })).status).toBe(404)
    expect((await call('staff/submissions/abc', { token })).status).toBe(404)
  })

  it("changes a market's switches, records the change, and refuses anything but the four switches", async () => {
    const token = await staffToken('editor')
    const changed = await call('staff/markets/gr', {
      token,
      method: 'POST',
      body: { under_maintenance: true, work_with_us: false },
    })
    expect(changed.status).toBe(200)
    expect(changed.json().data).toMatchObject({
      country: 'gr',
      under_maintenance: true,
      work_with_us: false,
      test_ride_inquiry: true,
    })
    const settings = JSON.parse(
      (await env.DB.prepare("SELECT settings FROM sites WHERE slug = 'gr'").first<string>('settings')) ?? '{}',
    )
    expect(settings).toMatchObject({ under_maintenance: true, work_with_us: false, test_ride_inquiry: true })
    expect(settings.form_recipients).toBeTruthy()
    const events = (await call('staff/events?target=market:gr', { token })).json().data
    expect(events[0]).toMatchObject({ action: 'market_changed', staff_name: demoStaff('editor').name })
    expect(JSON.parse(events[0].detail)).toEqual({
      under_maintenance: { from: false, to: true },
      work_with_us: { from: true, to: false },
    })
    // The same again changes nothing and records nothing.
    await call('staff/markets/gr', { token, method: 'POST', body: { under_maintenance: true } })
    expect((await call('staff/events?target=market:gr', { token })).json().data).toHaveLength(1)
    expect(
      (await call('staff/markets/gr', { token, method: 'POST', body: { google_tag_manager: 'GTM-X' } })).status,
    ).toBe(422)
    expect((await call('staff/markets/gr', { token, method: 'POST', body: { under_maintenance: 'yes' } })).status).toBe(
      422,
    )
    expect((await call('staff/markets/zz', { token, method: 'POST', body: { under_maintenance: true } })).status).toBe(
      404,
    )
    await call('staff/markets/gr', { token, method: 'POST', body: { under_maintenance: false, work_with_us: true } })
  })

  it('lists the markets with their four switches, and the outbox newest first with one mail in full', async () => {
    const token = await staffToken('editor')
    const markets = (await call('staff/markets', { token })).json().data
    expect(markets.map((m: { country: string }) => m.country)).toContain('it')
    expect(markets.find((m: { country: string }) => m.country === 'it')).toEqual({
      country: 'it',
      name: expect.any(String),
      locales: ['it'],
      under_maintenance: false,
      test_ride_inquiry: true,
      become_a_partner: true,
      work_with_us: true,
    })
    await env.DB.prepare(
      "INSERT INTO outbox (recipient, subject, body, kind) VALUES ('a@example.com', 'First', 'Body one', 'contact_notice'), ('b@example.com', 'Second', 'Body two', 'test_ride_acknowledgement')",
    ).run()
    const outbox = (await call('staff/outbox', { token })).json()
    expect(outbox.data[0]).toMatchObject({ subject: 'Second', kind: 'test_ride_acknowledgement' })
    const filtered = (await call('staff/outbox?kind=contact_notice', { token })).json()
    expect(filtered.data.every((mail: { kind: string }) => mail.kind === 'contact_notice')).toBe(true)
    const one = await call(`staff/outbox/${outbox.data[0].id}`, { token })
    expect(one.json().data).toMatchObject({ recipient: 'b@example.com', body: 'Body two' })
    expect((await call('staff/outbox/999999', { token })).status).toBe(404)
  })

  it("never shows editors a password reset (its link takes over the account) or a whistleblower's news (it ties an address to a report)", async () => {
    const token = await staffToken('editor')
    const inserted = await env.DB.prepare(
      "INSERT INTO outbox (recipient, subject, body, kind) VALUES ('owner@example.com', 'Reset', 'https://site.test/reset/secret', 'password_reset'), ('reporter@example.com', 'News', 'there is news', 'whistleblower_news') RETURNING id",
    ).all<{ id: number }>()
    const listed = JSON.stringify((await call('staff/outbox?per_page=50', { token })).json())
    expect(listed).not.toContain('owner@example.com')
    expect(listed).not.toContain('reporter@example.com')
    expect((await call('staff/outbox?kind=password_reset', { token })).json().data).toEqual([])
    for (const { id } of inserted.results) expect((await call(`staff/outbox/${id}`, { token })).status).toBe(404)
  })

  it("records a purge and answers a target's events", async () => {
    const token = await staffToken('editor')
    expect(
      (
        await call('staff/events', {
          token,
          method: 'POST',
          body: { action: 'cache_purged', target: 'cache:everything' },
        })
      ).status,
    ).toBe(201)
    expect(
      (await call('staff/events', { token, method: 'POST', body: { action: 'market_deleted', target: 'x' } })).status,
    ).toBe(422)
    const events = (await call('staff/events?target=cache:everything', { token })).json().data
    expect(events[0]).toMatchObject({
      action: 'cache_purged',
      target: 'cache:everything',
      staff_name: demoStaff('editor').name,
    })
    expect((await call('staff/events', { token })).status).toBe(422)
  })
})
