import { env } from 'cloudflare:workers'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { queueMail } from '../../reference-api/outbox'
import { visitorSessions } from '../../src/auth/sessions'
import { outgoingMail } from '../../src/mail/outbox-sender'
import { sealRecipient } from '../../src/whistleblower/sealed-recipient'
import { rewrapWhistleblower } from '../../scripts/rewrap-whistleblower.mjs'
import { sealedReport } from '../fixtures/cases'
import { consoleLogin, visitConsole } from '../fixtures/console'
import { keyring } from '../fixtures/keyrings'
import { logIn, visitAs } from '../fixtures/session'
import { ANONYMOUS_REPORT, multipartPost, postReport, reportCount } from '../fixtures/whistleblower'
import { ORIGIN, visit } from '../fixtures/worker'

/** The whistleblower keys before and after a rotation, as `WHISTLEBLOWER_KEYS` lists them. */
const OLD = 'old:first-whistleblower-secret-of-the-tests'
const NEW = 'new:second-whistleblower-secret-of-the-tests'
/** During the overlap: the new key seals, the old one (and the tests' `WHISTLEBLOWER_KEY`, as `legacy`) still opens. */
const ROTATED = { WHISTLEBLOWER_KEYS: `${NEW},${OLD}` }
/** After the re-wrap: the old keys gone. */
const NEW_ONLY = { WHISTLEBLOWER_KEYS: NEW, WHISTLEBLOWER_KEY: undefined }

let handler: string
beforeAll(async () => {
  handler = await consoleLogin('case_handler')
})
afterEach(() => vi.restoreAllMocks())

/** The log lines a piece of work writes. */
async function linesOf(work: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = []
  for (const level of ['log', 'warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')))
  await work()
  vi.restoreAllMocks()
  return lines
}

/** `npm run rewrap:whistleblower`'s loop, its requests answered by the Worker with the bindings given. */
const rewrap = (bindings: Partial<Cloudflare.Env>, limit?: number) =>
  rewrapWhistleblower({
    origin: ORIGIN,
    secret: env.PURGE_SECRET,
    limit,
    fetch: async (request) => {
      const { text, status } = await visit(request.url, { method: request.method, headers: request.headers }, bindings)
      return new Response(text, { status })
    },
  })

/** A case stored under a ring's newest key, with an attachment and a reporter's address. */
const caseUnder = (ring: string) =>
  sealedReport({
    keyring: keyring({ WHISTLEBLOWER_KEYS: ring }),
    what: `Sealed under ${ring.split(':')[0]}: the torque figures of the 2026 forks were copied.`,
    notify: 'rotation.reporter@example.com',
    attachments: [{ name: 'figures.pdf', type: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70, 1, 2, 3]) }],
  })

/** What the console shows of a case, and its attachment's bytes, with the bindings given. */
async function consoleView(report: Awaited<ReturnType<typeof caseUnder>>, bindings: Partial<Cloudflare.Env>) {
  const page = await visitConsole(handler, `/_console/cases/${report.id}`, {}, bindings)
  const attachment = report.attachments[0] as { id: number }
  const headers = new Headers({ Cookie: handler })
  const file = await visit(`/_console/cases/${report.id}/attachments/${attachment.id}`, { headers }, bindings)
  return { page, file }
}

const wrappedKeyOf = async (id: number) =>
  (await env.DB.prepare('SELECT wrapped_key FROM whistleblower_reports WHERE id = ?')
    .bind(id)
    .first<string>('wrapped_key')) as string

/** Queues a "there is news" mail to an address sealed under a ring's newest key; answers its id. */
async function newsMailUnder(ring: string, address: string): Promise<number> {
  const recipient = await sealRecipient(keyring({ WHISTLEBLOWER_KEYS: ring }), address)
  await queueMail(env.DB, { recipient, subject: 'News', body: 'There is news', kind: 'whistleblower_news' }).run()
  return (await env.DB.prepare('SELECT MAX(id) AS id FROM outbox').first<number>('id')) as number
}

const queuedMail = async (id: number) =>
  (await env.DB.prepare('SELECT id, recipient, subject, body, kind, html, headers FROM outbox WHERE id = ?')
    .bind(id)
    .first()) as {
    id: number
    recipient: string
    subject: string
    body: string
    html: string | null
    headers: string | null
    kind: string
  }

