import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { openReportKey, openText, sealText } from '../../src/whistleblower/sealed'
import { sealRecipient } from '../../src/whistleblower/sealed-recipient'
import { mailsTo, sealedReport, staffMember, trailOf, WHISTLEBLOWER_KEYRING } from '../fixtures/cases'

type Member = Awaited<ReturnType<typeof staffMember>>

/** Calls the embedded API in-process, as the Worker does, with a staff member's token. */
async function call(member: Member | null, path: string, body?: unknown) {
  const init: RequestInit = {
    headers: { ...(member ? { Authorization: `Bearer ${member.token}` } : {}), 'Content-Type': 'application/json' },
  }
  if (body !== undefined)
    Object.assign(init, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) })
  const response = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, init) as Parameters<typeof api.fetch>[0],
    env,
  )
  const text = await response.text()
  return { status: response.status, text, json: text.startsWith('{') ? JSON.parse(text) : null }
}

const sealedFor = async (report: { key: CryptoKey }, text: string) => sealText(report.key, text)

/** A change's `notify` as the Worker sends it: the address sealed for the mail sender, and the status page. */
const notifyOf = async (address: string, statusUrl: string) => ({
  sealed_recipient: await sealRecipient(WHISTLEBLOWER_KEYRING, address),
  status_url: statusUrl,
})

let handler: Member
let editor: Member

beforeAll(async () => {
  handler = await staffMember('case_handler', 'Hanna Handler')
  editor = await staffMember('editor', 'Eddie Editor')
})

