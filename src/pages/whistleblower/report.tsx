import type { Context } from 'hono'
import { ChoiceGroup, TextAreaField } from '../../components/choice-fields'
import { Field, type FieldErrors, FormErrors } from '../../components/form-field'
import { Island } from '../../components/island'
import type { MarketView } from '../../components/view'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { ATTEMPT_WINDOW_SECONDS } from '../../auth/attempts'
import { personsToken, HONEYPOT_FIELD } from '../../forms/bot-checks'
import { FORM_TOKEN_FIELD, issueFormToken, MIN_FILL_SECONDS, readFormToken } from '../../forms/form-token'
import { type FormValues, fieldValue } from '../../forms/lead-form'
import { randomToken } from '../../crypto/digest'
import { logEvent } from '../../ops/log'
import { clientKey, withinLimit } from '../../ops/rate-limit'
import { isUpstreamError, unlessRefused } from '../../upstream/errors'
import { fieldErrors, personName, valueErrors } from '../../../contract/fields'
import {
  REPORT_CATEGORIES,
  REPORT_TEXT_MAX,
  type ReportFields,
  reportFields,
} from '../../../contract/whistleblower-schemas'
import { deleteAttachments, postedFiles, refusedFiles, storeAttachments } from '../../whistleblower/attachments'
import { receiptFor, storedSubmissionKey } from '../../whistleblower/receipt'
import { keyringOf } from '../../whistleblower/keyring'
import { newReportKey, sealText } from '../../whistleblower/sealed'
import PrintButton from '../../../client/islands/print-button'
import { IslandNames } from '../../../client/islands/names'
import {
  AttachmentsField,
  Code,
  reportPath,
  sendWhistleblowerPage,
  statusPath,
  WhistleblowerLayout,
  type WhistleblowerParts,
  whistleblowerParts,
} from './page'

/**
 * The largest body the report (and an answer on the status page) reads: three attachments of ATTACHMENT_MAX_BYTES and
 * the texts, with room to spare, so a file a little too large gets its field's message; more is a 413.
 */
export const REPORT_BODY_BYTES = 31 * 1024 * 1024

/** What the form's token is signed for: the report form of one market. */
const tokenScope = (c: Context<MarketEnv>) => `${c.var.market.segment}:whistleblower`

/** The report form as it is shown again: what was typed (never the files), its messages, the token it keeps. */
type ReportState = { values: FormValues; errors?: FieldErrors; message?: string; token?: string }

/** The text fields the form posts (files and the machinery's fields aside). */
const TEXT_FIELDS = [
  'category',
  'what',
  'when_where',
  'involved',
  'identity',
  'name',
  'contact',
  'notify_email',
] as const

/** `GET /{m}/whistleblower-form`: what the channel is for, who reads it, the reporter's protection, then the form. */
export async function reportPage(c: Context<MarketEnv>): Promise<Response> {
  return sendReportForm(c, { values: {} })
}

/**
 * `POST /{m}/whistleblower-form`. In order: without its secrets the channel is unavailable (503); a bot (honeypot, no
 * or a forged token, too fast) is shown a receipt and nothing is stored; an expired form comes back with a new token;
 * past `FORM_ATTEMPTS` per client, 429; the fields and files are checked (their messages, everything typed kept but
 * the files); then the texts, the notification address and each file are sealed with a new key of the report's own,
 * the files put in R2, and the report sent. The receipt is shown once, in this answer (200: nothing in a URL). An API
 * that fails brings the form back (503) with the same token, so sending again stores one report.
 */
