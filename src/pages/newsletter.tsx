import type { Context } from 'hono'
import { ATTEMPT_WINDOW_SECONDS } from '../auth/attempts'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { NewsletterForm, type NewsletterFormState, newsletterPath } from '../components/newsletter-form'
import type { HeadProps } from '../components/page-head'
import type { Chrome, MarketView } from '../components/view'
import { configOf } from '../config'
import { TOKEN_FORMAT } from '../../contract/tokens'
import type { MarketEnv } from '../env'
import { personsToken } from '../forms/bot-checks'
import { FORM_TOKEN_FIELD, issueFormToken, MIN_FILL_SECONDS, readFormToken } from '../forms/form-token'
import { newsletterToken, newsletterTokenScope } from '../forms/newsletter-token'
import { readForm } from '../forms/read-form'
import { logEvent } from '../ops/log'
import { clientKey, withinLimit } from '../ops/rate-limit'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { isUpstreamError, unlessRefused } from '../upstream/errors'
import { fieldErrors } from '../../contract/fields'
import { newsletterFields } from '../../contract/newsletter-schemas'
import { loadChrome } from './chrome'
import { newsletterRequestOf } from './newsletter-request'

/** The pages of the sign-up: the form (again, with its messages), "check your inbox", the confirmation and its end. */
type PageState =
  | { kind: 'form'; token: string | null; form: NewsletterFormState }
  | { kind: 'sent' }
  | { kind: 'confirm'; email: string }
  | { kind: 'confirmed' }
  | { kind: 'invalid' }
  | { kind: 'unsubscribe'; email: string }
  | { kind: 'unsubscribed' }

/** The end of a step ("check your inbox", confirmed, unsubscribed): what happened, and the way back home. */
function HomeAfter({ view, title, text }: { view: MarketView; title: string; text: string }) {
  const { t } = view
  return (
    <>
      <h1>{t(title)}</h1>
      <p className="lead">{t(text)}</p>
      <p>
        <a className="button" href={`/${view.market.segment}`}>
          {t('common.return_to_home')}
        </a>
      </p>
    </>
  )
}

/**
 * The page a mail's link opens: the address it names and the one button that confirms or unsubscribes it (a link
 * alone changes nothing, so a mail scanner following it does not). Unsubscribing posts `List-Unsubscribe=One-Click`
 * as a mail client's one click does.
 */
function AskToClick({ view, step, email }: { view: MarketView; step: 'confirm' | 'unsubscribe'; email: string }) {
  const { t } = view
  return (
    <>
      <h1>{t(`newsletter.${step}_title`)}</h1>
      <p className="lead">
        {t(`newsletter.${step}_intro`)} <bdi dir="ltr">{email}</bdi>
      </p>
      <form method="post" className="stacked-form" noValidate>
        {step === 'unsubscribe' && <input type="hidden" name="List-Unsubscribe" value="One-Click" />}
        <button type="submit" className="button">
          {t(`newsletter.${step}_submit`)}
        </button>
      </form>
    </>
  )
}

function NewsletterPage({
  view,
  chrome,
  head,
  state,
  privacyUrl,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  state: PageState
  privacyUrl: string | null
}) {
  const { t } = view
  const segment = view.market.segment
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="auth-panel narrow newsletter-page">
        {state.kind === 'form' && (
          <>
            <h1 id="newsletter-title">{t('newsletter.title')}</h1>
            <p className="lead">{t('newsletter.intro')}</p>
            {state.token ? (
              <NewsletterForm
                view={view}
                token={state.token}
                privacyUrl={privacyUrl}
                labelledBy="newsletter-title"
                idPrefix="newsletter-page"
                state={state.form}
              />
            ) : (
              <p className="form-error" role="alert">
                {t('forms.unavailable')}
              </p>
            )}
          </>
        )}
        {state.kind === 'sent' && <HomeAfter view={view} title="newsletter.sent_title" text="newsletter.sent_text" />}
        {state.kind === 'confirm' && <AskToClick view={view} step="confirm" email={state.email} />}
        {state.kind === 'confirmed' && (
          <HomeAfter view={view} title="newsletter.confirmed_title" text="newsletter.confirmed_text" />
        )}
        {state.kind === 'unsubscribe' && <AskToClick view={view} step="unsubscribe" email={state.email} />}
        {state.kind === 'unsubscribed' && (
          <HomeAfter view={view} title="newsletter.unsubscribed_title" text="newsletter.unsubscribed_text" />
        )}
        {state.kind === 'invalid' && (
          <>
            <h1>{t('newsletter.invalid_title')}</h1>
            <p>{t('newsletter.invalid_text')}</p>
            <p>
              <a className="button" href={newsletterPath(segment)}>
                {t('newsletter.again')}
              </a>
            </p>
          </>
        )}
      </div>
    </DefaultLayout>
  )
}