describe('the cases of the embedded API', () => {
  it('answers 401 without a staff token and 403 to an editor, on every call', async () => {
    const report = await sealedReport()
    const paths: Array<[string, unknown?]> = [
      ['staff/cases'],
      [`staff/cases/${report.id}`],
      [`staff/cases/${report.id}/attachments/1`],
      [`staff/cases/${report.id}/acknowledge`, { notify: null }],
      [`staff/cases/${report.id}/messages`, { author: 'note', sealed_body: 'AAAA', notify: null }],
      [`staff/cases/${report.id}/close`, { sealed_outcome: 'AAAA', notify: null }],
    ]
    for (const [path, body] of paths) {
      expect((await call(null, path, body)).status, path).toBe(401)
      const refused = await call(editor, path, body)
      expect(refused.status, path).toBe(403)
      expect(refused.text).not.toContain('sealed')
    }
    expect(await trailOf(report.id)).toEqual([])
  })

  it('lists open cases the next deadline soonest due first, a page at a time by keyset, as the console counts them', async () => {
    /** A case received then, acknowledged and given feedback when told (UTC), in the state that follows. */
    const openCase = async (
      receivedAt: string,
      acknowledgedAt: string | null = null,
      feedbackAt: string | null = null,
    ) => {
      const report = await sealedReport({ receivedAt })
      await env.DB.prepare(
        "UPDATE whistleblower_reports SET acknowledged_at = ?2, feedback_at = ?3, state = CASE WHEN ?3 IS NOT NULL THEN 'in_progress' WHEN ?2 IS NOT NULL THEN 'acknowledged' ELSE 'received' END WHERE id = ?1",
      )
        .bind(report.id, acknowledgedAt, feedbackAt)
        .run()
      return report.id
    }
    const answered = await openCase('2025-06-01T08:00:00.000Z', '2025-06-02T08:00:00.000Z', '2025-07-01T08:00:00.000Z')
    // Acknowledged on 30 November: feedback due on 28 February (the month's last day), not on 2 March.
    const monthEnd = await openCase('2025-11-29T08:00:00.000Z', '2025-11-30T08:00:00.000Z')
    const laterAck = await openCase('2026-02-22T09:00:00.000Z')
    const feedback = await openCase('2025-11-10T08:00:00.000Z', '2025-11-15T08:00:00.000Z')
    const newer = await openCase('2026-02-05T10:00:00.000Z')
    const older = await openCase('2026-01-05T10:00:00.000Z')
    const closed = await openCase('2025-12-01T10:00:00.000Z')
    await env.DB.prepare("UPDATE whistleblower_reports SET state = 'closed', closed_at = received_at WHERE id = ?")
      .bind(closed)
      .run()
    const walked: number[] = []
    let cursor = ''
    for (let pages = 0; pages < 20; pages++) {
      const { status, json } = await call(handler, `staff/cases?per_page=2&cursor=${cursor}`)
      expect(status).toBe(200)
      expect(json.data.length).toBeLessThanOrEqual(2)
      walked.push(...json.data.map((each: { id: number }) => each.id))
      if (!json.meta.next_cursor) break
      cursor = json.meta.next_cursor
    }
    const mine = [older, newer, feedback, monthEnd, laterAck, answered]
    expect(walked.filter((id) => mine.includes(id))).toEqual(mine)
    expect(walked).not.toContain(closed)
    expect(new Set(walked).size).toBe(walked.length)
    expect((await call(handler, 'staff/cases?cursor=bm90LWEtY3Vyc29y')).status).toBe(400)
  })

  it('lists cases with what they are about and where they stand, nothing the reporter wrote', async () => {
    const older = await sealedReport({
      receivedAt: '2026-01-05T10:00:00.000Z',
      category: 'fraud_corruption',
      site: 'ch',
      locale: 'fr',
    })
    const newer = await sealedReport({ receivedAt: '2026-02-05T10:00:00.000Z', anonymous: false })
    const { status, json, text } = await call(handler, 'staff/cases')
    expect(status).toBe(200)
    const ids = json.data.map((each: { id: number }) => each.id)
    // The older case's acknowledgement falls due first.
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(newer.id))
    expect(json.data.find((each: { id: number }) => each.id === older.id)).toEqual({
      id: older.id,
      receipt_code: older.receipt_code,
      site: 'ch',
      locale: 'fr',
      category: 'fraud_corruption',
      state: 'received',
      anonymous: true,
      received_at: '2026-01-05T10:00:00.000Z',
      acknowledged_at: null,
      feedback_at: null,
      closed_at: null,
    })
    expect(text).not.toContain('sealed')
    expect(text).not.toContain('wrapped_key')
    // Listing reads nothing of a case: it is not recorded.
    expect(await trailOf(older.id)).toEqual([])
  })

  it('answers a case sealed, with staff names, notes and its trail, recording the reading first', async () => {
    const report = await sealedReport({
      notify: 'reporter@example.com',
      attachments: [{ name: 'photo.jpg', type: 'image/jpeg', bytes: new Uint8Array([1, 2, 3]) }],
    })
    await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'note',
      sealed_body: await sealedFor(report, 'Call the lab.'),
      notify: null,
    })
    const { status, json } = await call(handler, `staff/cases/${report.id}`)
    expect(status).toBe(200)
    const file = json.data
    expect(file).toMatchObject({ id: report.id, state: 'received', sealed_outcome: null })
    const key = await openReportKey(WHISTLEBLOWER_KEYRING, file.wrapped_key)
    expect(JSON.parse(await openText(key, file.sealed_report)).what).toBe(report.report.what)
    expect(await openText(key, file.sealed_notify)).toBe('reporter@example.com')
    expect(file.messages).toEqual([expect.objectContaining({ author: 'note', staff_name: 'Hanna Handler' })])
    expect(await openText(key, file.messages[0].sealed_body)).toBe('Call the lab.')
    expect(file.attachments).toEqual([expect.objectContaining({ id: report.attachments[0]?.id, message_id: null })])
    expect(file.attachments[0]).not.toHaveProperty('object_key')
    expect(file.events.map((each: { action: string; staff_name: string }) => [each.action, each.staff_name])).toEqual([
      ['note_added', 'Hanna Handler'],
      ['opened', 'Hanna Handler'],
    ])
  })

  it('records the purpose of a reading made for a change, and refuses an unknown one', async () => {
    const report = await sealedReport()
    expect((await call(handler, `staff/cases/${report.id}?for=message`)).status).toBe(200)
    expect((await call(handler, `staff/cases/${report.id}?for=gossip`)).status).toBe(422)
    expect(await trailOf(report.id)).toEqual([{ action: 'opened', staff_id: handler.id, detail: 'message' }])
  })

  it('answers 404 for a case or an attachment that does not exist, recording nothing', async () => {
    const report = await sealedReport({
      attachments: [{ name: 'a.pdf', type: 'application/pdf', bytes: new Uint8Array([9]) }],
    })
    const other = await sealedReport()
    for (const path of [
      'staff/cases/999999',
      'staff/cases/abc',
      'staff/cases/0',
      `staff/cases/${other.id}/attachments/${report.attachments[0]?.id}`,
      `staff/cases/${report.id}/attachments/x`,
    ]) {
      expect((await call(handler, path)).status, path).toBe(404)
    }
    expect((await call(handler, 'staff/cases/999999/acknowledge', { notify: null })).status).toBe(404)
    expect(await trailOf(report.id)).toEqual([])
    expect(await trailOf(other.id)).toEqual([])
  })

  it('answers where an attachment is and records its download with its id', async () => {
    const report = await sealedReport({
      attachments: [{ name: 'plan.pdf', type: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) }],
    })
    const attachment = report.attachments[0] as { id: number; objectKey: string }
    const { status, json } = await call(handler, `staff/cases/${report.id}/attachments/${attachment.id}`)
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ id: attachment.id, object_key: attachment.objectKey })
    expect(await trailOf(report.id)).toEqual([
      { action: 'file_downloaded', staff_id: handler.id, detail: String(attachment.id) },
    ])
  })
})

