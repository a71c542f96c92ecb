import { Hono } from 'hono'
import { siteSettingsSchema } from '../../contract/schemas'
import {
  type CaseKey,
  caseKeyRequest,
  newReportAnswer,
  newReportRequest,
  replyAnswer,
  replyRequest,
  reporterCaseAnswer,
} from '../../contract/whistleblower-schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, parseJson, refuse, respond } from '../context'
import { hashPassword, verifyPassword } from '../passwords'

type CaseRow = {
  id: number
  receipt_code: string
  passphrase_hash: string
  category: string
  state: string
  received_at: string
  acknowledged_at: string | null
  closed_at: string | null
  wrapped_key: string
  sealed_report: string
  sealed_outcome: string | null
}

/**
 * The reporter's side of the whistleblower channel (docs/api.md "Whistleblower channel"), for the caller's market
 * (`X-Tenant`): a new report, a case opened with its receipt code and passphrase, and the reporter's answers. Every text
 * arrives sealed by the Worker and is stored as it is; only the passphrase's slow hash is kept. A wrong passphrase and
 * an unknown receipt code answer the same 404 after the same work (one read, one PBKDF2). The reporter's reads and
 * writes are recorded in `case_events` (staff_id null).
 */
export const whistleblower = new Hono<ApiEnv>()
  .post('/whistleblower/reports', async (c) => {
    const site = await siteOf(c)
    if (!site) return notFound(c)
    const parsed = newReportRequest.safeParse(await jsonBody(c))
    if (!parsed.success) return invalid(c, parsed.error)
    const report = parsed.data
    if (report.anonymous && !site.settings.whistleblower_anonymous)
      return refuse(c, 422, 'anonymous_not_allowed', 'anonymous')
    const db = c.env.DB
    const first = await storedReceipt(c, report.submission_key)
    if (first) return respond(c, newReportAnswer, { data: { receipt_code: first, created: false } })
    // This call's own row, whatever another call with the same key does at the same time: its salted hash is unique.
    const hash = await hashPassword(report.passphrase)
    const ours = `SELECT id FROM whistleblower_reports WHERE submission_key = ?1 AND passphrase_hash = ?2`
    await db.batch([
      db
        .prepare(
          `INSERT INTO whistleblower_reports
             (receipt_code, submission_key, passphrase_hash, site, locale, category, anonymous, wrapped_key, sealed_report, sealed_notify)
           VALUES (?3, ?1, ?2, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT DO NOTHING`,
        )
        .bind(
          report.submission_key,
          hash,
          report.receipt_code,
          site.slug,
          c.var.locale,
          report.category,
          report.anonymous ? 1 : 0,
          report.wrapped_key,
          report.sealed_report,
          report.sealed_notify,
        ),
      ...report.attachments.map((file) =>
        db
          .prepare(
            `INSERT INTO whistleblower_files (report_id, object_key, sealed_meta, size) SELECT id, ?3, ?4, ?5 FROM (${ours})`,
          )
          .bind(report.submission_key, hash, file.object_key, file.sealed_meta, file.size),
      ),
      db
        .prepare(`INSERT INTO case_events (report_id, action) SELECT id, 'received' FROM (${ours})`)
        .bind(report.submission_key, hash),
    ])
    const stored = await db
      .prepare('SELECT receipt_code, passphrase_hash FROM whistleblower_reports WHERE submission_key = ?')
      .bind(report.submission_key)
      .first<{ receipt_code: string; passphrase_hash: string }>()
    // Neither this key nor this code: the code was another report's (80 random bits: never, in practice).
    if (!stored) return refuse(c, 409, 'receipt_code_taken')
    const created = stored.passphrase_hash === hash
    return respond(c, newReportAnswer, { data: { receipt_code: stored.receipt_code, created } }, created ? 201 : 200)
  })
  .post('/whistleblower/status', async (c) => {
    if (!(await siteOf(c))) return notFound(c)
    const parsed = caseKeyRequest.safeParse(await jsonBody(c))
    if (!parsed.success) return invalid(c, parsed.error)
    const found = await openCase(c, parsed.data)
    if (!found) return notFound(c)
    // Not recorded: when a reporter looks would help single them out (docs/decisions/015).
    return respond(c, reporterCaseAnswer, { data: await reporterView(c, found) })
  })
  .post('/whistleblower/replies', async (c) => {
    if (!(await siteOf(c))) return notFound(c)
    const parsed = replyRequest.safeParse(await jsonBody(c))
    if (!parsed.success) return invalid(c, parsed.error)
    const reply = parsed.data
    const found = await openCase(c, reply)
    if (!found) return notFound(c)
    if (found.state === 'closed') return refuse(c, 409, 'case_closed')
    const db = c.env.DB
    const submission = `submission:${reply.submission_key}`
    const ours = 'SELECT id FROM whistleblower_messages WHERE report_id = ?1 AND sealed_body = ?2'
    // One message per submission key (recorded in its event); this call's row is the one with its sealed body (a
    // fresh IV each sealing). Answering the reporter does not change the case's state.
    await db.batch([
      db
        .prepare(
          `INSERT INTO whistleblower_messages (report_id, author, sealed_body)
           SELECT ?1, 'reporter', ?2
            WHERE NOT EXISTS (SELECT 1 FROM case_events WHERE report_id = ?1 AND action = 'reporter_replied' AND instr(detail, ?3) > 0)`,
        )
        .bind(found.id, reply.sealed_body, submission),
      ...reply.attachments.map((file) =>
        db
          .prepare(
            `INSERT INTO whistleblower_files (report_id, message_id, object_key, sealed_meta, size) SELECT ?1, id, ?3, ?4, ?5 FROM (${ours})`,
          )
          .bind(found.id, reply.sealed_body, file.object_key, file.sealed_meta, file.size),
      ),
      db
        .prepare(
          `INSERT INTO case_events (report_id, action, detail) SELECT ?1, 'reporter_replied', 'message:' || id || ' ' || ?3 FROM (${ours})`,
        )
        .bind(found.id, reply.sealed_body, submission),
    ])
    const created = await db.prepare(ours).bind(found.id, reply.sealed_body).first<number>('id')
    return respond(c, replyAnswer, { data: { created: created !== null } }, created !== null ? 201 : 200)
  })