/** How many stored values are not yet under the key `new`: what a re-wrap has to move. */
async function notYetNew() {
  const cases = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM whistleblower_reports WHERE wrapped_key NOT LIKE 'v2:new:%'",
  ).first<number>('n')
  const recipients = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM outbox WHERE sent_at IS NULL AND recipient LIKE 'sealed:%' AND recipient NOT LIKE 'sealed:v2:new:%'",
  ).first<number>('n')
  const total = await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_reports').first<number>('n')
  return { cases: cases ?? 0, recipients: recipients ?? 0, total: total ?? 0 }
}

describe('the whistleblower keyring', () => {
  it('names the key each case is sealed under, and opens a case sealed under the old key after the rotation while the old key is listed', async () => {
    const report = await caseUnder(OLD)
    expect(await wrappedKeyOf(report.id)).toMatch(/^v2:old:[A-Za-z0-9+/]{54}==$/)
    const { page, file } = await consoleView(report, ROTATED)
    expect(page.status).toBe(200)
    expect(page.text).toContain('the torque figures of the 2026 forks were copied')
    expect(file.status).toBe(200)
    expect(new Uint8Array(await new Response(file.text).arrayBuffer()).slice(0, 4)).toEqual(
      new Uint8Array([37, 80, 68, 70]),
    )
  })

  it('opens a case stored before key ids (no key id: the key legacy, WHISTLEBLOWER_KEY) beside the new keys', async () => {
    const report = await sealedReport({ what: 'Stored before key ids.' })
    const legacy = (await wrappedKeyOf(report.id)).replace(/^v2:legacy:/, '')
    await env.DB.prepare('UPDATE whistleblower_reports SET wrapped_key = ? WHERE id = ?').bind(legacy, report.id).run()
    const page = await visitConsole(handler, `/_console/cases/${report.id}`, {}, ROTATED)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Stored before key ids.')
  })

  it('refuses a case whose key id the ring lacks cleanly: 503 and a log line naming the id, never a 500 or its text', async () => {
    const report = await caseUnder(OLD)
    let status = 0
    let text = ''
    const lines = await linesOf(async () => {
      ;({ status, text } = await visitConsole(handler, `/_console/cases/${report.id}`, {}, NEW_ONLY))
    })
    expect(status).toBe(503)
    expect(text).not.toContain('torque figures')
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(events).toContainEqual(expect.objectContaining({ event: 'whistleblower_key_unknown', key_id: 'old' }))
    expect(events).toContainEqual(expect.objectContaining({ event: 'case_unreadable', case: report.id }))
  })

  it("shows the reporter a case sealed under the old key during the overlap, and 'unavailable' (503, never a 500) once its key is gone", async () => {
    const report = await sealedReport({
      keyring: keyring({ WHISTLEBLOWER_KEYS: OLD }),
      what: 'Seen by the reporter after the rotation.',
      realPassphrase: true,
    })
    const status = (bindings: Partial<Cloudflare.Env>) =>
      visit(
        '/it-it/whistleblower-form/status',
        multipartPost({ code: report.receipt_code, passphrase: report.passphrase }),
        bindings,
      )
    const during = await status(ROTATED)
    expect(during.status).toBe(200)
    expect(during.text).toContain('Seen by the reporter after the rotation.')
    const gone = await status(NEW_ONLY)
    expect(gone.status).toBe(503)
    expect(gone.text).not.toContain('Seen by the reporter')
  })

  it('seals new cases under the newest key of the ring', async () => {
    const report = await sealedReport({ keyring: keyring(ROTATED) })
    expect(await wrappedKeyOf(report.id)).toMatch(/^v2:new:/)
  })
})