describe('changes to a case', () => {
  it('acknowledges a received case, records it and queues one "news" mail in the report\'s language, saying nothing of it', async () => {
    const report = await sealedReport({
      site: 'it',
      locale: 'it',
      notify: 'segnala@example.com',
      what: 'CANARY-7731 the frames crack',
    })
    const notify = await notifyOf('segnala@example.com', 'https://site.test/it-it/whistleblower-form/status')
    const { status, json } = await call(handler, `staff/cases/${report.id}/acknowledge`, { notify })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ state: 'acknowledged', acknowledged_at: expect.any(String), feedback_at: null })
    expect(await trailOf(report.id)).toEqual([{ action: 'acknowledged', staff_id: handler.id, detail: '' }])
    const mails = await mailsTo('segnala@example.com')
    expect(mails).toHaveLength(1)
    // Stored as the Worker sealed it: the address is in no column of the row.
    const stored = await env.DB.prepare(
      `SELECT * FROM outbox WHERE kind = 'whistleblower_news' ORDER BY id DESC LIMIT 1`,
    ).first<Record<string, unknown>>()
    expect(stored?.recipient).toBe(notify.sealed_recipient)
    expect(JSON.stringify(stored)).not.toContain('segnala')
    expect(mails[0]).toMatchObject({ kind: 'whistleblower_news', subject: 'Aurora Cycles: ci sono novità per Lei' })
    expect(mails[0]?.body).toContain('https://site.test/it-it/whistleblower-form/status')
    expect(mails[0]?.body).toContain('ci sono novità')
    for (const secret of [
      'CANARY-7731',
      report.receipt_code,
      'segnalazione',
      'whistleblower channel',
      'product_safety',
    ]) {
      expect(`${mails[0]?.subject} ${mails[0]?.body}`).not.toContain(secret)
    }
  })

  it('queues no mail when the reporter left no address', async () => {
    const report = await sealedReport()
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')
    expect((await call(handler, `staff/cases/${report.id}/acknowledge`, { notify: null })).status).toBe(200)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')).toBe(before)
  })

  it('answers 409 to a second acknowledgement and to one of a closed case, changing and mailing nothing', async () => {
    const report = await sealedReport({ notify: 'twice@example.com' })
    const notify = await notifyOf('twice@example.com', 'https://site.test/it-it/whistleblower-form/status')
    expect((await call(handler, `staff/cases/${report.id}/acknowledge`, { notify })).status).toBe(200)
    const again = await call(handler, `staff/cases/${report.id}/acknowledge`, { notify })
    expect(again.status).toBe(409)
    expect(again.json.code).toBe('already_acknowledged')
    expect(await mailsTo('twice@example.com')).toHaveLength(1)
    const closed = await sealedReport()
    await call(handler, `staff/cases/${closed.id}/close`, {
      sealed_outcome: await sealedFor(closed, 'Unfounded.'),
      notify: null,
    })
    const late = await call(handler, `staff/cases/${closed.id}/acknowledge`, { notify: null })
    expect(late.status).toBe(409)
    expect(late.json.code).toBe('case_closed')
    expect((await trailOf(closed.id)).map((each) => each.action)).toEqual(['acknowledged', 'closed'])
  })

  it('refuses a malformed body with 422, an address in the clear included', async () => {
    const report = await sealedReport()
    for (const [path, body] of [
      ['acknowledge', '{not json'],
      ['acknowledge', { notify: { email: 'reporter@example.com', status_url: 'https://site.test/x' } }],
      ['acknowledge', { notify: { sealed_recipient: 'reporter@example.com', status_url: 'https://site.test/x' } }],
      ['acknowledge', { notify: { sealed_recipient: 'sealed:v1:not base64!', status_url: 'https://site.test/x' } }],
      ['messages', { author: 'reporter', sealed_body: 'AAAA', notify: null }],
      ['messages', { author: 'handler', sealed_body: 'not base64!', notify: null }],
      ['close', { notify: null }],
    ] as const) {
      expect((await call(handler, `staff/cases/${report.id}/${path}`, body)).status, JSON.stringify(body)).toBe(422)
    }
    expect(await trailOf(report.id)).toEqual([])
  })

  it('sends a message to the reporter: acknowledges a received case, moves it in progress, counts as the first feedback', async () => {
    const report = await sealedReport({ notify: 'msg@example.com', locale: 'ar', site: 'ae' })
    const notify = await notifyOf('msg@example.com', 'https://site.test/ae-ar/whistleblower-form/status')
    const first = await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'handler',
      sealed_body: await sealedFor(report, 'Which batch?'),
      notify,
    })
    expect(first.status).toBe(201)
    expect(first.json.data).toMatchObject({ state: 'in_progress' })
    expect(first.json.data.acknowledged_at).toBe(first.json.data.feedback_at)
    const second = await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'handler',
      sealed_body: await sealedFor(report, 'Thanks.'),
      notify,
    })
    expect(second.json.data.feedback_at).toBe(first.json.data.feedback_at)
    const messageIds = (
      await env.DB.prepare(`SELECT id FROM whistleblower_messages WHERE report_id = ? ORDER BY id`)
        .bind(report.id)
        .all<{ id: number }>()
    ).results
    expect(await trailOf(report.id)).toEqual([
      { action: 'acknowledged', staff_id: handler.id, detail: 'with_message' },
      { action: 'message_sent', staff_id: handler.id, detail: String(messageIds[0]?.id) },
      { action: 'message_sent', staff_id: handler.id, detail: String(messageIds[1]?.id) },
    ])
    const mails = await mailsTo('msg@example.com')
    expect(mails).toHaveLength(2)
    expect(mails[0]?.subject).toBe('Aurora Cycles: لديك مستجدات')
    expect(mails[0]?.body).not.toContain('Which batch?')
  })

  it('adds an internal note without changing the case or mailing the reporter, even when asked to', async () => {
    const report = await sealedReport({ notify: 'note@example.com' })
    const notify = await notifyOf('note@example.com', 'https://site.test/it-it/whistleblower-form/status')
    const { status, json } = await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'note',
      sealed_body: await sealedFor(report, 'Internal only.'),
      notify,
    })
    expect(status).toBe(201)
    expect(json.data).toMatchObject({ state: 'received', acknowledged_at: null, feedback_at: null })
    expect(await mailsTo('note@example.com')).toEqual([])
    expect((await trailOf(report.id)).map((each) => each.action)).toEqual(['note_added'])
  })

  it('closes a case with its sealed outcome, as feedback when none was given, and as its acknowledgement when it had none, once', async () => {
    const report = await sealedReport({ notify: 'close@example.com' })
    const notify = await notifyOf('close@example.com', 'https://site.test/it-it/whistleblower-form/status')
    const outcome = await sealedFor(report, 'The batch was recalled.')
    const { status, json } = await call(handler, `staff/cases/${report.id}/close`, { sealed_outcome: outcome, notify })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ state: 'closed' })
    expect(json.data.closed_at).toBe(json.data.feedback_at)
    expect(json.data.acknowledged_at).toBe(json.data.closed_at)
    const stored = await env.DB.prepare('SELECT sealed_outcome FROM whistleblower_reports WHERE id = ?')
      .bind(report.id)
      .first<string>('sealed_outcome')
    expect(await openText(report.key, stored as string)).toBe('The batch was recalled.')
    const again = await call(handler, `staff/cases/${report.id}/close`, { sealed_outcome: outcome, notify })
    expect(again.status).toBe(409)
    const message = await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'handler',
      sealed_body: outcome,
      notify,
    })
    expect(message.status).toBe(409)
    expect(message.json.code).toBe('case_closed')
    // A note on a closed case is still taken (what was done afterwards).
    expect(
      (await call(handler, `staff/cases/${report.id}/messages`, { author: 'note', sealed_body: outcome, notify: null }))
        .status,
    ).toBe(201)
    expect((await trailOf(report.id)).map((each) => [each.action, each.detail])).toEqual([
      ['acknowledged', 'with_outcome'],
      ['closed', ''],
      ['note_added', expect.any(String)],
    ])
    expect(await mailsTo('close@example.com')).toHaveLength(1)
  })

  it("never lets a note or a handler's name reach the reporter: the status call answers the messages to and from them only", async () => {
    const report = await sealedReport({
      realPassphrase: true,
      attachments: [{ name: 'a.pdf', type: 'application/pdf', bytes: new Uint8Array([1]) }],
    })
    await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'note',
      sealed_body: await sealedFor(report, 'NOTE-CANARY suspect the manager'),
      notify: null,
    })
    await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'handler',
      sealed_body: await sealedFor(report, 'Which batch?'),
      notify: null,
    })
    const response = await api.fetch(
      new Request('http://embedded.invalid/api/whistleblower/status', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Tenant': 'it', 'X-Locale': 'it' },
        body: JSON.stringify({ receipt_code: report.receipt_code, passphrase: report.passphrase }),
      }) as Parameters<typeof api.fetch>[0],
      env,
    )
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as {
      data: { state: string; messages: Array<{ author: string; sealed_body: string; staff_name?: string }> }
    }
    expect(data.state).toBe('in_progress')
    expect(data.messages.map((each) => each.author)).toEqual(['handler'])
    expect(await openText(report.key, data.messages[0]?.sealed_body as string)).toBe('Which batch?')
    expect(JSON.stringify(data)).not.toContain('Hanna Handler')
    expect(data.messages[0]?.staff_name ?? null).toBeNull()
  })

  it('keeps the feedback time of a case answered before it is closed', async () => {
    const report = await sealedReport()
    const answered = await call(handler, `staff/cases/${report.id}/messages`, {
      author: 'handler',
      sealed_body: await sealedFor(report, 'Hello.'),
      notify: null,
    })
    const closed = await call(handler, `staff/cases/${report.id}/close`, {
      sealed_outcome: await sealedFor(report, 'Done.'),
      notify: null,
    })
    expect(closed.json.data.feedback_at).toBe(answered.json.data.feedback_at)
    expect(closed.json.data.closed_at).not.toBe(answered.json.data.feedback_at)
  })
})
