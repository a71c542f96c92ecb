import type { Context } from 'hono'
import { TextAreaField } from '../../components/choice-fields'
import { Field, type FieldErrors, FormErrors } from '../../components/form-field'
import type { MarketView } from '../../components/view'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { ATTEMPT_WINDOW_SECONDS } from '../../auth/attempts'
import { FORM_TOKEN_FIELD, issueFormToken, readFormToken } from '../../forms/form-token'
import { errorName, logEvent } from '../../ops/log'
import { clientKey, withinLimit } from '../../ops/rate-limit'
import { isRejection, isUpstreamError } from '../../upstream/errors'
import { valueErrors } from '../../../contract/fields'
import {
  type CaseKey,
  type CaseState,
  CASE_STATES,
  MESSAGE_TEXT_MAX,
  messageText,
  type ReporterCase,
} from '../../../contract/whistleblower-schemas'
import {
  deleteAttachments,
  postedFiles,
  refusedFiles,
  SEALING_OVERHEAD,
  storeAttachments,
} from '../../whistleblower/attachments'
import { UnreadableCase } from '../../whistleblower/case-file'
import { keyringOf, type WhistleblowerKeyring } from '../../whistleblower/keyring'
import { readPassphrase, readReceiptCode } from '../../whistleblower/receipt'
import { openReportKey, openText, sealText } from '../../whistleblower/sealed'
import {
  AttachmentsField,
  caseDate,
  Code,
  fileSize,
  reportPath,
  sendWhistleblowerPage,
  statusPath,
  WhistleblowerLayout,
  type WhistleblowerParts,
  whistleblowerParts,
} from './page'
import { textOf } from './report'

/** What the token of a reply form is signed for: answers on one market's status page. */
const replyScope = (c: Context<MarketEnv>) => `${c.var.market.segment}:whistleblower-reply`

/** The hidden field that tells an answer (with the case's key) from a receipt code and passphrase typed to open it. */
const INTENT_FIELD = 'intent'

/** A file of a case, opened: its name and type, its size before sealing. */
type OpenedFile = { id: number; messageId: number | null; name: string; size: number }
/** A case as the reporter reads it, opened at the edge. */
export type ReporterOpenedCase = {
  code: string
  passphrase: string
  category: string
  state: CaseState
  receivedAt: string
  acknowledgedAt: string | null
  closedAt: string | null
  report: { what: string; when_where: string; involved: string | null; name: string | null; contact: string | null }
  outcome: string | null
  messages: Array<{ id: number; author: 'reporter' | 'handler'; body: string; createdAt: string }>
  files: OpenedFile[]
}

/** The reply form as it is shown again: its text, its messages, its token; or a confirmation that it was sent. */
type ReplyState = {
  message?: string
  errors?: FieldErrors
  notice?: 'sent' | 'closed' | 'expired' | 'not_sent'
  token?: string
}

/** `GET /{m}/whistleblower-form/status`: the receipt code and the passphrase, typed each time. */
export async function statusPage(c: Context<MarketEnv>): Promise<Response> {
  return sendStatusForm(c, {}, keyringOf(c.env) ? 200 : 503)
}

/**
 * `POST /{m}/whistleblower-form/status`: opens a case with its receipt code and passphrase (typed leniently), or takes
 * the reporter's answer on an opened case (`intent=reply`, the case's key in hidden fields). Every post counts against
 * `WHISTLEBLOWER_ATTEMPTS` per client (429 past it). A pair that opens no case — a wrong passphrase, an unknown or a
 * malformed code — gets one answer, the same page with the same status (404).
 */
