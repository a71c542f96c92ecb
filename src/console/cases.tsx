import { type Context, Hono } from 'hono'
import type { ReactNode } from 'react'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { logEvent } from '../ops/log'
import { sendRedirect } from '../render/respond'
import { acceptBodiesUpTo } from '../security/unsafe-requests'
import { type CaseCalls, type CaseReadPurpose, caseCalls } from '../upstream/contract/cases'
import { unlessRefused } from '../upstream/errors'
import { valueErrors } from '../upstream/fields'
import type { CaseEvent, CaseFile, CaseSummary } from '../upstream/staff-schemas'
import { ATTACHMENT_KEY_FORMAT, type CaseState, messageText, type ReportCategory } from '../upstream/whistleblower-schemas'
import { byDeadline, type CaseDeadlines, caseDeadlines, type Deadline } from '../whistleblower/deadlines'
import { notifyOf, type OpenedAttachment, type OpenedCase, openAttachment, openCaseFile, sealForCase, UnreadableCase } from '../whistleblower/case-file'
import { DataTable, Day, DefinitionList, Flash, Time, Written } from './components'
import { consoleGate } from './guard'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/**
 * The console's cases (case handlers only; issue 10 item 6): the list ordered by the Directive's deadlines, a case
 * opened at the edge with its attachments (downloaded, never shown), the conversation with the reporter, internal
 * notes, acknowledge, write, close, and the case's audit trail. Every reading and change is recorded upstream
 * (docs/api.md "Staff console: cases"); what a handler writes is sealed here with the case's own key.
 */

export const CASES_PATH = sectionPath('cases')
const casePath = (id: number) => `${CASES_PATH}/${id}`

/** The largest form a case accepts: a message of 10,000 characters, each up to 4 UTF-8 bytes, percent-encoded. */
export const CASE_FORM_BYTES = 128 * 1024

export const CATEGORY_LABELS: Record<ReportCategory, string> = {
  fraud_corruption: 'Fraud or corruption',
  product_safety: 'Product safety',
  environment: 'Environment',
  data_protection: 'Data protection',
  harassment_discrimination: 'Harassment or discrimination',
  other: 'Other',
}

export const STATE_LABELS: Record<CaseState, string> = {
  received: 'Received',
  acknowledged: 'Acknowledged',
  in_progress: 'In progress',
  closed: 'Closed',
}

/** What a flash after an action says (`?done=`), and after a refusal (`?refused=`). */
const DONE: Record<string, string> = {
  acknowledged: 'The case is acknowledged. The reporter sees it on the status page.',
  message_sent: 'Your message is on its way to the reporter: they read it on the status page.',
  note_added: 'The note is added. The reporter never sees it.',
  closed: 'The case is closed. The reporter sees the outcome on the status page.',
}
const REFUSED: Record<string, string> = {
  case_closed: 'The case is already closed: nothing more can be sent to the reporter.',
  already_acknowledged: 'The case was already acknowledged.',
}

/** Case handlers only: anyone else is sent to sign in, or shown the 403 page (src/console/guard.ts). */
const handlersOnly = consoleGate('case_handler')

/** The cases section, mounted at `/_console/cases`. A form's body limit comes before the guard: too large is a 413 for anyone. */
export const cases = new Hono<AppEnv>()
  .get('/', handlersOnly, casesPage)
  .get('/:id', handlersOnly, casePage)
  .get('/:id/attachments/:attachment', handlersOnly, downloadAttachment)
  .post('/:id/acknowledge', handlersOnly, acknowledgeCase)
  .post('/:id/messages', acceptBodiesUpTo(CASE_FORM_BYTES), handlersOnly, writeToReporter)
  .post('/:id/notes', acceptBodiesUpTo(CASE_FORM_BYTES), handlersOnly, addNote)
  .post('/:id/close', acceptBodiesUpTo(CASE_FORM_BYTES), handlersOnly, closeCase)

const callsOf = (c: Context<AppEnv>): CaseCalls => caseCalls(c.var.staffApi)