export async function submitReport(c: Context<MarketEnv>): Promise<Response> {
  const keyring = keyringOf(c.env)
  const signing = c.env.SESSION_SECRET
  const body = (await c.req.parseBody({ all: true }).catch(() => ({}))) as Record<string, unknown>
  const values = textValues(body)
  if (!keyring || !signing) return sendReportForm(c, { values: values, message: 'whistleblower.unavailable' }, 503)

  const posted = typeof body[FORM_TOKEN_FIELD] === 'string' ? (body[FORM_TOKEN_FIELD] as string) : undefined
  const read = await readFormToken(signing, tokenScope(c), posted, {
    minFillSeconds: configOf(c.env).formMinFillSeconds,
    previous: c.env.SESSION_SECRET_PREVIOUS,
  })
  const token = personsToken({ [HONEYPOT_FIELD]: textOf(body[HONEYPOT_FIELD]) }, read)
  if (!token) {
    logEvent('info', 'form_bot_caught', { form: 'whistleblower' })
    // A receipt that opens nothing: never the one a re-posted real token would derive.
    return sendReceipt(c, await receiptFor(keyring.newest.secret, randomToken()))
  }
  if (token.state === 'expired') {
    const renewed = await issueFormToken(signing, tokenScope(c), Date.now() - MIN_FILL_SECONDS * 1000)
    return sendReportForm(c, { values: values, message: 'forms.expired', token: renewed }, 422)
  }
  if (!(await withinLimit(c.env.FORM_ATTEMPTS, `form:whistleblower:${await clientKey(c)}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return sendReportForm(c, { values: values, errors: { form: ['too_many_attempts'] }, token: posted }, 429)
  }

  const anonymousAllowed = c.var.market.site.settings.whistleblower_anonymous
  const fields = reportFields.safeParse({
    ...values,
    anonymous: anonymousAllowed && fieldValue(values, 'identity') !== 'named',
    notify_email: fieldValue(values, 'notify_email'),
  })
  const files = postedFiles(body.attachments)
  const errors: FieldErrors = fields.success
    ? {}
    : { ...namedErrors(values, anonymousAllowed), ...fieldErrors(fields.error) }
  const refused = refusedFiles(files)
  if (refused) errors.attachments = [refused]
  if (!fields.success || Object.keys(errors).length > 0)
    return sendReportForm(c, { values: values, errors, token: posted }, 422)

  const report = fields.data
  const receipt = await receiptFor(keyring.newest.secret, token.id)
  const { key, wrapped } = await newReportKey(keyring)
  let attachments: Awaited<ReturnType<typeof storeAttachments>> = []
  let keep = false
  try {
    attachments = await storeAttachments(c.env.FILES, key, files)
    const { answer, refused: refusal } = await unlessRefused(
      c.var.api.whistleblower.report({
        submission_key: await storedSubmissionKey(token.id),
        receipt_code: receipt.code,
        passphrase: receipt.passphrase,
        category: report.category,
        anonymous: report.anonymous,
        wrapped_key: wrapped,
        sealed_report: await sealText(key, JSON.stringify(reportText(report))),
        sealed_notify: report.notify_email ? await sealText(key, report.notify_email) : null,
        attachments,
      }),
      [422],
    )
    if (refusal)
      return sendReportForm(
        c,
        { values: values, errors: refusal.rejection.errors ?? { form: ['invalid'] }, token: posted },
        422,
      )
    if (!answer) return sendReportForm(c, { values: values, message: 'whistleblower.unavailable', token: posted }, 503)
    // The same form sent again: the first report stands, with its own files; this call's go.
    keep = answer.created
    return sendReceipt(c, { code: answer.receipt_code, passphrase: receipt.passphrase })
  } catch (error) {
    if (!isUpstreamError(error) || error.failure === 'rejected') throw error
    // No answer at all (a timeout): the report may be stored, and its files with it. They stay.
    keep =
      error.failure === 'timeout' ||
      (error.failure === 'unavailable' && error.status === undefined && error.path !== 'files')
    logEvent('warn', 'whistleblower_not_sent', { failure: error.failure })
    return sendReportForm(c, { values: values, message: 'whistleblower.not_sent', token: posted }, 503)
  } finally {
    if (!keep) await deleteAttachments(c.env.FILES, attachments)
  }
}

/**
 * A named report's own messages (a name, a way to be reached), given with the others' at once: the shared schema checks
 * them only once everything else is valid.
 */
function namedErrors(values: FormValues, anonymousAllowed: boolean): FieldErrors {
  if (anonymousAllowed && fieldValue(values, 'identity') !== 'named') return {}
  const errors: FieldErrors = {}
  const name = fieldValue(values, 'name').trim()
  const checkedName = personName(120).safeParse(name)
  if (!checkedName.success) errors.name = valueErrors(checkedName.error)
  if (!fieldValue(values, 'contact').trim() && !fieldValue(values, 'notify_email').trim())
    errors.contact = ['contact_required']
  return errors
}

/** What is sealed as the report: what happened, when and where, who is involved, and who reports (named only). */
function reportText(report: ReportFields) {
  return {
    what: report.what,
    when_where: report.when_where,
    involved: report.involved,
    // An anonymous report keeps nothing of a name or contact typed before choosing anonymity.
    name: report.anonymous ? null : report.name,
    contact: report.anonymous ? null : report.contact,
  }
}

async function sendReportForm(
  c: Context<MarketEnv>,
  state: ReportState,
  status: 200 | 422 | 429 | 503 = 200,
): Promise<Response> {
  const parts = await whistleblowerParts(c)
  const signing = c.env.SESSION_SECRET
  const available = Boolean(keyringOf(c.env) && signing)
  const token = available && signing ? (state.token ?? (await issueFormToken(signing, tokenScope(c)))) : null
  const settings = c.var.market.site.settings
  return sendWhistleblowerPage(
    c,
    <ReportPage
      {...parts}
      state={state}
      token={token}
      anonymousAllowed={settings.whistleblower_anonymous}
      externalChannel={settings.whistleblower_external_channel ?? null}
    />,
    available ? status : 503,
  )
}

type ReportPageProps = WhistleblowerParts & {
  state: ReportState
  token: string | null
  anonymousAllowed: boolean
  externalChannel: { name: string; url: string } | null
}

/** The report page: the channel explained, then the form (or why it cannot take a report now). */
export function ReportPage({ view, chrome, state, token, anonymousAllowed, externalChannel }: ReportPageProps) {
  const { t } = view
  const segment = view.market.segment
  const brand = t('brand.name')
  return (
    <WhistleblowerLayout view={view} chrome={chrome} title={t('whistleblower.title')}>
      <header className="wb-hero">
        <p className="wb-eyebrow">{t('whistleblower.eyebrow')}</p>
        <h1>{t('whistleblower.title')}</h1>
        <p className="lead">{t('whistleblower.intro', { brand })}</p>
        <p className="wb-follow-link">
          <a href={statusPath(segment)}>{t('whistleblower.status_link')}</a>
        </p>
      </header>
      <ul className="wb-facts">
        <li>
          <h2>{t('whistleblower.who_title')}</h2>
          <p>{t('whistleblower.who_text', { brand })}</p>
        </li>
        <li>
          <h2>{t('whistleblower.protection_title')}</h2>
          <p>{t('whistleblower.protection_text')}</p>
        </li>
        <li>
          <h2>{t('whistleblower.anonymity_title')}</h2>
          <p>{t(anonymousAllowed ? 'whistleblower.anonymity_allowed' : 'whistleblower.anonymity_named')}</p>
        </li>
        <li>
          <h2>{t('whistleblower.external_title')}</h2>
          <p>
            {externalChannel ? (
              <>
                {t('whistleblower.external_named')}{' '}
                <a href={externalChannel.url} rel="noreferrer noopener" target="_blank">
                  {externalChannel.name}
                </a>
              </>
            ) : (
              t('whistleblower.external_general')
            )}
          </p>
        </li>
      </ul>
      <section className="wb-panel" aria-labelledby="wb-form-title">
        <h2 id="wb-form-title">{t('whistleblower.form_title')}</h2>
        <p className="form-note">{t('whistleblower.form_note')}</p>
        {token ? (
          <ReportForm view={view} state={state} token={token} anonymousAllowed={anonymousAllowed} />
        ) : (
          <p className="form-error" role="alert">
            {t('whistleblower.unavailable')}
          </p>
        )}
      </section>
    </WhistleblowerLayout>
  )
}

function ReportForm({
  view,
  state,
  token,
  anonymousAllowed,
}: {
  view: MarketView
  state: ReportState
  token: string
  anonymousAllowed: boolean
}) {
  const { t } = view
  const { values, errors } = state
  const named = !anonymousAllowed || fieldValue(values, 'identity') === 'named'
  const filesAgain = Boolean(errors && Object.keys(errors).length > 0) || Boolean(state.message)
  return (
    <form
      method="post"
      className="stacked-form wb-form"
      aria-labelledby="wb-form-title"
      encType="multipart/form-data"
      noValidate
    >
      <FormErrors view={view} errors={errors} message={state.message ? t(state.message) : null} />
      <p className="form-note">{t('forms.required_note')}</p>
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <div className="honeypot" aria-hidden="true">
        <label htmlFor="field-homepage">{t('forms.honeypot')}</label>
        <input id="field-homepage" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      <ChoiceGroup
        view={view}
        name="category"
        type="radio"
        legend={t('whistleblower.field.category')}
        options={REPORT_CATEGORIES.map((value) => ({ value, label: t(`whistleblower.category.${value}`) }))}
        checked={fieldValue(values, 'category')}
        errors={errors}
      />
      <TextAreaField
        view={view}
        name="what"
        label={t('whistleblower.field.what')}
        hint={t('whistleblower.hint.what')}
        rows={8}
        maxLength={REPORT_TEXT_MAX}
        value={fieldValue(values, 'what')}
        errors={errors}
      />
      <TextAreaField
        view={view}
        name="when_where"
        label={t('whistleblower.field.when_where')}
        hint={t('whistleblower.hint.when_where')}
        rows={3}
        maxLength={2000}
        value={fieldValue(values, 'when_where')}
        errors={errors}
      />
      <TextAreaField
        view={view}
        name="involved"
        label={t('whistleblower.field.involved')}
        hint={t('whistleblower.hint.involved')}
        optional
        rows={3}
        maxLength={2000}
        value={fieldValue(values, 'involved')}
        errors={errors}
      />
      <fieldset className="form-group">
        <legend>{t('whistleblower.identity_title')}</legend>
        {anonymousAllowed ? (
          <ChoiceGroup
            view={view}
            name="identity"
            type="radio"
            legend={t('whistleblower.field.identity')}
            options={[
              { value: 'anonymous', label: t('whistleblower.identity.anonymous') },
              { value: 'named', label: t('whistleblower.identity.named') },
            ]}
            checked={named ? 'named' : 'anonymous'}
            errors={errors}
          />
        ) : (
          <p className="hint">{t('whistleblower.identity_required')}</p>
        )}
        {/* Shown only for a named report (CSS, no script); an anonymous report drops whatever they hold. */}
        <div className={anonymousAllowed ? 'wb-named' : 'wb-named always'}>
          {anonymousAllowed && <p className="hint">{t('whistleblower.hint.named')}</p>}
          <Field
            view={view}
            name="name"
            label={t('whistleblower.field.name')}
            autoComplete="name"
            maxLength={120}
            required={false}
            defaultValue={fieldValue(values, 'name')}
            errors={errors}
          />
          <TextAreaField
            view={view}
            name="contact"
            label={t('whistleblower.field.contact')}
            hint={t('whistleblower.hint.contact')}
            required={false}
            rows={2}
            maxLength={500}
            value={fieldValue(values, 'contact')}
            errors={errors}
          />
        </div>
        <Field
          view={view}
          name="notify_email"
          label={t('whistleblower.field.notify_email')}
          hint={t('whistleblower.hint.notify_email')}
          optional
          type="email"
          dir="ltr"
          autoComplete="off"
          maxLength={254}
          defaultValue={fieldValue(values, 'notify_email')}
          errors={errors}
        />
      </fieldset>
      <AttachmentsField view={view} errors={errors} filesAgain={filesAgain} />
      <button type="submit" className="button">
        {t('whistleblower.send')}
      </button>
    </form>
  )
}

/** The receipt, shown once: the code and the passphrase, large, with the instruction to keep them and a way to print. */
function sendReceipt(c: Context<MarketEnv>, receipt: { code: string; passphrase: string }) {
  return whistleblowerParts(c).then((parts) => sendWhistleblowerPage(c, <ReceiptPage {...parts} receipt={receipt} />))
}

export function ReceiptPage({
  view,
  chrome,
  receipt,
}: WhistleblowerParts & { receipt: { code: string; passphrase: string } }) {
  const { t } = view
  const segment = view.market.segment
  return (
    <WhistleblowerLayout view={view} chrome={chrome} title={t('whistleblower.receipt_title')}>
      <section className="wb-panel wb-receipt" aria-labelledby="wb-receipt-title">
        <h1 id="wb-receipt-title">{t('whistleblower.receipt_title')}</h1>
        <p className="lead">{t('whistleblower.receipt_intro')}</p>
        <dl className="wb-codes">
          <div>
            <dt>{t('whistleblower.receipt_code')}</dt>
            <dd>
              <Code id="wb-receipt-code">{receipt.code}</Code>
            </dd>
          </div>
          <div>
            <dt>{t('whistleblower.passphrase')}</dt>
            <dd>
              <Code id="wb-passphrase">{receipt.passphrase}</Code>
            </dd>
          </div>
        </dl>
        <p className="wb-keep" role="note">
          <strong>{t('whistleblower.receipt_keep')}</strong>
        </p>
        <p className="hint">{t('whistleblower.receipt_print')}</p>
        <div className="wb-receipt-actions">
          <Island name={IslandNames.printButton} component={PrintButton} props={{ label: t('whistleblower.print') }} />
        </div>
        <h2>{t('whistleblower.next_title')}</h2>
        <p>{t('whistleblower.next_text')}</p>
        <p>
          <a href={statusPath(segment)}>{t('whistleblower.status_link')}</a>
        </p>
        <p className="hint">
          <a href={reportPath(segment)}>{t('whistleblower.new_report')}</a>
        </p>
      </section>
    </WhistleblowerLayout>
  )
}

/** A parsed body's text fields (the last value of each); files and unknown fields left out. */
function textValues(body: Record<string, unknown>): FormValues {
  const values: FormValues = {}
  for (const name of TEXT_FIELDS) {
    const text = textOf(body[name])
    if (text !== '') values[name] = text
  }
  return values
}

/** The last text posted under a name, or ''. */
export function textOf(value: unknown): string {
  const items = Array.isArray(value) ? value : [value]
  const texts = items.filter((item): item is string => typeof item === 'string')
  return texts[texts.length - 1] ?? ''
}