export async function submitStatus(c: Context<MarketEnv>): Promise<Response> {
  const keyring = keyringOf(c.env)
  if (!keyring) return sendStatusForm(c, {}, 503)
  if (!(await withinLimit(c.env.WHISTLEBLOWER_ATTEMPTS, `whistleblower:${await clientKey(c)}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return sendStatusForm(c, { errors: { form: ['too_many_attempts'] } }, 429)
  }
  const body = (await c.req.parseBody({ all: true }).catch(() => ({}))) as Record<string, unknown>
  const code = readReceiptCode(textOf(body.code))
  const passphrase = readPassphrase(textOf(body.passphrase))
  if (!code || !passphrase) return noCase(c)
  const key = { receipt_code: code, passphrase }
  try {
    if (textOf(body[INTENT_FIELD]) === 'reply') return await reply(c, keyring, key, body)
    const opened = await openCase(c, keyring, key)
    return opened ? sendCase(c, opened, {}) : noCase(c)
  } catch (error) {
    // A case this deployment's keys cannot open (logged where it was found): unavailable, never a 500.
    if (error instanceof UnreadableCase) return sendStatusForm(c, { message: 'whistleblower.unavailable' }, 503)
    if (!isUpstreamError(error) || error.failure === 'rejected') throw error
    logEvent('warn', 'whistleblower_case_unavailable', { failure: error.failure })
    return sendStatusForm(c, { message: 'whistleblower.unavailable' }, 503)
  }
}

/**
 * The reporter's answer: the case is opened first (its key seals the answer), the answer and its files are checked,
 * sealed and sent, and the case is shown again with a confirmation. The same form sent twice stores one answer; a
 * closed case takes none (409).
 */
async function reply(
  c: Context<MarketEnv>,
  keyring: WhistleblowerKeyring,
  key: CaseKey,
  body: Record<string, unknown>,
): Promise<Response> {
  const opened = await openCase(c, keyring, key)
  if (!opened) return noCase(c)
  if (opened.state === 'closed') return sendCase(c, opened, { notice: 'closed' }, 409)
  const typed = textOf(body.message)
  const signing = c.env.SESSION_SECRET
  const posted = textOf(body[FORM_TOKEN_FIELD])
  const token = signing
    ? await readFormToken(signing, replyScope(c), posted, {
        minFillSeconds: configOf(c.env).formMinFillSeconds,
        previous: c.env.SESSION_SECRET_PREVIOUS,
      })
    : null
  // A form without a good token (or one open for more than a day) comes back with its text and a new token.
  if (!token || token.state === 'expired') return sendCase(c, opened, { message: typed, notice: 'expired' }, 422)
  const text = messageText.safeParse(typed)
  const files = postedFiles(body.attachments)
  const errors: FieldErrors = {}
  if (!text.success) errors.message = valueErrors(text.error)
  const refused = refusedFiles(files)
  if (refused) errors.attachments = [refused]
  if (!text.success || refused) return sendCase(c, opened, { message: typed, errors, token: posted }, 422)

  const reportKey = await openReportKey(keyring, opened.wrappedKey)
  let attachments: Awaited<ReturnType<typeof storeAttachments>> = []
  let keep = false
  try {
    // Inside: a bucket that fails brings the answer back with its text, like an API that fails.
    attachments = await storeAttachments(c.env.FILES, reportKey, files)
    const answer = await c.var.api.whistleblower.reply({
      ...key,
      submission_key: token.id,
      sealed_body: await sealText(reportKey, text.data),
      attachments,
    })
    if (!answer) return noCase(c)
    keep = answer.created
  } catch (error) {
    if (isRejection(error, 409)) return sendCase(c, opened, { notice: 'closed' }, 409)
    if (isUpstreamError(error) && error.failure !== 'rejected') {
      keep =
        error.failure === 'timeout' ||
        (error.failure === 'unavailable' && error.status === undefined && error.path !== 'files')
      logEvent('warn', 'whistleblower_reply_not_sent', { failure: error.failure })
      return sendCase(c, opened, { message: typed, token: posted, notice: 'not_sent' }, 503)
    }
    throw error
  } finally {
    if (!keep) await deleteAttachments(c.env.FILES, attachments)
  }
  const again = await openCase(c, keyring, key)
  return again ? sendCase(c, again, { notice: 'sent' }) : noCase(c)
}

/** The case of a key, opened with the report's own key; null for any pair that opens none. */
async function openCase(
  c: Context<MarketEnv>,
  keyring: WhistleblowerKeyring,
  key: CaseKey,
): Promise<(ReporterOpenedCase & { wrappedKey: string }) | null> {
  const found = await c.var.api.whistleblower.status(key)
  if (!found) return null
  try {
    return { ...(await opened(keyring, key, found)), wrappedKey: found.wrapped_key }
  } catch (error) {
    // A key the ring lacks (UnknownKeyId, logged with its id), or altered text: nothing of it can be shown.
    logEvent('error', 'whistleblower_case_unreadable', { error: errorName(error) })
    throw new UnreadableCase(error instanceof Error ? error.name : 'unknown')
  }
}

async function opened(keyring: WhistleblowerKeyring, key: CaseKey, found: ReporterCase): Promise<ReporterOpenedCase> {
  const reportKey = await openReportKey(keyring, found.wrapped_key)
  const open = (sealed: string) => openText(reportKey, sealed)
  const report = JSON.parse(await open(found.sealed_report)) as ReporterOpenedCase['report']
  return {
    code: found.receipt_code,
    passphrase: key.passphrase,
    category: found.category,
    state: found.state,
    receivedAt: found.received_at,
    acknowledgedAt: found.acknowledged_at,
    closedAt: found.closed_at,
    report,
    outcome: found.sealed_outcome ? await open(found.sealed_outcome) : null,
    messages: await Promise.all(
      found.messages
        .filter((message) => message.author !== 'note')
        .map(async (message) => ({
          id: message.id,
          author: message.author as 'reporter' | 'handler',
          body: await open(message.sealed_body),
          createdAt: message.created_at,
        })),
    ),
    files: await Promise.all(
      found.attachments.map(async (file) => {
        const meta = JSON.parse(await open(file.sealed_meta)) as { name?: string }
        return {
          id: file.id,
          messageId: file.message_id,
          name: meta.name ?? '',
          size: Math.max(0, file.size - SEALING_OVERHEAD),
        }
      }),
    ),
  }
}

/** The one answer for a pair that opens no case, whatever was wrong with it. */
const noCase = (c: Context<MarketEnv>) => sendStatusForm(c, { message: 'whistleblower.no_case' }, 404)

async function sendStatusForm(
  c: Context<MarketEnv>,
  state: { message?: string; errors?: FieldErrors },
  status: 200 | 404 | 429 | 503 = 200,
) {
  const parts = await whistleblowerParts(c)
  const message = status === 503 ? 'whistleblower.unavailable' : state.message
  return sendWhistleblowerPage(c, <StatusFormPage {...parts} message={message} errors={state.errors} />, status)
}

async function sendCase(
  c: Context<MarketEnv>,
  opened: ReporterOpenedCase,
  state: ReplyState,
  status: 200 | 409 | 422 | 503 = 200,
) {
  const parts = await whistleblowerParts(c)
  const signing = c.env.SESSION_SECRET
  const token =
    opened.state === 'closed' || !signing ? null : (state.token ?? (await issueFormToken(signing, replyScope(c))))
  return sendWhistleblowerPage(c, <CasePage {...parts} opened={opened} state={state} token={token} />, status)
}

/** The follow-up form: receipt code and passphrase, nothing remembered. */
export function StatusFormPage({
  view,
  chrome,
  message,
  errors,
}: WhistleblowerParts & { message?: string; errors?: FieldErrors }) {
  const { t } = view
  const segment = view.market.segment
  return (
    <WhistleblowerLayout view={view} chrome={chrome} title={t('whistleblower.status_title')}>
      <section className="wb-panel wb-narrow" aria-labelledby="wb-status-title">
        <h1 id="wb-status-title">{t('whistleblower.status_title')}</h1>
        <p className="lead">{t('whistleblower.status_intro')}</p>
        <form method="post" className="stacked-form" aria-labelledby="wb-status-title" noValidate>
          <FormErrors view={view} errors={errors} message={message ? t(message) : null} />
          <Field
            view={view}
            name="code"
            label={t('whistleblower.receipt_code')}
            hint={t('whistleblower.hint.code')}
            dir="ltr"
            className="wb-code-input"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
          />
          <Field
            view={view}
            name="passphrase"
            label={t('whistleblower.passphrase')}
            hint={t('whistleblower.hint.passphrase')}
            dir="ltr"
            className="wb-code-input"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={60}
          />
          <button type="submit" className="button">
            {t('whistleblower.open_case')}
          </button>
        </form>
        <p className="hint wb-aside">
          {t('whistleblower.no_receipt')} <a href={reportPath(segment)}>{t('whistleblower.new_report')}</a>
        </p>
      </section>
    </WhistleblowerLayout>
  )
}

/** A case: its state and dates, the messages, the report as sent, its files, and the reply form (unless closed). */
export function CasePage({
  view,
  chrome,
  opened,
  state,
  token,
}: WhistleblowerParts & { opened: ReporterOpenedCase; state: ReplyState; token: string | null }) {
  const { t } = view
  const segment = view.market.segment
  const filesOf = (messageId: number | null) => opened.files.filter((file) => file.messageId === messageId)
  const notice =
    state.notice === 'sent'
      ? 'whistleblower.reply_sent'
      : state.notice === 'closed'
        ? 'whistleblower.case_closed'
        : null
  return (
    <WhistleblowerLayout view={view} chrome={chrome} title={t('whistleblower.case_title')}>
      <section className="wb-panel wb-case" aria-labelledby="wb-case-title">
        <h1 id="wb-case-title">{t('whistleblower.case_title')}</h1>
        <p className="wb-case-code">
          {t('whistleblower.receipt_code')}: <Code>{opened.code}</Code>
        </p>
        {notice && (
          <p
            className={state.notice === 'sent' ? 'wb-notice' : 'form-error'}
            role={state.notice === 'sent' ? 'status' : 'alert'}
          >
            {t(notice)}
          </p>
        )}
        <h2 className="visually-hidden">{t('whistleblower.state_title')}</h2>
        <CaseStates view={view} opened={opened} />
        {opened.outcome && (
          <div className="wb-outcome">
            <h2>{t('whistleblower.outcome_title')}</h2>
            <p className="wb-text">{opened.outcome}</p>
          </div>
        )}
        <h2>{t('whistleblower.messages_title')}</h2>
        {opened.messages.length > 0 ? (
          <ol className="wb-messages">
            {opened.messages.map((message) => (
              <li key={message.id} className={`wb-message ${message.author}`}>
                <p className="wb-message-meta">
                  <strong>
                    {t(message.author === 'handler' ? 'whistleblower.from_handler' : 'whistleblower.from_you')}
                  </strong>
                  {' · '}
                  <time dateTime={message.createdAt}>{caseDate(view, message.createdAt)}</time>
                </p>
                <p className="wb-text">{message.body}</p>
                <FileList view={view} files={filesOf(message.id)} />
              </li>
            ))}
          </ol>
        ) : (
          <p className="hint">{t('whistleblower.no_messages')}</p>
        )}
        {token ? (
          <ReplyForm view={view} opened={opened} state={state} token={token} />
        ) : (
          opened.state === 'closed' && <p className="hint">{t('whistleblower.closed_hint')}</p>
        )}
        <details className="wb-report">
          <summary>{t('whistleblower.your_report')}</summary>
          <dl>
            <dt>{t('whistleblower.field.category')}</dt>
            <dd>{t(`whistleblower.category.${opened.category}`)}</dd>
            <dt>{t('whistleblower.field.what')}</dt>
            <dd className="wb-text">{opened.report.what}</dd>
            <dt>{t('whistleblower.field.when_where')}</dt>
            <dd className="wb-text">{opened.report.when_where}</dd>
            {opened.report.involved && (
              <>
                <dt>{t('whistleblower.field.involved')}</dt>
                <dd className="wb-text">{opened.report.involved}</dd>
              </>
            )}
            <dt>{t('whistleblower.identity_title')}</dt>
            <dd>
              {opened.report.name
                ? `${opened.report.name}${opened.report.contact ? ` · ${opened.report.contact}` : ''}`
                : t('whistleblower.identity.anonymous')}
            </dd>
          </dl>
          <FileList view={view} files={filesOf(null)} />
        </details>
        <p className="hint wb-aside">
          {t('whistleblower.leave_hint')} <a href={statusPath(segment)}>{t('whistleblower.leave')}</a>
        </p>
      </section>
    </WhistleblowerLayout>
  )
}

/** Where the case stands: its four states in order, the current one marked, each reached one with its date. */
function CaseStates({ view, opened }: { view: MarketView; opened: ReporterOpenedCase }) {
  const { t } = view
  const current = CASE_STATES.indexOf(opened.state)
  const dates: Record<CaseState, string | null> = {
    received: opened.receivedAt,
    acknowledged: opened.acknowledgedAt,
    in_progress: null,
    closed: opened.closedAt,
  }
  return (
    <ol className="wb-states">
      {CASE_STATES.map((state, index) => {
        const date = dates[state]
        return (
          <li
            key={state}
            className={index < current ? 'done' : index === current ? 'current' : 'upcoming'}
            aria-current={index === current ? 'step' : undefined}
          >
            <span className="wb-state-name">{t(`whistleblower.state.${state}`)}</span>
            {index <= current && date && (
              <time className="wb-state-date" dateTime={date}>
                {caseDate(view, date)}
              </time>
            )}
          </li>
        )
      })}
    </ol>
  )
}

function FileList({ view, files }: { view: MarketView; files: OpenedFile[] }) {
  if (files.length === 0) return null
  return (
    <ul className="wb-files-list" aria-label={view.t('whistleblower.field.attachments')}>
      {files.map((file) => (
        <li key={file.id}>
          <bdi>{file.name}</bdi> <span className="hint">{`(${fileSize(view, file.size)})`}</span>
        </li>
      ))}
    </ul>
  )
}

/** The reporter's answer, carrying the case's key in hidden fields so that it is not typed again during this visit. */
function ReplyForm({
  view,
  opened,
  state,
  token,
}: {
  view: MarketView
  opened: ReporterOpenedCase
  state: ReplyState
  token: string
}) {
  const { t } = view
  const errors = state.errors
  const message =
    state.notice === 'expired' ? t('forms.expired') : state.notice === 'not_sent' ? t('whistleblower.not_sent') : null
  const filesAgain = Boolean(errors && Object.keys(errors).length > 0) || Boolean(message)
  return (
    <form
      method="post"
      className="stacked-form wb-reply"
      aria-labelledby="wb-reply-title"
      encType="multipart/form-data"
      noValidate
    >
      <h2 id="wb-reply-title">{t('whistleblower.reply_title')}</h2>
      <FormErrors view={view} errors={errors} message={message} />
      <input type="hidden" name={INTENT_FIELD} value="reply" />
      <input type="hidden" name="code" value={opened.code} />
      <input type="hidden" name="passphrase" value={opened.passphrase} />
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <TextAreaField
        view={view}
        name="message"
        label={t('whistleblower.field.message')}
        hint={t('whistleblower.hint.message')}
        rows={5}
        maxLength={MESSAGE_TEXT_MAX}
        value={state.message ?? ''}
        errors={errors}
      />
      <AttachmentsField view={view} errors={errors} filesAgain={filesAgain} />
      <button type="submit" className="button">
        {t('whistleblower.reply_send')}
      </button>
    </form>
  )
}