/** A case id of the path, or a 404. */
function caseId(c: Context<AppEnv>, name = 'id'): number {
  const value = c.req.param(name) ?? ''
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw PageError.notFound('')
  return Number(value)
}

/** The secret that opens cases; without it the console cannot open one (503, logged). */
function secretOf(c: Context<AppEnv>): string {
  const secret = c.env.WHISTLEBLOWER_KEY
  if (!secret) {
    logEvent('error', 'whistleblower_key_missing')
    throw PageError.maintenance()
  }
  return secret
}

/** A case file read for a purpose (404 when there is none). */
async function fileOf(c: Context<AppEnv>, id: number, purpose?: CaseReadPurpose): Promise<CaseFile> {
  const file = await callsOf(c).file(id, purpose)
  if (!file) throw PageError.notFound('')
  return file
}

/** A case that cannot be opened (another WHISTLEBLOWER_KEY, altered data) answers 503 and is logged, never a 500. */
async function opened<T>(work: Promise<T>, id: number): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (!(error instanceof UnreadableCase)) throw error
    logEvent('error', 'case_unreadable', { case: id })
    throw PageError.maintenance()
  }
}

// The list

/** `GET /_console/cases`: every case, overdue ones first, then by the next deadline; closed ones last. */
export async function casesPage(c: Context<AppEnv>): Promise<Response> {
  const now = new Date()
  const ordered = byDeadline(await callsOf(c).list(), now)
  const overdue = ordered.filter((each) => each.deadlines.overdue).length
  return sendConsolePage(c, {
    title: 'Cases',
    body: (
      <>
        <p className="hint cases-intro">
          The Directive's deadlines: acknowledge a report within 7 days of receiving it; give feedback within 3 months of the acknowledgement. Open cases
          with a deadline passed come first.
        </p>
        {overdue > 0 && <Flash tone="error">{overdue === 1 ? '1 case is overdue.' : `${overdue} cases are overdue.`}</Flash>}
        <DataTable
          caption="Cases, overdue first, then by next deadline"
          empty="No reports have come in."
          head={['Receipt code', 'Market', 'Category', 'State', 'Received', 'Acknowledgement', 'Feedback']}
          rows={ordered.map((each) => ({
            key: each.id,
            cells: [
              <>
                <a href={casePath(each.id)}>
                  <code>{each.receipt_code}</code>
                </a>
                {each.deadlines.overdue && (
                  <>
                    {' '}
                    <span className="badge error">Overdue</span>
                  </>
                )}
              </>,
              marketOf(each),
              CATEGORY_LABELS[each.category],
              <StateBadge state={each.state} />,
              <Day at={each.received_at} />,
              <DeadlineCell deadline={each.deadlines.acknowledgement} closed={each.state === 'closed'} />,
              <DeadlineCell deadline={each.deadlines.feedback} closed={each.state === 'closed'} />,
            ],
          }))}
        />
      </>
    ),
  })
}

const marketOf = (summary: Pick<CaseSummary, 'site' | 'locale'>) => `${summary.site}-${summary.locale}`

function StateBadge({ state }: { state: CaseState }) {
  const tone = state === 'closed' ? '' : state === 'received' ? ' warn' : ' ok'
  return <span className={`badge${tone}`}>{STATE_LABELS[state]}</span>
}

/**
 * A deadline as the list and the case show it: met (and when, late or not), due (its day only: the acknowledgement's
 * due time is the receipt's to the minute plus 7 days), overdue.
 */
function DeadlineCell({ deadline, closed }: { deadline: Deadline; closed: boolean }) {
  if (deadline.met) {
    return (
      <>
        Met <Time at={deadline.met} />
        {deadline.late && (
          <>
            {' '}
            <span className="badge warn">Late</span>
          </>
        )}
      </>
    )
  }
  if (closed) return <>Not given</>
  return (
    <>
      Due <Day at={deadline.due} />
      {deadline.overdue && (
        <>
          {' '}
          <span className="badge error">Overdue</span>
        </>
      )}
    </>
  )
}

// One case

type Draft = { form: 'message' | 'note' | 'close'; text: string; errors: string[] }

