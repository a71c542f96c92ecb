import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { randomToken } from '../../src/crypto/digest'
import { newReportAnswer, replyAnswer, reporterCaseAnswer } from '../../contract/whistleblower-schemas'
import { receiptFor } from '../../src/whistleblower/receipt'
import { newReportKey, sealText } from '../../src/whistleblower/sealed'
import { caseEvents, reportRow, setCaseState } from '../fixtures/whistleblower'
import { keyring } from '../fixtures/keyrings'

/** Calls the embedded API in-process, as the Worker does, for a market. */
async function call(path: string, body: unknown, tenant: string | null = 'it') {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Locale': 'it' }
  if (tenant) headers['X-Tenant'] = tenant
  const request = new Request(`http://embedded.invalid/api/${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  })
  const ctx = createExecutionContext()
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env, ctx)
  const text = await response.text()
  await waitOnExecutionContext(ctx)
  return {
    status: response.status,
    text,
    json: JSON.parse(text) as Record<string, unknown> & { data?: Record<string, unknown> },
  }
}

/** A new report as the Worker sends it: sealed texts, a wrapped key, the receipt derived from its submission key. */
async function newReport(overrides: Record<string, unknown> = {}, objectKeys: string[] = []) {
  const submission_key = randomToken()
  const { key, wrapped } = await newReportKey(keyring(env))
  const receipt = await receiptFor(keyring(env).newest.secret, submission_key)
  const attachments = await Promise.all(
    objectKeys.map(async (object_key) => ({
      object_key,
      sealed_meta: await sealText(key, '{"name":"a.pdf","type":"application/pdf"}'),
      size: 128,
    })),
  )
  const request = {
    submission_key,
    receipt_code: receipt.code,
    passphrase: receipt.passphrase,
    category: 'environment',
    anonymous: true,
    wrapped_key: wrapped,
    sealed_report: await sealText(key, '{"what":"x"}'),
    sealed_notify: null,
    attachments,
    ...overrides,
  }
  return { request, key, receipt }
}

const objectKey = () => `wb/${crypto.randomUUID()}`

describe('POST api/whistleblower/reports', () => {
  it('stores a report with the passphrase\'s slow hash, its files and a "received" event (201), and answers its code', async () => {
    const { request, receipt } = await newReport({}, [objectKey(), objectKey()])
    const { status, json } = await call('whistleblower/reports', request)
    expect(status).toBe(201)
    expect(newReportAnswer.parse(json).data).toEqual({ receipt_code: receipt.code, created: true })
    const row = (await reportRow(receipt.code))!
    expect(row).toMatchObject({
      site: 'it',
      locale: 'it',
      category: 'environment',
      anonymous: 1,
      state: 'received',
      submission_key: request.submission_key,
    })
    expect(row.passphrase_hash).toMatch(/^pbkdf2-sha256\$100000\$/)
    expect(row.passphrase_hash).not.toContain(receipt.passphrase)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_files WHERE report_id = ? AND message_id IS NULL')
        .bind(row.id)
        .first('n'),
    ).toBe(2)
    expect(await caseEvents(receipt.code)).toEqual([{ action: 'received', staff_id: null, detail: '' }])
  })

  it("answers the same submission key again with the first report's code (200, created: false), storing nothing more", async () => {
    const first = await newReport({}, [objectKey()])
    expect((await call('whistleblower/reports', first.request)).status).toBe(201)
    const again = {
      ...first.request,
      wrapped_key: (await newReportKey(keyring(env))).wrapped,
      attachments: [{ ...first.request.attachments[0]!, object_key: objectKey() }],
    }
    const { status, json } = await call('whistleblower/reports', again)
    expect(status).toBe(200)
    expect(json.data).toEqual({ receipt_code: first.receipt.code, created: false })
    const row = (await reportRow(first.receipt.code))!
    expect(row.wrapped_key).toBe(first.request.wrapped_key)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_files WHERE report_id = ?').bind(row.id).first('n'),
    ).toBe(1)
    expect(await caseEvents(first.receipt.code)).toHaveLength(1)
  })

  it('answers 404 without a market or for one that does not exist', async () => {
    const { request } = await newReport()
    expect((await call('whistleblower/reports', request, null)).status).toBe(404)
    expect((await call('whistleblower/reports', request, 'zz')).status).toBe(404)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_reports WHERE submission_key = ?')
        .bind(request.submission_key)
        .first('n'),
    ).toBe(0)
  })

  it("refuses what the contract forbids with the fields' keys (422): plain text, a bad code, a fourth file, a foreign object key", async () => {
    const { request } = await newReport()
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ sealed_report: 'this is plain text, not sealed' }, 'sealed_report', 'sealed'],
      [{ receipt_code: 'WB-1234' }, 'receipt_code', 'receipt_code'],
      [{ category: 'gossip' }, 'category', 'category'],
      [
        { attachments: [1, 2, 3, 4].map(() => ({ object_key: objectKey(), sealed_meta: 'AAAA', size: 10 })) },
        'attachments',
        'attachments_count',
      ],
      [{ attachments: [{ object_key: 'cv/elsewhere', sealed_meta: 'AAAA', size: 10 }] }, 'attachments', 'attachment'],
    ]
    for (const [change, field, key] of cases) {
      const { status, json } = await call('whistleblower/reports', { ...request, ...change })
      expect(status, field).toBe(422)
      expect((json.errors as Record<string, string[]>)[field], field).toContain(key)
    }
  })

  it('refuses an anonymous report where the market takes none (Germany: 422 anonymous_not_allowed)', async () => {
    const { request } = await newReport()
    const { status, json } = await call('whistleblower/reports', request, 'de')
    expect(status).toBe(422)
    expect(json).toMatchObject({ code: 'anonymous_not_allowed', errors: { anonymous: ['anonymous_not_allowed'] } })
    expect((await call('whistleblower/reports', { ...request, anonymous: false }, 'de')).status).toBe(201)
  })
})

describe('POST api/whistleblower/status', () => {
  it('opens a case with its code and passphrase: no notes, no staff names, and records that the reporter opened it', async () => {
    const { request, receipt, key } = await newReport({}, [objectKey()])
    await call('whistleblower/reports', request)
    const row = (await reportRow(receipt.code))!
    const staff = await env.DB.prepare(
      "INSERT INTO staff_users (email, name, role, password_hash, totp_secret) VALUES (?, 'Hanna Handler', 'case_handler', 'x', 'JBSWY3DPEHPK3PXP') RETURNING id",
    )
      .bind(`handler-${randomToken().slice(0, 8)}@aurora-cycles.example`)
      .first<number>('id')
    for (const author of ['handler', 'note', 'reporter'] as const) {
      await env.DB.prepare(
        'INSERT INTO whistleblower_messages (report_id, author, staff_id, sealed_body) VALUES (?, ?, ?, ?)',
      )
        .bind(row.id, author, author === 'reporter' ? null : staff, await sealText(key, `${author} text`))
        .run()
    }
    const { status, json, text } = await call('whistleblower/status', {
      receipt_code: receipt.code,
      passphrase: receipt.passphrase,
    })
    expect(status).toBe(200)
    const opened = reporterCaseAnswer.parse(json).data
    expect(opened).toMatchObject({
      receipt_code: receipt.code,
      category: 'environment',
      state: 'received',
      wrapped_key: request.wrapped_key,
      sealed_outcome: null,
    })
    expect(opened.messages.map((message) => message.author)).toEqual(['handler', 'reporter'])
    expect(opened.attachments).toHaveLength(1)
    expect(text).not.toContain('Hanna')
    expect(text).not.toContain('staff_name')
    expect(text).not.toContain('passphrase_hash')
    expect((await caseEvents(receipt.code)).map((event) => event.action)).toEqual(['received'])
  })

  it('answers a wrong passphrase and an unknown code with the same 404, recording nothing', async () => {
    const { request, receipt } = await newReport()
    await call('whistleblower/reports', request)
    const wrong = await call('whistleblower/status', {
      receipt_code: receipt.code,
      passphrase: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF',
    })
    const unknown = await call('whistleblower/status', {
      receipt_code: 'WB-ZZZZ-ZZZZ-ZZZZ-ZZZZ',
      passphrase: receipt.passphrase,
    })
    expect(wrong.status).toBe(404)
    expect(unknown.status).toBe(404)
    expect(wrong.text).toBe(unknown.text)
    expect(await caseEvents(receipt.code)).toHaveLength(1)
  })

  it('answers the outcome only once a case is closed', async () => {
    const { request, receipt } = await newReport()
    await call('whistleblower/reports', request)
    await setCaseState(receipt.code, 'in_progress', 'draft outcome')
    expect(
      (await call('whistleblower/status', { receipt_code: receipt.code, passphrase: receipt.passphrase })).json.data
        ?.sealed_outcome,
    ).toBeNull()
    await setCaseState(receipt.code, 'closed')
    expect(
      (await call('whistleblower/status', { receipt_code: receipt.code, passphrase: receipt.passphrase })).json.data
        ?.sealed_outcome,
    ).toEqual(expect.any(String))
  })
})

describe('POST api/whistleblower/replies', () => {
  it("stores the reporter's answer with its files once per submission key, records it, and leaves the state as it was", async () => {
    const { request, receipt, key } = await newReport()
    await call('whistleblower/reports', request)
    await setCaseState(receipt.code, 'acknowledged')
    const reply = {
      receipt_code: receipt.code,
      passphrase: receipt.passphrase,
      submission_key: randomToken(),
      sealed_body: await sealText(key, 'more details'),
      attachments: [{ object_key: objectKey(), sealed_meta: await sealText(key, '{"name":"b.pdf"}'), size: 64 }],
    }
    const first = await call('whistleblower/replies', reply)
    expect(first.status).toBe(201)
    expect(replyAnswer.parse(first.json).data).toEqual({ created: true })
    const second = await call('whistleblower/replies', {
      ...reply,
      sealed_body: await sealText(key, 'more details'),
      attachments: [],
    })
    expect(second.status).toBe(200)
    expect(second.json.data).toEqual({ created: false })
    const row = (await reportRow(receipt.code))!
    expect(row.state).toBe('acknowledged')
    const message = await env.DB.prepare(
      "SELECT id FROM whistleblower_messages WHERE report_id = ? AND author = 'reporter'",
    )
      .bind(row.id)
      .all<{ id: number }>()
    expect(message.results).toHaveLength(1)
    const id = message.results[0]!.id
    expect(
      await env.DB.prepare('SELECT message_id FROM whistleblower_files WHERE report_id = ?').bind(row.id).all(),
    ).toMatchObject({ results: [{ message_id: id }] })
    const replied = (await caseEvents(receipt.code)).filter((event) => event.action === 'reporter_replied')
    expect(replied).toEqual([
      { action: 'reporter_replied', staff_id: null, detail: `message:${id} submission:${reply.submission_key}` },
    ])
  })

  it('refuses an answer to a closed case (409 case_closed) and one with a wrong pair (404)', async () => {
    const { request, receipt, key } = await newReport()
    await call('whistleblower/reports', request)
    const reply = {
      receipt_code: receipt.code,
      passphrase: receipt.passphrase,
      submission_key: randomToken(),
      sealed_body: await sealText(key, 'late'),
      attachments: [],
    }
    expect(
      (await call('whistleblower/replies', { ...reply, passphrase: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF' })).status,
    ).toBe(404)
    await setCaseState(receipt.code, 'closed')
    const closed = await call('whistleblower/replies', reply)
    expect(closed.status).toBe(409)
    expect(closed.json.code).toBe('case_closed')
    const row = (await reportRow(receipt.code))!
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM whistleblower_messages WHERE report_id = ?')
        .bind(row.id)
        .first('n'),
    ).toBe(0)
  })
})
