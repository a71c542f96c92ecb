import { Hono } from 'hono'
import type { z } from 'zod'
import {
  acknowledgeRequest,
  attachmentLocationAnswer,
  caseChangeAnswer,
  caseFileAnswer,
  openCaseListAnswer,
  caseMessageRequest,
  closedCaseListAnswer,
  closeCaseRequest,
  type notifyReporter,
} from '../../contract/staff-schemas'
import {
  type ApiContext,
  type ApiEnv,
  badParameter,
  invalid,
  jsonBody,
  notFound,
  positiveInt,
  refuse,
  respond,
} from '../context'
import { keysetParams } from '../keyset'
import { mailTexts, queueMail } from '../outbox'
import { staffOnly } from '../staff-auth'
import { conditions, keysetList } from '../staff-lists'

/** A case's columns as the console lists them (nothing the reporter wrote). */
const SUMMARY = `r.id, r.receipt_code, r.site, r.locale, r.category, r.state, r.anonymous, r.received_at, r.acknowledged_at,
  r.feedback_at, r.closed_at`

type SummaryRow = {
  id: number
  receipt_code: string
  site: string
  locale: string
  category: string
  state: string
  anonymous: number
  received_at: string
  acknowledged_at: string | null
  feedback_at: string | null
  closed_at: string | null
}

/**
 * Why the Worker reads a case besides showing it (`?for=`): to seal a message or open the reporter's address for a
 * change, or to open an attachment. The reading is recorded all the same, with its purpose as its detail.
 */
export const CASE_READ_PURPOSES = ['acknowledge', 'message', 'note', 'close', 'download'] as const

/**
 * When an open case's next deadline falls due (ISO 8601, UTC): the acknowledgement 7 days after receipt, else the
 * feedback 3 calendar months after the acknowledgement (on the month's last day when it has fewer, as the console's
 * src/whistleblower/deadlines.ts counts), else — no deadline left — the last time there is, so those come last. The
 * same expression as migration 0032's index `whistleblower_open_by_due`, which serves the list's order.
 */
const DUE = `(CASE
  WHEN acknowledged_at IS NULL THEN strftime('%Y-%m-%dT%H:%M:%fZ', received_at, '+7 days')
  WHEN feedback_at IS NULL THEN min(strftime('%Y-%m-%dT%H:%M:%fZ', acknowledged_at, '+3 months'),
    strftime('%Y-%m-%d', acknowledged_at, 'start of month', '+4 months', '-1 day') || strftime('T%H:%M:%fZ', acknowledged_at))
  ELSE '9999-12-31T23:59:59.999Z' END)`
/** How many open cases a page of their list holds. */
const OPEN_PAGE_SIZE = 25
/** How many closed cases a page of their list holds. */
const CLOSED_PAGE_SIZE = 25

const summaryOf = (row: SummaryRow) =>
  ({ ...row, anonymous: row.anonymous === 1 }) as z.input<typeof caseChangeAnswer>['data']

/**
 * The cases of the whistleblower channel, for case handlers only (`staffOnly('case_handler')`: 401 without a staff
 * token, 403 for an editor): `GET api/staff/cases`, `GET api/staff/cases/{id}`, `GET api/staff/cases/{id}/attachments/
 * {attachment}`, `POST api/staff/cases/{id}/acknowledge`, `…/messages` and `…/close`. Every read and write is recorded
 * in the case's audit trail (`case_events`: who, when, what, never the content), in the same batch as what it records;
 * a "there is news" mail to the reporter, when the Worker sends their address (`notify`, sealed), is queued in that
 * batch too.
 */