/** What a field's message keys say (the console speaks English). */
const FIELD_MESSAGES: Record<string, string> = {
  required: 'Write something first.',
  too_long: 'This is too long: at most 10,000 characters.',
}

/** `GET /_console/cases/{id}`: the case opened (recorded upstream as `opened`). */
export function casePage(c: Context<AppEnv>): Promise<Response> {
  return showCase(c)
}

/** The case page, or (with a draft that was refused) the page again with the text and its messages, 422. */
async function showCase(c: Context<AppEnv>, draft?: Draft): Promise<Response> {
  const id = caseId(c)
  const file = await fileOf(c, id)
  const kase = await opened(openCaseFile(secretOf(c), file), id)
  const url = new URL(c.req.url)
  const done = draft ? undefined : DONE[url.searchParams.get('done') ?? '']
  const refused = draft ? undefined : REFUSED[url.searchParams.get('refused') ?? '']
  return sendConsolePage(c, {
    title: `Case ${file.receipt_code}`,
    status: draft ? 422 : 200,
    body: <CaseView kase={kase} deadlines={caseDeadlines(kase, new Date())} done={done} refused={refused} draft={draft} />,
  })
}

function CaseView({ kase, deadlines, done, refused, draft }: { kase: OpenedCase; deadlines: CaseDeadlines; done?: string; refused?: string; draft?: Draft }) {
  const closed = kase.state === 'closed'
  const byMessage = (messageId: number | null) => kase.attachments.filter((each) => each.message_id === messageId)
  const conversation = kase.messages.filter((each) => each.author !== 'note')
  const notes = kase.messages.filter((each) => each.author === 'note')
  const draftOf = (form: Draft['form']) => (draft?.form === form ? draft : undefined)
  return (
    <>
      {done && <Flash>{done}</Flash>}
      {refused && <Flash tone="error">{refused}</Flash>}
      {draft && <Flash tone="error">Your text was not sent: see below.</Flash>}
      <p>
        <a href={CASES_PATH}>All cases</a>
      </p>
      <DefinitionList
        items={[
          ['State', <StateBadge state={kase.state} />],
          ['Market', marketOf(kase)],
          ['Category', CATEGORY_LABELS[kase.category]],
          ['Received', <Day at={kase.received_at} />],
          ['Acknowledgement', <DeadlineCell deadline={deadlines.acknowledgement} closed={closed} />],
          ['Feedback', <DeadlineCell deadline={deadlines.feedback} closed={closed} />],
          ...(closed ? ([['Closed', <Time at={kase.closed_at} />]] as Array<[string, ReactNode]>) : []),
        ]}
      />
      {kase.state === 'received' && (
        <section aria-labelledby="acknowledge">
          <h2 id="acknowledge">Acknowledge</h2>
          <p className="hint cases-intro">
            Tells the reporter on the status page that the report was received and is being looked at
            {kase.notifyEmail ? ', and mails them that there is news (nothing more).' : '. They left no address: they see it when they next look.'}
          </p>
          <form className="button-form" method="post" action={`${casePath(kase.id)}/acknowledge`}>
            <button type="submit" className="button primary">
              Acknowledge receipt
            </button>
          </form>
        </section>
      )}

      <section aria-labelledby="report">
        <h2 id="report">Report</h2>
        <DefinitionList
          items={[
            ['What happened', <Text>{kase.report.what}</Text>],
            ['When and where', <Text>{kase.report.when_where}</Text>],
            ['Who is involved', kase.report.involved ? <Text>{kase.report.involved}</Text> : null],
            ['Reporter', kase.anonymous ? 'Anonymous' : <Text>{kase.report.name ?? ''}</Text>],
            ...(kase.anonymous ? [] : ([['How to contact them', kase.report.contact ? <Text>{kase.report.contact}</Text> : null]] as Array<[string, ReactNode]>)),
            ['News by mail', kase.notifyEmail ? 'Yes: they left an address for mails that say only that there is news' : 'No address left'],
          ]}
        />
        <Attachments id={kase.id} attachments={byMessage(null)} title="Attachments with the report" />
      </section>

      <section aria-labelledby="conversation">
        <h2 id="conversation">Conversation with the reporter</h2>
        {conversation.length === 0 ? (
          <p className="empty">No messages yet.</p>
        ) : (
          <ol className="messages">
            {conversation.map((message) => (
              <li key={message.id} className={`message from-${message.author}`}>
                <p className="message-head">
                  <strong>{message.author === 'reporter' ? 'Reporter' : `${message.staff_name ?? 'Case handler'}, to the reporter`}</strong> ·{' '}
                  {message.author === 'reporter' ? <Day at={message.created_at} /> : <Time at={message.created_at} />}
                </p>
                <Text>{message.body}</Text>
                <Attachments id={kase.id} attachments={byMessage(message.id)} title="Attachments" />
              </li>
            ))}
          </ol>
        )}
        {closed ? (
          <p className="hint">The case is closed: nothing more can be sent to the reporter.</p>
        ) : (
          <TextForm
            action={`${casePath(kase.id)}/messages`}
            name="message"
            label="Write to the reporter"
            hint={`They read it on the status page with their receipt code and passphrase${kase.notifyEmail ? ', and get a mail that says only that there is news' : ''}. ${kase.state === 'received' ? 'Writing acknowledges the case too.' : ''}`}
            button="Send to the reporter"
            draft={draftOf('message')}
          />
        )}
      </section>

      <section aria-labelledby="notes">
        <h2 id="notes">Internal notes</h2>
        <p className="hint cases-intro">For case handlers only: the reporter never sees them.</p>
        {notes.length === 0 ? (
          <p className="empty">No notes yet.</p>
        ) : (
          <ol className="messages">
            {notes.map((note) => (
              <li key={note.id} className="message from-note">
                <p className="message-head">
                  <strong>{note.staff_name ?? 'Case handler'}</strong> · <Time at={note.created_at} />
                </p>
                <Text>{note.body}</Text>
              </li>
            ))}
          </ol>
        )}
        <TextForm action={`${casePath(kase.id)}/notes`} name="note" label="Add a note" button="Add the note" draft={draftOf('note')} />
      </section>

      <section aria-labelledby="outcome">
        <h2 id="outcome">Outcome</h2>
        {closed ? (
          <Text>{kase.outcome ?? ''}</Text>
        ) : (
          <TextForm
            action={`${casePath(kase.id)}/close`}
            name="outcome"
            label="Close the case with this outcome"
            hint="The reporter reads the outcome on the status page. A closed case takes no more messages."
            button="Close the case"
            tone="danger"
            draft={draftOf('close')}
          />
        )}
      </section>

      <section aria-labelledby="trail">
        <h2 id="trail">Audit trail</h2>
        <DataTable
          caption="Every reading and change of this case"
          head={['When', 'Who', 'What']}
          rows={kase.events.map((event, index) => ({
            key: index,
            cells: [REPORTER_ACTIONS.has(event.action) ? <Day at={event.at} /> : <Time at={event.at} />, event.staff_name ?? 'Reporter', eventText(event, kase)],
          }))}
        />
      </section>
    </>
  )
}