describe('the re-wrap (npm run rewrap:whistleblower)', () => {
  it('moves every case and queued sealed recipient to the newest key in batches, reports its counts, and the case opens with the old key gone', async () => {
    const report = await caseUnder(OLD)
    await caseUnder(OLD)
    await caseUnder(NEW)
    const mail = await newsMailUnder(OLD, 'moved.reporter@example.com')
    const before = await notYetNew()
    expect(before.cases).toBeGreaterThanOrEqual(2)

    const first = await rewrap(ROTATED, 2)
    expect(first).toEqual({
      keyId: 'new',
      parts: {
        cases: { moved: before.cases, newest: before.total - before.cases, failed: 0 },
        recipients: { moved: before.recipients, newest: 0, failed: 0 },
      },
    })
    expect(await notYetNew()).toEqual({ cases: 0, recipients: 0, total: before.total })
    expect((await queuedMail(mail)).recipient).toMatch(/^sealed:v2:new:/)

    // Idempotent: run again, nothing moves.
    expect((await rewrap(ROTATED)).parts).toEqual({
      cases: { moved: 0, newest: before.total, failed: 0 },
      recipients: { moved: 0, newest: before.recipients, failed: 0 },
    })

    // The old keys removed: the case, its attachment and the queued mail open with the new key alone.
    const { page, file } = await consoleView(report, NEW_ONLY)
    expect(page.status).toBe(200)
    expect(page.text).toContain('the torque figures of the 2026 forks were copied')
    expect(file.status).toBe(200)
    expect((await outgoingMail(NEW_ONLY, await queuedMail(mail))).to).toBe('moved.reporter@example.com')
  })

  it('counts what it cannot open as failed and leaves it as it was', async () => {
    const lost = await caseUnder('gone:a-key-nobody-listed-any-more')
    const stored = await wrappedKeyOf(lost.id)
    const { parts } = await rewrap(ROTATED)
    expect(parts.cases.failed).toBe(1)
    expect(parts.cases.moved).toBe(0)
    expect(await wrappedKeyOf(lost.id)).toBe(stored)
    await env.DB.prepare('DELETE FROM whistleblower_files WHERE report_id = ?').bind(lost.id).run()
    await env.DB.prepare('DELETE FROM whistleblower_reports WHERE id = ?').bind(lost.id).run()
  })

  it('is refused without the purge secret (401), and without a keyring (503)', async () => {
    const post = (headers: Record<string, string>, bindings: Partial<Cloudflare.Env> = {}) =>
      visit('/_rewrap/whistleblower?part=cases', { method: 'POST', headers }, bindings)
    expect((await post({ Authorization: 'Bearer wrong', 'CF-Connecting-IP': '203.0.113.90' })).status).toBe(401)
    const authorized = { Authorization: `Bearer ${env.PURGE_SECRET}` }
    expect((await post(authorized, { WHISTLEBLOWER_KEY: undefined, WHISTLEBLOWER_KEYS: undefined })).status).toBe(503)
    expect((await post(authorized, { WHISTLEBLOWER_KEYS: 'no secret' })).status).toBe(503)
    expect(
      (await visit('/_rewrap/whistleblower?part=attachments', { method: 'POST', headers: authorized })).status,
    ).toBe(400)
  })
})

describe('rotating SESSION_SECRET', () => {
  const ROTATED_SESSIONS = {
    SESSION_SECRET: 'rotated-session-secret-of-the-tests',
    SESSION_SECRET_PREVIOUS: env.SESSION_SECRET,
  }
  const PREVIOUS_REMOVED = { SESSION_SECRET: 'rotated-session-secret-of-the-tests', SESSION_SECRET_PREVIOUS: undefined }

  it('keeps a session sealed with the previous secret during the overlap, sealed again with the new one', async () => {
    const id = await logIn()
    const during = await visitAs(id, '/it-it/my-account', {}, ROTATED_SESSIONS)
    expect(during.status).toBe(200)
    expect(await visitorSessions(env.SESSIONS, ROTATED_SESSIONS.SESSION_SECRET).read(id)).not.toBeNull()
    // Seen during the overlap: it outlives the previous secret's removal.
    expect((await visitAs(id, '/it-it/my-account', {}, PREVIOUS_REMOVED)).status).toBe(200)
  })

  it('ends a session sealed with the previous secret and not seen during the overlap once the previous is removed', async () => {
    const id = await logIn()
    const after = await visitAs(id, '/it-it/my-account', {}, PREVIOUS_REMOVED)
    expect(after.status).toBe(302)
    expect(after.headers.get('Location')).toContain('/login')
  })

  it('takes a form given out before the rotation during the overlap: a whistleblower report posted then is stored', async () => {
    const before = await reportCount()
    const during = await postReport('it-it', ANONYMOUS_REPORT, [], ROTATED_SESSIONS)
    expect(during.status).toBe(200)
    expect(during.receipt).not.toBeNull()
    expect(await reportCount()).toBe(before + 1)
    // Once the previous secret is gone, such a token is no longer this site's: nothing is stored.
    await postReport('it-it', ANONYMOUS_REPORT, [], PREVIOUS_REMOVED)
    expect(await reportCount()).toBe(before + 1)
  })

  it("keeps a staff member's console session the same way", async () => {
    const cookie = await consoleLogin('editor')
    expect((await visitConsole(cookie, '/_console', {}, ROTATED_SESSIONS)).status).toBe(200)
    expect((await visitConsole(cookie, '/_console', {}, PREVIOUS_REMOVED)).status).toBe(200)
    const unseen = await consoleLogin('editor')
    expect((await visitConsole(unseen, '/_console', {}, PREVIOUS_REMOVED)).status).toBe(303)
  })
})
