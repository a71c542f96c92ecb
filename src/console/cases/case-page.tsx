import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AppEnv } from '../../env'
import type { CaseEvent } from '../../../contract/staff-schemas'
import { type CaseDeadlines, caseDeadlines } from '../../whistleblower/deadlines'
import { type OpenedAttachment, type OpenedCase, openCaseFile } from '../../whistleblower/case-file'
import { DataTable, Day, DefinitionList, Flash, Time, Written } from '../components'
import { sendConsolePage } from '../page'
import { CASES_PATH, caseId, casePath, fileOf, opened, caseKeyring } from './case-access'
import { CATEGORY_LABELS, DeadlineCell, marketOf, StateBadge } from './case-parts'

/** One case, opened at the edge: its report, deadlines, conversation, notes, attachments and trail, and its forms. */

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

/** A text a handler wrote that was refused, shown again with its messages. */
export type Draft = { form: 'message' | 'note' | 'close'; text: string; errors: string[] }

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
export async function showCase(c: Context<AppEnv>, draft?: Draft): Promise<Response> {
  const id = caseId(c)
  const file = await fileOf(c, id)
  const kase = await opened(openCaseFile(caseKeyring(c), file), id)
  const url = new URL(c.req.url)
  const done = draft ? undefined : DONE[url.searchParams.get('done') ?? '']
  const refused = draft ? undefined : REFUSED[url.searchParams.get('refused') ?? '']
  return sendConsolePage(c, {
    title: `Case ${file.receipt_code}`,
    status: draft ? 422 : 200,
    body: (
      <CaseView kase={kase} deadlines={caseDeadlines(kase, new Date())} done={done} refused={refused} draft={draft} />
    ),
  })
}

function CaseView({
  kase,
  deadlines,
  done,
  refused,
  draft,
}: {
  kase: OpenedCase
  deadlines: CaseDeadlines
  done?: string
  refused?: string
  draft?: Draft
}) {
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
            {kase.notifyEmail
              ? ', and mails them that there is news (nothing more).'
              : '. They left no address: they see it when they next look.'}
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
            ...(kase.anonymous
              ? []
              : ([['How to contact them', kase.report.contact ? <Text>{kase.report.contact}</Text> : null]] as Array<
                  [string, ReactNode]
                >)),
            [
              'News by mail',
              kase.notifyEmail
                ? 'Yes: they left an address for mails that say only that there is news'
                : 'No address left',
            ],
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
                  <strong>
                    {message.author === 'reporter'
                      ? 'Reporter'
                      : `${message.staff_name ?? 'Case handler'}, to the reporter`}
                  </strong>{' '}
                  · {message.author === 'reporter' ? <Day at={message.created_at} /> : <Time at={message.created_at} />}
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
        <TextForm
          action={`${casePath(kase.id)}/notes`}
          name="note"
          label="Add a note"
          button="Add the note"
          draft={draftOf('note')}
        />
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
            cells: [
              REPORTER_ACTIONS.has(event.action) ? <Day at={event.at} /> : <Time at={event.at} />,
              event.staff_name ?? 'Reporter',
              eventText(event, kase),
            ],
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

const kilobytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`

function TextForm({
  action,
  name,
  label,
  hint,
  button,
  tone = 'primary',
  draft,
}: {
  action: string
  name: string
  label: string
  hint?: string
  button: string
  tone?: 'primary' | 'danger'
  draft?: Draft
}) {
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
        <textarea
          id={id}
          name="text"
          rows={5}
          required
          aria-invalid={draft?.errors.length ? true : undefined}
          aria-describedby={described}
          defaultValue={draft?.text ?? ''}
        />
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
      return file ? (
        <>
          {`Downloaded attachment ${event.detail} (`}
          <Written>{file.name}</Written>)
        </>
      ) : (
        `Downloaded attachment ${event.detail}`
      )
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