/** What a handler or the reporter wrote: kept as written (line breaks), in its own direction (an Arabic report). */
const Text = ({ children }: { children: string }) => (
  <div className="text" dir="auto">
    {children}
  </div>
)

function Attachments({ id, attachments, title }: { id: number; attachments: OpenedAttachment[]; title: string }) {
  if (attachments.length === 0) return null
  return (
    <div className="attachments">
      <h3>{title}</h3>
      <ul>
        {attachments.map((attachment) => (
          <li key={attachment.id}>
            <a href={`${casePath(id)}/attachments/${attachment.id}`} download={attachment.name}>
              <Written>{attachment.name}</Written>
            </a>{' '}
            <span className="hint">
              ({attachment.type || 'unknown type'}, {kilobytes(attachment.size)}; downloaded, never shown here)
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}

const kilobytes = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`)

function TextForm({
  action,
  name,
  label,
  hint,
  button,
  tone = 'primary',
  draft,
}: { action: string; name: string; label: string; hint?: string; button: string; tone?: 'primary' | 'danger'; draft?: Draft }) {
  const id = `field-${name}`
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const described = [draft?.errors.length ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <form className="text-form" method="post" action={action}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {hint && (
          <p className="hint" id={hintId}>
            {hint}
          </p>
        )}
        {draft?.errors.length ? (
          <p className="field-error" id={errorId}>
            {draft.errors.map((key) => FIELD_MESSAGES[key] ?? 'Check this text.').join(' ')}
          </p>
        ) : null}
        <textarea id={id} name="text" rows={5} required aria-invalid={draft?.errors.length ? true : undefined} aria-describedby={described} defaultValue={draft?.text ?? ''} />
      </div>
      <button type="submit" className={`button ${tone}`}>
        {button}
      </button>
    </form>
  )
}

/**
 * The trail's entries of the reporter's own actions: shown by UTC day only, like the report's receipt and their
 * messages, so that no handler can match them to the minute against network logs (the Directive protects the
 * reporter's identity). Handlers' own actions keep their time.
 */
const REPORTER_ACTIONS: ReadonlySet<CaseEvent['action']> = new Set(['received', 'reporter_opened', 'reporter_replied'])

/** Why the Worker read a case, as the trail says it. */
const PURPOSES: Record<string, string> = {
  acknowledge: 'to acknowledge it',
  message: 'to write to the reporter',
  note: 'to add a note',
  close: 'to close it',
  download: 'to download an attachment',
}

/** One event of the trail in words (its detail: an id or a purpose, never content). */
function eventText(event: CaseEvent, kase: OpenedCase): ReactNode {
  switch (event.action) {
    case 'received':
      return 'Sent the report'
    case 'reporter_opened':
      return 'Opened the status page'
    case 'reporter_replied': {
      // The API's detail: `message:<id>` (and the answer form's random key, which says nothing to a handler).
      const message = /message:([0-9]+)/.exec(event.detail)?.[1]
      return message ? `Answered (message ${message})` : 'Answered'
    }
    case 'opened':
      return PURPOSES[event.detail] ? `Opened the case ${PURPOSES[event.detail]}` : 'Opened the case'
    case 'file_downloaded': {
      const file = kase.attachments.find((each) => String(each.id) === event.detail)
      return file ? <>{`Downloaded attachment ${event.detail} (`}<Written>{file.name}</Written>)</> : `Downloaded attachment ${event.detail}`
    }
    case 'acknowledged':
      if (event.detail === 'with_message') return 'Acknowledged the case by writing to the reporter'
      return event.detail === 'with_outcome' ? 'Acknowledged the case by closing it' : 'Acknowledged the case'
    case 'message_sent':
      return `Wrote to the reporter (message ${event.detail})`
    case 'note_added':
      return `Added an internal note (note ${event.detail})`
    case 'closed':
      return 'Closed the case with an outcome'
  }
}

// Attachments

/**
 * `GET /_console/cases/{id}/attachments/{attachment}`: the attachment opened and answered as a download (recorded
 * upstream as `file_downloaded`): its sealed name, `application/octet-stream` (what the reporter said it is is not
 * trusted), never inline, never kept.
 */
export async function downloadAttachment(c: Context<AppEnv>): Promise<Response> {
  const id = caseId(c)
  const attachmentId = caseId(c, 'attachment')
  const secret = secretOf(c)
  const calls = callsOf(c)
  const location = await calls.attachment(id, attachmentId)
  if (!location) throw PageError.notFound('')
  // Only a whistleblower attachment's key is read from the bucket (never a CV's, whatever an API answers).
  if (!ATTACHMENT_KEY_FORMAT.test(location.object_key)) {
    logEvent('error', 'attachment_key_invalid', { case: id, attachment: attachmentId })
    throw PageError.notFound('')
  }
  const file = await fileOf(c, id, 'download')
  const object = await c.env.FILES.get(location.object_key)
  if (!object) {
    logEvent('error', 'attachment_missing', { case: id, attachment: attachmentId })
    throw PageError.notFound('')
  }
  const { name, bytes } = await opened(openAttachment(secret, file, location, new Uint8Array(await object.arrayBuffer())), id)
  return c.body(bytes, 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': contentDisposition(name),
    'Content-Length': String(bytes.length),
  })
}

/** The most characters (code points, not UTF-16 units) of a download's name. */
const NAME_CODE_POINTS = 200

/**
 * `attachment` with an ASCII fallback name and the real one in UTF-8 (RFC 6266, RFC 8187), for any name a reporter
 * sealed: control characters (CR/LF included), slashes and lone surrogates (a code point of one UTF-16
 * unit in that range) become `_`, so `encodeURIComponent` cannot throw; the name is cut by code points, never inside a
 * surrogate pair.
 */
export function contentDisposition(name: string): string {
  const clean =
    [...name]
      .slice(0, NAME_CODE_POINTS)
      .map((point) => (/^[\u0000-\u001f\u007f-\u009f/\\\ud800-\udfff]$/.test(point) ? '_' : point))
      .join('') || 'attachment'
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_')
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

// Changes

/** `POST /_console/cases/{id}/acknowledge`. */
export async function acknowledgeCase(c: Context<AppEnv>): Promise<Response> {
  const id = caseId(c)
  const file = await fileOf(c, id, 'acknowledge')
  const notify = await notifyFor(c, file)
  const { refused } = await unlessRefused(callsOf(c).acknowledge(id, notify), [409])
  return backToCase(c, id, refused ? { refused: refused.rejection.code ?? 'already_acknowledged' } : { done: 'acknowledged' })
}

/** `POST /_console/cases/{id}/messages`: a message to the reporter, sealed. */
export function writeToReporter(c: Context<AppEnv>): Promise<Response> {
  return write(c, 'message')
}

/** `POST /_console/cases/{id}/notes`: an internal note, sealed. */
export function addNote(c: Context<AppEnv>): Promise<Response> {
  return write(c, 'note')
}

/** `POST /_console/cases/{id}/close`: the outcome, sealed. */
export function closeCase(c: Context<AppEnv>): Promise<Response> {
  return write(c, 'close')
}

async function write(c: Context<AppEnv>, form: Draft['form']): Promise<Response> {
  const id = caseId(c)
  const typed = (await readForm(c)).text ?? ''
  const text = messageText.safeParse(typed)
  if (!text.success) return showCase(c, { form, text: typed, errors: valueErrors(text.error) })
  const secret = secretOf(c)
  const file = await fileOf(c, id, form)
  const sealed = await opened(sealForCase(secret, file, text.data), id)
  const calls = callsOf(c)
  if (form === 'note') {
    await calls.write(id, { author: 'note', sealed_body: sealed, notify: null })
    return backToCase(c, id, { done: 'note_added' }, '#notes')
  }
  const notify = await notifyFor(c, file)
  const { refused } = await unlessRefused(
    form === 'message' ? calls.write(id, { author: 'handler', sealed_body: sealed, notify }) : calls.close(id, { sealed_outcome: sealed, notify }),
    [409],
  )
  if (refused) return backToCase(c, id, { refused: refused.rejection.code ?? 'case_closed' })
  return backToCase(c, id, { done: form === 'message' ? 'message_sent' : 'closed' }, form === 'message' ? '#conversation' : '')
}

/** The reporter's address and status page for a "there is news" mail, or null; 503 without a public origin to link. */
async function notifyFor(c: Context<AppEnv>, file: CaseFile) {
  const origin = configOf(c.env).publicOrigin
  if (file.sealed_notify && !origin) throw PageError.maintenance()
  return opened(notifyOf(secretOf(c), origin, file), file.id)
}

/** 303 back to the case with a flash. */
function backToCase(c: Context<AppEnv>, id: number, flash: { done: string } | { refused: string }, anchor = ''): Response {
  const [name, value] = Object.entries(flash)[0] as [string, string]
  return sendRedirect(c, `${casePath(id)}?${name}=${encodeURIComponent(value)}${anchor}`, 303)
}