export const cases = new Hono<ApiEnv>()
  .use('/staff/cases', staffOnly('case_handler'))
  .use('/staff/cases/*', staffOnly('case_handler'))
  .get('/staff/cases', async (c) => {
    const state = c.req.query('state')
    if (state !== undefined && state !== 'closed') return badParameter(c, 'state', 'closed')
    if (state === 'closed') {
      const paging = keysetParams(c, CLOSED_PAGE_SIZE)
      if (paging instanceof Response) return paging
      const where = conditions()
      where.add("r.state = 'closed'")
      const page = await keysetList<SummaryRow>(c, paging, {
        select: `SELECT ${SUMMARY} FROM whistleblower_reports r`,
        where,
        sort: 'r.received_at',
        id: 'r.id',
        cursorOf: (row) => ({ at: row.received_at, id: row.id }),
      })
      return respond(c, closedCaseListAnswer, { data: page.data.map(summaryOf), meta: page.meta })
    }
    const paging = keysetParams(c, OPEN_PAGE_SIZE)
    if (paging instanceof Response) return paging
    const where = conditions()
    where.add("r.state != 'closed'")
    const page = await keysetList<SummaryRow & { due: string }>(c, paging, {
      select: `SELECT ${SUMMARY}, ${DUE} AS due FROM whistleblower_reports r`,
      where,
      sort: DUE,
      id: 'r.id',
      soonestFirst: true,
      cursorOf: (row) => ({ at: row.due, id: row.id }),
    })
    return respond(c, openCaseListAnswer, {
      data: page.data.map(({ due: _, ...row }) => summaryOf(row)),
      meta: page.meta,
    })
  })
  .get('/staff/cases/:id', async (c) => {
    const id = positiveInt(c.req.param('id'))
    if (!id) return notFound(c)
    const purpose = c.req.query('for')
    if (purpose !== undefined && !(CASE_READ_PURPOSES as readonly string[]).includes(purpose))
      return badParameter(c, 'for', CASE_READ_PURPOSES.join(', '))
    const db = c.env.DB
    // The reading is recorded first, in the same batch: the trail answered shows it.
    const [, report, messages, attachments, events] = await db.batch([
      db
        .prepare(
          `INSERT INTO case_events (report_id, staff_id, action, detail) SELECT id, ?2, 'opened', ?3 FROM whistleblower_reports WHERE id = ?1`,
        )
        .bind(id, c.var.staff.id, purpose ?? ''),
      db
        .prepare(
          `SELECT ${SUMMARY}, r.wrapped_key, r.sealed_report, r.sealed_notify, r.sealed_outcome FROM whistleblower_reports r WHERE r.id = ?`,
        )
        .bind(id),
      db
        .prepare(
          `SELECT m.id, m.author, s.name AS staff_name, m.sealed_body, m.created_at
           FROM whistleblower_messages m LEFT JOIN staff_users s ON s.id = m.staff_id WHERE m.report_id = ? ORDER BY m.id`,
        )
        .bind(id),
      db
        .prepare(
          'SELECT id, message_id, sealed_meta, size, created_at FROM whistleblower_files WHERE report_id = ? ORDER BY id',
        )
        .bind(id),
      db
        .prepare(
          `SELECT e.action, s.name AS staff_name, e.detail, e.at
           FROM case_events e LEFT JOIN staff_users s ON s.id = e.staff_id WHERE e.report_id = ? ORDER BY e.id`,
        )
        .bind(id),
    ])
    const row = report?.results[0] as
      | (SummaryRow &
          Record<'wrapped_key' | 'sealed_report', string> &
          Record<'sealed_notify' | 'sealed_outcome', string | null>)
      | undefined
    if (!row) return notFound(c)
    return respond(c, caseFileAnswer, {
      data: {
        ...row,
        anonymous: row.anonymous === 1,
        messages: messages?.results ?? [],
        attachments: attachments?.results ?? [],
        events: events?.results ?? [],
      } as z.input<typeof caseFileAnswer>['data'],
    })
  })
  .get('/staff/cases/:id/attachments/:attachment', async (c) => {
    const id = positiveInt(c.req.param('id'))
    const attachment = positiveInt(c.req.param('attachment'))
    if (!id || !attachment) return notFound(c)
    const db = c.env.DB
    const [, file] = await db.batch([
      db
        .prepare(
          `INSERT INTO case_events (report_id, staff_id, action, detail)
         SELECT report_id, ?3, 'file_downloaded', CAST(id AS TEXT) FROM whistleblower_files WHERE id = ?2 AND report_id = ?1`,
        )
        .bind(id, attachment, c.var.staff.id),
      db
        .prepare(
          'SELECT id, message_id, object_key, sealed_meta, size, created_at FROM whistleblower_files WHERE id = ?2 AND report_id = ?1',
        )
        .bind(id, attachment),
    ])
    const row = file?.results[0] as z.input<typeof attachmentLocationAnswer>['data'] | undefined
    return row ? respond(c, attachmentLocationAnswer, { data: row }) : notFound(c)
  })
  .post('/staff/cases/:id/acknowledge', async (c) => {
    const posted = await readChange(c, acknowledgeRequest)
    if (posted instanceof Response) return posted
    const { id, input, current } = posted
    if (current.state !== 'received')
      return refuse(c, 409, current.state === 'closed' ? 'case_closed' : 'already_acknowledged')
    const db = c.env.DB
    const now = new Date().toISOString()
    // Each statement after the change runs only if this call made it (its time is the case's acknowledged_at).
    const made = {
      when: 'EXISTS (SELECT 1 FROM whistleblower_reports WHERE id = ? AND acknowledged_at = ?)',
      params: [id, now],
    }
    await db.batch([
      db
        .prepare(
          `UPDATE whistleblower_reports SET state = 'acknowledged', acknowledged_at = ?2 WHERE id = ?1 AND state = 'received'`,
        )
        .bind(id, now),
      caseEvent(c, id, 'acknowledged', '', now, made),
      ...(await newsMail(c, current.locale, input.notify, made)),
    ])
    const after = await summary(c, id)
    if (after?.acknowledged_at !== now)
      return refuse(c, 409, after?.state === 'closed' ? 'case_closed' : 'already_acknowledged')
    return respond(c, caseChangeAnswer, { data: summaryOf(after) })
  })
  .post('/staff/cases/:id/messages', async (c) => {
    const posted = await readChange(c, caseMessageRequest)
    if (posted instanceof Response) return posted
    const { id, input, current } = posted
    const toReporter = input.author === 'handler'
    // Internal notes may still be added to a closed case (what was done after it); nothing more goes to the reporter.
    if (toReporter && current.state === 'closed') return refuse(c, 409, 'case_closed')
    const db = c.env.DB
    const staff = c.var.staff.id
    const now = new Date().toISOString()
    const open = toReporter ? `state <> 'closed'` : 'TRUE'
    const insert = db
      .prepare(
        `INSERT INTO whistleblower_messages (report_id, author, staff_id, sealed_body, created_at)
         SELECT id, ?2, ?3, ?4, ?5 FROM whistleblower_reports WHERE id = ?1 AND ${open}`,
      )
      .bind(id, input.author, staff, input.sealed_body, now)
    const mine = 'report_id = ? AND author = ? AND staff_id = ? AND created_at = ?'
    const made = {
      when: `EXISTS (SELECT 1 FROM whistleblower_messages WHERE ${mine})`,
      params: [id, input.author, staff, now],
    }
    const statements = [insert]
    if (toReporter) {
      // A message to the reporter is feedback, and acknowledges a case not acknowledged yet.
      statements.push(
        db
          .prepare(
            `UPDATE whistleblower_reports SET state = 'in_progress', acknowledged_at = COALESCE(acknowledged_at, ?2),
                    feedback_at = COALESCE(feedback_at, ?2) WHERE id = ?1 AND state <> 'closed'`,
          )
          .bind(id, now),
      )
      if (current.state === 'received') {
        const acknowledged = {
          when: 'EXISTS (SELECT 1 FROM whistleblower_reports WHERE id = ? AND acknowledged_at = ?)',
          params: [id, now],
        }
        statements.push(caseEvent(c, id, 'acknowledged', 'with_message', now, acknowledged))
      }
    }
    // Recorded with the message's id (never its words).
    statements.push(
      db
        .prepare(
          `INSERT INTO case_events (report_id, staff_id, action, detail, at)
           SELECT report_id, staff_id, ?, CAST(id AS TEXT), created_at FROM whistleblower_messages WHERE ${mine} ORDER BY id DESC LIMIT 1`,
        )
        .bind(toReporter ? 'message_sent' : 'note_added', id, input.author, staff, now),
    )
    if (toReporter) statements.push(...(await newsMail(c, current.locale, input.notify, made)))
    const [inserted] = await db.batch(statements)
    if (!inserted?.meta.changes) return refuse(c, 409, 'case_closed')
    const after = await summary(c, id)
    return after ? respond(c, caseChangeAnswer, { data: summaryOf(after) }, 201) : notFound(c)
  })
  .post('/staff/cases/:id/close', async (c) => {
    const posted = await readChange(c, closeCaseRequest)
    if (posted instanceof Response) return posted
    const { id, input, current } = posted
    if (current.state === 'closed') return refuse(c, 409, 'case_closed')
    const db = c.env.DB
    const now = new Date().toISOString()
    const made = {
      when: 'EXISTS (SELECT 1 FROM whistleblower_reports WHERE id = ? AND closed_at = ?)',
      params: [id, now],
    }
    await db.batch([
      db
        .prepare(
          `UPDATE whistleblower_reports SET state = 'closed', closed_at = ?2, sealed_outcome = ?3, feedback_at = COALESCE(feedback_at, ?2),
                  acknowledged_at = COALESCE(acknowledged_at, ?2)
            WHERE id = ?1 AND state <> 'closed'`,
        )
        .bind(id, now, input.sealed_outcome),
      // The outcome tells the reporter their report arrived: a case closed unacknowledged is acknowledged with it.
      ...(current.state === 'received' ? [caseEvent(c, id, 'acknowledged', 'with_outcome', now, made)] : []),
      caseEvent(c, id, 'closed', '', now, made),
      ...(await newsMail(c, current.locale, input.notify, made)),
    ])
    const after = await summary(c, id)
    if (after?.closed_at !== now) return refuse(c, 409, 'case_closed')
    return respond(c, caseChangeAnswer, { data: summaryOf(after) })
  })