/** The caller's market (`X-Tenant`) with its settings, or null when there is none. */
async function siteOf(c: ApiContext) {
  if (!c.var.tenant) return null
  const row = await c.env.DB.prepare('SELECT slug, settings FROM sites WHERE slug = ?')
    .bind(c.var.tenant)
    .first<{ slug: string; settings: string }>()
  if (!row) return null
  return {
    slug: row.slug,
    settings: siteSettingsSchema.safeParse(parseJson(row.settings, {})).data ?? siteSettingsSchema.parse({}),
  }
}

/** The receipt code of the report stored with this submission key, or null. */
const storedReceipt = (c: ApiContext, submissionKey: string) =>
  c.env.DB.prepare('SELECT receipt_code FROM whistleblower_reports WHERE submission_key = ?')
    .bind(submissionKey)
    .first<string>('receipt_code')

/**
 * The case of a receipt code when the passphrase is its own; null otherwise. An unknown code costs the same PBKDF2 as
 * a known one (`verifyPassword(…, null)`), so the answer's time does not tell them apart.
 */
async function openCase(c: ApiContext, key: CaseKey): Promise<CaseRow | null> {
  const row = await c.env.DB.prepare(
    `SELECT id, receipt_code, passphrase_hash, category, state, received_at, acknowledged_at, closed_at, wrapped_key, sealed_report, sealed_outcome
       FROM whistleblower_reports WHERE receipt_code = ?`,
  )
    .bind(key.receipt_code)
    .first<CaseRow>()
  const good = await verifyPassword(key.passphrase, row?.passphrase_hash ?? null)
  return good && row ? row : null
}

/** What the reporter sees of a case: the report, the messages to and from them (never notes, never staff names), the files. */
async function reporterView(c: ApiContext, row: CaseRow) {
  const db = c.env.DB
  const [messages, files] = await Promise.all([
    db
      .prepare(
        `SELECT id, author, sealed_body, created_at FROM whistleblower_messages WHERE report_id = ? AND author IN ('reporter', 'handler') ORDER BY id`,
      )
      .bind(row.id)
      .all<{ id: number; author: 'reporter' | 'handler'; sealed_body: string; created_at: string }>(),
    db
      .prepare(
        `SELECT f.id, f.message_id, f.sealed_meta, f.size, f.created_at FROM whistleblower_files f
           LEFT JOIN whistleblower_messages m ON m.id = f.message_id
          WHERE f.report_id = ? AND (f.message_id IS NULL OR m.author IN ('reporter', 'handler')) ORDER BY f.id`,
      )
      .bind(row.id)
      .all<{ id: number; message_id: number | null; sealed_meta: string; size: number; created_at: string }>(),
  ])
  return {
    receipt_code: row.receipt_code,
    category: row.category as never,
    state: row.state as never,
    received_at: row.received_at,
    acknowledged_at: row.acknowledged_at,
    closed_at: row.closed_at,
    wrapped_key: row.wrapped_key,
    sealed_report: row.sealed_report,
    sealed_outcome: row.state === 'closed' ? row.sealed_outcome : null,
    messages: messages.results,
    attachments: files.results,
  }
}