const TITLES: Record<PageState['kind'], string> = {
  form: 'newsletter.title',
  sent: 'newsletter.sent_title',
  confirm: 'newsletter.confirm_title',
  confirmed: 'newsletter.confirmed_title',
  invalid: 'newsletter.invalid_title',
  unsubscribe: 'newsletter.unsubscribe_title',
  unsubscribed: 'newsletter.unsubscribed_title',
}

/**
 * One of the sign-up's pages. The footer carries no second form here. A form (it has its own token) and a page about
 * a link (the token is in its URL: no Referer, no tracker) are never kept by a cache.
 */
export async function sendNewsletterPage(
  c: Context<MarketEnv>,
  state: PageState,
  status: 200 | 404 | 410 | 422 | 429 | 503 = 200,
) {
  const { market, t, available } = c.var
  const chrome: Chrome = { ...(await loadChrome(c)), newsletterToken: null }
  const view = viewOf(c, t, market, false)
  const head: HeadProps = { title: `${t(TITLES[state.kind])} · ${t('brand.name')}`, robots: 'noindex' }
  const aboutLink = state.kind === 'confirm' || state.kind === 'invalid' || state.kind === 'unsubscribe'
  return sendPage(
    c,
    <NewsletterPage
      view={view}
      chrome={chrome}
      head={head}
      state={state}
      privacyUrl={available.pageUrl('privacy-policy')}
    />,
    {
      status,
      caching: state.kind === 'sent' || state.kind === 'confirmed' ? Caching.shared : Caching.never,
      kind: state.kind === 'form' ? 'form' : 'page',
      ...(aboutLink ? { headers: { 'Referrer-Policy': 'no-referrer' }, tracking: false } : {}),
    },
  )
}

/** `GET /{m}/newsletter`: the sign-up form on a page of its own (where the footer's form comes back with its messages). */
export async function newsletterPage(c: Context<MarketEnv>): Promise<Response> {
  return sendNewsletterPage(c, { kind: 'form', token: await newsletterToken(c), form: {} })
}

/**
 * `POST /{m}/newsletter`: as the lead forms, in order: a bot (honeypot, no or a forged token, too fast) is sent to
 * "check your inbox" and nothing is stored; an expired form comes back with a new token; past `FORM_ATTEMPTS` per
 * client, 429; then the address and the consent are checked and sent. The answer is the same whether or not the
 * address is subscribed: the mailed link says the rest. Nothing typed reaches a log.
 */