/** A case's summary, or null. */
const summary = (c: ApiContext, id: number) =>
  c.env.DB.prepare(`SELECT ${SUMMARY} FROM whistleblower_reports r WHERE r.id = ?`).bind(id).first<SummaryRow>()

/** A change's case (404 when there is none) and its body checked by its schema (422). */
async function readChange<S extends z.ZodType>(
  c: ApiContext,
  schema: S,
): Promise<Response | { id: number; input: z.infer<S>; current: SummaryRow }> {
  const id = positiveInt(c.req.param('id'))
  const current = id ? await summary(c, id) : null
  if (!id || !current) return notFound(c)
  const parsed = schema.safeParse(await jsonBody(c))
  if (!parsed.success) return invalid(c, parsed.error)
  return { id, input: parsed.data, current }
}

type Condition = { when: string; params: unknown[] }

/** The statement recording a handler's action on a case, when its condition holds (the change was made). */
function caseEvent(
  c: ApiContext,
  id: number,
  action: string,
  detail: string,
  at: string,
  only: Condition,
): D1PreparedStatement {
  return c.env.DB.prepare(
    `INSERT INTO case_events (report_id, staff_id, action, detail, at) SELECT ?, ?, ?, ?, ? WHERE ${only.when}`,
  ).bind(id, c.var.staff.id, action, detail, at, ...only.params)
}

/**
 * The "there is news" mail to a reporter who left an address, in the report's language: it names the status page and
 * nothing of the case (a mailbox is not a safe place for it). Its recipient is the address as the Worker sealed it for
 * the mail sender, which opens it when it sends the mail and then deletes the row (docs/decisions/027).
 */
async function newsMail(
  c: ApiContext,
  locale: string,
  notify: z.infer<typeof notifyReporter>,
  only: Condition,
): Promise<D1PreparedStatement[]> {
  if (!notify) return []
  const t = await mailTexts(c.env.DB, locale, ['mail.whistleblower_news_', 'mail.open_link'])
  const mail = {
    recipient: notify.sealed_recipient,
    subject: t('mail.whistleblower_news_subject'),
    body: t('mail.whistleblower_news_body', { link: notify.status_url }),
    kind: 'whistleblower_news',
    locale,
    linkLabel: t('mail.open_link'),
  }
  return [queueMail(c.env.DB, mail, only)]
}
