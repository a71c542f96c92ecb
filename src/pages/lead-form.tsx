import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { FieldErrors } from '../components/form-field'
import { DefaultLayout } from '../components/layouts'
import { LeadFormFrame } from '../components/lead-form-frame'
import type { MarketView } from '../components/view'
import { configOf } from '../config'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { movedPageRedirect } from '../market/moved-page'
import { personsToken, HONEYPOT_FIELD } from '../forms/bot-checks'
import { FORM_TOKEN_FIELD, issueFormToken, MIN_FILL_SECONDS, readFormToken } from '../forms/form-token'
import { humanCheckOf, TURNSTILE_FIELD } from '../forms/human-check'
import { type FormValues, type LeadForm, fieldValue } from '../forms/lead-form'
import { newReference } from '../forms/reference'
import { ATTEMPT_WINDOW_SECONDS } from '../auth/attempts'
import { logEvent } from '../ops/log'
import { clientKey, withinLimit } from '../ops/rate-limit'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { DEFAULT_BODY_LIMIT } from '../security/unsafe-requests'
import { isUpstreamError } from '../upstream/errors'
import { REFERENCE_FORMAT } from '../../contract/form-schemas'
import { loadChrome } from './chrome'
import { ContentPageLayout, type ContentPageParts, contentPageParts } from './content-page-parts'
import { LEAD_FORMS } from './lead-forms'

/** A form as it is shown again: what was posted, its messages, and the token it keeps (a new one when it expired). */
type FormState = { values: FormValues; errors?: FieldErrors; message?: string; token?: string }

/** The first letters of the reference a caught bot is shown (as the API's would be). */
const BOT_PREFIX = { test_ride: 'TR', dealer: 'DL', distributor: 'DS', job: 'JB', contact: 'CT' } as const

/** Fields the form machinery posts, never a submission's content. */
const MACHINE_FIELDS = [FORM_TOKEN_FIELD, HONEYPOT_FIELD, TURNSTILE_FIELD]

/** The lead form of the request's page (`/{m}/{slug}`) when it is available there; else null. */
export function leadFormOf(c: Context<MarketEnv>): LeadForm | null {
  const key = c.var.available.pageOf(c.req.param('page') ?? '')?.key
  return (key && LEAD_FORMS[key]) || null
}

/** The largest body the request's page reads: its form's, else the default. */
export const leadFormBodyLimit = (c: Context<MarketEnv>) => leadFormOf(c)?.maxBytes ?? DEFAULT_BODY_LIMIT

/** What a token is signed for: one form of one market. */
const tokenScope = (c: Context<MarketEnv>, form: LeadForm) => `${c.var.market.segment}:${form.kind}`

/**
 * A content page with its lead form: a new form (prefilled from the query where the form says so), or the posted one
 * again with its messages. Each form carries its own token, so the page is never kept by a cache.
 */
export async function sendLeadFormPage(
  c: Context<MarketEnv>,
  parts: ContentPageParts,
  form: LeadForm,
  state?: FormState,
  status: 200 | 422 | 429 | 503 = 200,
): Promise<Response> {
  const { view, chrome } = parts
  const data = await form.load(c)
  const secret = c.env.SESSION_SECRET
  const token = state?.token ?? (secret ? await issueFormToken(secret, tokenScope(c, form)) : null)
  const values = state?.values ?? form.prefill?.(c, data) ?? {}
  const titleId = 'lead-form-title'
  return sendPage(
    c,
    <ContentPageLayout {...parts}>
      {form.Above && <form.Above view={view} data={data} />}
      <section className="lead-form-section" aria-labelledby={titleId}>
        <h2 id={titleId}>{view.t(`forms.${form.kind}.title`)}</h2>
        {form.Before && <form.Before view={view} data={data} values={values} errors={state?.errors} />}
        {token ? (
          <LeadFormFrame
            view={view}
            labelledBy={titleId}
            token={token}
            errors={state?.errors}
            message={state?.message}
            multipart={form.multipart}
            privacyUrl={chrome.available.pageUrl('privacy-policy')}
            consentGiven={fieldValue(values, 'consent') === 'on'}
            turnstileSiteKey={configOf(c.env).turnstileSiteKey}
          >
            <form.Fields view={view} data={data} values={values} errors={state?.errors} />
          </LeadFormFrame>
        ) : (
          <p className="form-error" role="alert">
            {view.t('forms.unavailable')}
          </p>
        )}
      </section>
    </ContentPageLayout>,
    { caching: Caching.never, kind: 'form', status },
  )
}

/**
 * `POST /{m}/{slug}` of a page with a lead form. In order: a bot (honeypot, no or a forged token, too fast) gets a
 * confirmation and nothing is stored; an expired form comes back with a new token; past `FORM_ATTEMPTS` per client
 * and form, 429; Turnstile when configured; then the form checks and sends its values — its messages, or an upstream
 * that fails, bring the form back with everything typed (files excepted) — and the visitor is sent to the
 * confirmation (303). Nothing of the content reaches a log.
 */