export async function submitNewsletter(c: Context<MarketEnv>): Promise<Response> {
  const body = await readForm(c)
  const typed: NewsletterFormState = { email: body.email?.slice(0, 254), consent: body.consent === 'on' }
  const again = (form: NewsletterFormState, status: 422 | 429 | 503, token?: string | null) =>
    sendNewsletterPage(
      c,
      { kind: 'form', token: token ?? body[FORM_TOKEN_FIELD] ?? null, form: { ...typed, ...form } },
      status,
    )

  const secret = c.env.SESSION_SECRET
  const origin = configOf(c.env).publicOrigin
  if (!secret || !origin) return again({ message: 'forms.unavailable' }, 503, null)
  const scope = newsletterTokenScope(c.var.market.segment)
  const minFillSeconds = configOf(c.env).formMinFillSeconds
  const token = personsToken(
    body,
    await readFormToken(secret, scope, body[FORM_TOKEN_FIELD], {
      minFillSeconds,
      previous: c.env.SESSION_SECRET_PREVIOUS,
    }),
  )
  const sent = sendRedirect(c, `${newsletterPath(c.var.market.segment)}/sent`, 303)
  if (!token) {
    logEvent('info', 'form_bot_caught', { form: 'newsletter' })
    return sent
  }
  if (token.state === 'expired') {
    // The new token counts as already filled in: the visitor checks the kept values and sends at once.
    const renewed = await issueFormToken(secret, scope, Date.now() - MIN_FILL_SECONDS * 1000)
    return again({ message: 'forms.expired' }, 422, renewed)
  }
  if (!(await withinLimit(c.env.FORM_ATTEMPTS, `form:newsletter:${await clientKey(c)}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return again({ errors: { form: ['too_many_attempts'] } }, 429)
  }
  const fields = newsletterFields.safeParse({ email: body.email ?? '', consent: body.consent })
  if (!fields.success) return again({ errors: fieldErrors(fields.error) }, 422)
  // The token's id is the sign-up's key upstream: the same form sent twice with the same address mails one link (a
  // kept page's footer gives every visitor the same token, so the address is part of the key there).
  const request = await newsletterRequestOf(c, secret, origin, fields.data, token.id)
  try {
    const answer = await unlessRefused(c.var.api.newsletter.subscribe(request), [422])
    if (answer.refused) return again({ errors: answer.refused.rejection.errors ?? { form: ['invalid'] } }, 422)
    return sent
  } catch (error) {
    if (!isUpstreamError(error)) throw error
    logEvent('warn', 'form_not_sent', { form: 'newsletter', failure: error.failure })
    return again({ message: 'forms.unavailable' }, 503)
  }
}

/** `GET /{m}/newsletter/sent`: "check your inbox". */
export async function newsletterSent(c: Context<MarketEnv>): Promise<Response> {
  return sendNewsletterPage(c, { kind: 'sent' })
}

/** `GET /{m}/newsletter/confirmed`: the subscription is confirmed. */
export async function newsletterConfirmed(c: Context<MarketEnv>): Promise<Response> {
  return sendNewsletterPage(c, { kind: 'confirmed' })
}

/** Unknown links answer 404, used or expired ones 410, both with the same message. */
const spent = (c: Context<MarketEnv>, status: 404 | 410) => sendNewsletterPage(c, { kind: 'invalid' }, status)

/** `GET /{m}/newsletter/confirm/{token}`: checks the link and shows the button; subscribes nobody (mail scanners follow links). */
export async function newsletterConfirmPage(c: Context<MarketEnv>): Promise<Response> {
  const token = c.req.param('token') ?? ''
  if (!TOKEN_FORMAT.test(token)) return spent(c, 404)
  const link = await unlessRefused(c.var.api.newsletter.link(token), [410])
  if (link.refused) return spent(c, 410)
  if (!link.answer) return spent(c, 404)
  return sendNewsletterPage(c, { kind: 'confirm', email: link.answer.email })
}

/** `POST /{m}/newsletter/confirm/{token}`: subscribes the link's address, once; then "you are subscribed" (303). */
export async function submitNewsletterConfirm(c: Context<MarketEnv>): Promise<Response> {
  const token = c.req.param('token') ?? ''
  if (!TOKEN_FORMAT.test(token)) return spent(c, 404)
  const confirmed = await unlessRefused(c.var.api.newsletter.confirm(token), [410, 422])
  if (confirmed.refused) return spent(c, 410)
  if (!confirmed.answer) return spent(c, 404)
  return sendRedirect(c, `${newsletterPath(c.var.market.segment)}/confirmed`, 303)
}