export async function submitLeadForm(c: Context<MarketEnv>): Promise<Response> {
  const form = leadFormOf(c)
  if (!form) {
    const moved = movedPageRedirect(c)
    if (moved) return moved
    throw PageError.pageNotFound(c.req.url)
  }
  const body = (await c.req.parseBody({ all: true }).catch(() => ({}))) as Record<string, unknown>
  const values = formValues(body, form.lists ?? [])
  const again = (state: Omit<FormState, 'values'>, status: 422 | 429 | 503) =>
    contentPageParts(c, form.page).then((parts) =>
      sendLeadFormPage(c, parts, form, { values: visible(values), ...state }, status),
    )

  const secret = c.env.SESSION_SECRET
  if (!secret) return again({ message: 'forms.unavailable' }, 503)
  const posted = fieldValue(values, FORM_TOKEN_FIELD)
  const token = personsToken(
    values,
    await readFormToken(secret, tokenScope(c, form), posted, {
      minFillSeconds: configOf(c.env).formMinFillSeconds,
      previous: c.env.SESSION_SECRET_PREVIOUS,
    }),
  )
  if (!token) {
    logEvent('info', 'form_bot_caught', { form: form.kind })
    return sendRedirect(c, confirmationPath(c, newReference(BOT_PREFIX[form.kind])), 303)
  }
  if (token.state === 'expired') {
    // The new token counts as already filled in: the visitor checks the kept values and sends at once.
    const renewed = await issueFormToken(secret, tokenScope(c, form), Date.now() - MIN_FILL_SECONDS * 1000)
    return again({ message: 'forms.expired', token: renewed }, 422)
  }
  if (!(await withinLimit(c.env.FORM_ATTEMPTS, `form:${form.kind}:${await clientKey(c)}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return again({ errors: { form: ['too_many_attempts'] }, token: posted }, 429)
  }
  const verdict = await humanCheckOf(c.env).verify(
    fieldValue(values, TURNSTILE_FIELD),
    c.req.header('CF-Connecting-IP') ?? null,
  )
  if (verdict === 'refused') return again({ errors: { form: ['human_check'] }, token: posted }, 422)
  if (verdict === 'unavailable') return again({ message: 'forms.unavailable', token: posted }, 503)

  try {
    const sent = await form.send(c, visible(values), token.id, body)
    if (!sent) throw PageError.pageNotFound(c.req.url)
    if ('errors' in sent) return again({ errors: sent.errors, token: posted }, 422)
    return sendRedirect(c, confirmationPath(c, sent.reference), 303)
  } catch (error) {
    if (!isUpstreamError(error) || error.failure === 'rejected') throw error
    logEvent('warn', 'form_not_sent', { form: form.kind, failure: error.failure })
    return again({ message: 'forms.unavailable', token: posted }, 503)
  }
}

/** `GET /{m}/{slug}/sent?reference=`: the confirmation, with the reference and what happens next. */
export async function leadFormSent(c: Context<MarketEnv>): Promise<Response> {
  const form = leadFormOf(c)
  const reference = c.req.query('reference') ?? ''
  if (!form) {
    const moved = movedPageRedirect(c)
    if (moved) return moved
  }
  if (!form || !REFERENCE_FORMAT.test(reference)) throw PageError.pageNotFound(c.req.url)
  const { market, t } = c.var
  const chrome = await loadChrome(c)
  const view = viewOf(c, t, market, false)
  return sendPage(c, <Confirmation view={view} chrome={chrome} kind={form.kind} reference={reference} />, {
    caching: Caching.never,
  })
}

function Confirmation({
  view,
  chrome,
  kind,
  reference,
}: {
  view: MarketView
  chrome: Awaited<ReturnType<typeof loadChrome>>
  kind: LeadForm['kind']
  reference: string
}) {
  const { t } = view
  return (
    <DefaultLayout
      view={view}
      chrome={chrome}
      head={{ title: `${t('forms.sent_title')} · ${t('brand.name')}`, robots: 'noindex' }}
    >
      <article className="content-page form-sent">
        <h1>{t('forms.sent_title')}</h1>
        <p className="lead">{t(`forms.${kind}.sent`)}</p>
        <p className="reference">
          {t('forms.sent_reference')} <strong dir="ltr">{reference}</strong>
        </p>
        <h2>{t('forms.next_title')}</h2>
        <p>
          {t(`forms.${kind}.next`)} {t(`forms.${kind}.mail_sent`)}
        </p>
        <p>
          <a className="button" href={`/${view.market.segment}`}>
            {t('common.return_to_home')}
          </a>
        </p>
      </article>
    </DefaultLayout>
  )
}

const confirmationPath = (c: Context<MarketEnv>, reference: string) =>
  `/${c.var.market.segment}/${c.req.param('page')}/sent?reference=${encodeURIComponent(reference)}`

/** A parsed body as form values: texts, and lists for the form's checkbox groups; files are left out. */
function formValues(body: Record<string, unknown>, lists: readonly string[]): FormValues {
  const values: FormValues = {}
  for (const [name, value] of Object.entries(body)) {
    const texts = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string')
    if (lists.includes(name)) values[name] = texts.slice(0, 20)
    else if (texts.length > 0) values[name] = texts.at(-1) ?? ''
  }
  return values
}

/** The values a visitor typed, without the machinery's fields. */
function visible(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !MACHINE_FIELDS.includes(name)))
}
