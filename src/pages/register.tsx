import type { Context } from 'hono'
import { ATTEMPT_WINDOW_SECONDS, attemptKeys, attemptRefused, countAgainstAccount } from '../auth/attempts'
import { authOf } from '../auth/auth-of'
import { logIn } from '../auth/log-in'
import { LOGIN_MARKET_PARAM, type LoginMarket, loginLink, loginMarket } from '../auth/login-market'
import { LOGIN_PATH, REGISTER_PATH, REGISTER_SENT_PATH } from '../auth/paths'
import { redirectTarget } from '../auth/redirect-target'
import { Caching } from '../cache/answer-caching'
import { type FieldErrors, Field, FormErrors } from '../components/form-field'
import { BlankLayout } from '../components/layouts'
import { ConsentField } from '../components/lead-form-frame'
import type { HeadProps } from '../components/page-head'
import type { View } from '../components/view'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { HONEYPOT_FIELD } from '../forms/bot-checks'
import { FORM_TOKEN_FIELD, issueFormToken, MIN_FILL_SECONDS, readFormToken } from '../forms/form-token'
import { readForm } from '../forms/read-form'
import { loadTranslator } from '../i18n/load-translator'
import { availabilityOf } from '../market/availability'
import { toMarket } from '../market/market'
import { logEvent } from '../ops/log'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { PASSWORD_MIN, registrationFields } from '../../contract/account-schemas'
import { unlessRefused } from '../upstream/errors'
import { fieldErrors } from '../../contract/fields'

/** What the form's token is signed for: the sign-up form (it has no market in its path). */
const TOKEN_SCOPE = 'register'

/** The fields a visitor types that come back with a refused form (never the password). */
type Typed = { first_name?: string; last_name?: string; email?: string; consent?: boolean }

type RegisterState = {
  redirect: string | null
  token: string | null
  values?: Typed
  errors?: FieldErrors
  /** A message over the form: too many attempts, an expired form, the service unavailable. */
  message?: 'auth.too_many' | 'forms.expired' | 'forms.unavailable'
}

type RegisterPageProps = {
  view: View
  head: HeadProps
  market: LoginMarket
  privacyUrl: string | null
  state: RegisterState
}

/** The sign-up form: names, address, password (its rules shown), the consent; a plain form that works without JavaScript. */
export function RegisterPage({ view, head, market, privacyUrl, state }: RegisterPageProps) {
  const { t } = view
  const values = state.values ?? {}
  const errors = state.errors
  return (
    <BlankLayout view={view} head={head}>
      <div className="auth-panel">
        <h1>{t('register.title')}</h1>
        <p className="lead">{t('register.intro')}</p>
        {state.token ? (
          <form method="post" action={REGISTER_PATH} className="stacked-form" noValidate>
            <FormErrors view={view} errors={errors} message={state.message ? t(state.message) : null} />
            <p className="form-note">{t('forms.required_note')}</p>
            <input type="hidden" name={FORM_TOKEN_FIELD} value={state.token} />
            <input type="hidden" name={LOGIN_MARKET_PARAM} value={market.segment} />
            {state.redirect && <input type="hidden" name="redirect" value={state.redirect} />}
            <div className="honeypot" aria-hidden="true">
              <label htmlFor="field-homepage">{t('forms.honeypot')}</label>
              <input
                id="field-homepage"
                name={HONEYPOT_FIELD}
                type="text"
                tabIndex={-1}
                autoComplete="off"
                defaultValue=""
              />
            </div>
            <Field
              view={view}
              name="first_name"
              label={t('forms.field.first_name')}
              autoComplete="given-name"
              maxLength={80}
              defaultValue={values.first_name}
              errors={errors}
            />
            <Field
              view={view}
              name="last_name"
              label={t('forms.field.last_name')}
              autoComplete="family-name"
              maxLength={80}
              defaultValue={values.last_name}
              errors={errors}
            />
            <Field
              view={view}
              name="email"
              label={t('auth.email')}
              type="email"
              autoComplete="email"
              dir="ltr"
              maxLength={254}
              defaultValue={values.email}
              errors={errors}
            />
            <Field
              view={view}
              name="password"
              label={t('auth.password')}
              type="password"
              autoComplete="new-password"
              minLength={PASSWORD_MIN}
              hint={t('password.rules', { min: PASSWORD_MIN })}
              errors={errors}
            />
            <ConsentField
              view={view}
              errors={errors}
              checked={values.consent === true}
              privacyUrl={privacyUrl}
              label="register.consent"
              privacyText="register.privacy_text"
            />
            <button type="submit" className="button">
              {t('register.submit')}
            </button>
          </form>
        ) : (
          <p className="form-error" role="alert">
            {t('forms.unavailable')}
          </p>
        )}
        <p className="auth-switch">
          {t('register.have_account')} <a href={loginLink(LOGIN_PATH, market, state.redirect)}>{t('auth.submit')}</a>
        </p>
      </div>
    </BlankLayout>
  )
}

/** An empty field is told it is required, and nothing else (an empty password also fails the rules). */
const onlyRequired = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(
    Object.entries(errors).map(([field, keys]) => [field, keys?.includes('required') ? ['required'] : keys]),
  )

/** The privacy policy of the login market, when it has one. */
async function privacyUrlOf(c: Context<AppEnv>, market: LoginMarket): Promise<string | null> {
  const [sites, features] = await Promise.all([
    c.var.lookups.sites().catch(() => []),
    c.var.lookups.features().catch(() => []),
  ])
  const site = sites.find((candidate) => candidate.slug === market.country)
  return site ? availabilityOf(toMarket(site, market.locale), features).pageUrl('privacy-policy') : null
}

async function sendRegisterPage(
  c: Context<AppEnv>,
  market: LoginMarket,
  state: RegisterState,
  status: 200 | 422 | 429 | 503 = 200,
) {
  const [t, privacyUrl] = await Promise.all([loadTranslator(c.var.lookups.forMarket(market)), privacyUrlOf(c, market)])
  const view = viewOf(c, t, null, false)
  const head: HeadProps = {
    title: `${t('register.title')} · ${t('brand.name')}`,
    description: t('register.intro'),
    robots: 'noindex',
  }
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': String(ATTEMPT_WINDOW_SECONDS) } : {}
  // Each form carries its own token: never kept by a cache.
  return sendPage(c, <RegisterPage view={view} head={head} market={market} privacyUrl={privacyUrl} state={state} />, {
    status,
    headers,
    caching: Caching.never,
    tracking: false,
  })
}

/** `GET /login/register` (guest only): the form, in the login page's market and language, keeping `redirect`. */
export async function registerPage(c: Context<AppEnv>): Promise<Response> {
  const secret = c.env.SESSION_SECRET
  const token = secret ? await issueFormToken(secret, TOKEN_SCOPE) : null
  return sendRegisterPage(
    c,
    await loginMarket(c),
    { redirect: redirectTarget(c.req.query('redirect')), token },
    token ? 200 : 503,
  )
}

/**
 * `POST /login/register`. In order: a bot (honeypot, no or a forged token, too fast) is sent to "check your mailbox"
 * and nothing is created; an expired form comes back with a new token; the fields are checked (messages per field,
 * the typed values kept, the password never); the attempt is counted like a login's (per client, and per address from
 * one client: each sends a mail); then the API creates the account or mails the owner of a taken address, and the
 * answer is "check your mailbox" either way, but for a sign-up inside checkout (its `redirect`), whose new account
 * is logged in at once and goes on to pay (docs/decisions/057). The form token's id is the registration's key: sent twice, one account.
 */
export async function submitRegister(c: Context<AppEnv>): Promise<Response> {
  const form = await readForm(c)
  const market = await loginMarket(c, { market: form[LOGIN_MARKET_PARAM], redirect: form.redirect })
  const redirect = redirectTarget(form.redirect)
  const values: Typed = {
    first_name: form.first_name ?? '',
    last_name: form.last_name ?? '',
    email: form.email ?? '',
    consent: form.consent === 'on',
  }
  const secret = c.env.SESSION_SECRET
  if (!secret) return sendRegisterPage(c, market, { redirect, token: null, values }, 503)
  const posted = form[FORM_TOKEN_FIELD]
  const again = (state: Partial<RegisterState>, status: 422 | 429 | 503) =>
    sendRegisterPage(c, market, { redirect, token: posted ?? null, values, ...state }, status)

  const token = await readFormToken(secret, TOKEN_SCOPE, posted, {
    minFillSeconds: configOf(c.env).formMinFillSeconds,
    previous: c.env.SESSION_SECRET_PREVIOUS,
  })
  if (form[HONEYPOT_FIELD] || !token || token.state === 'too_fast') {
    logEvent('info', 'form_bot_caught', { form: 'register' })
    return sendRedirect(c, loginLink(REGISTER_SENT_PATH, market, null), 303)
  }
  if (token.state === 'expired') {
    // The new token counts as already filled in: the visitor checks the kept values and sends at once.
    return again(
      {
        message: 'forms.expired',
        token: await issueFormToken(secret, TOKEN_SCOPE, Date.now() - MIN_FILL_SECONDS * 1000),
      },
      422,
    )
  }
  const fields = registrationFields.safeParse({
    ...values,
    password: form.password ?? '',
    consent: form.consent ?? false,
  })
  if (!fields.success) return again({ errors: onlyRequired(fieldErrors(fields.error)) }, 422)

  const tooMany = () => again({ message: 'auth.too_many' }, 429)
  const keys = await attemptKeys(c, 'register', fields.data.email)
  if ((await attemptRefused(c, keys)) || (await countAgainstAccount(c, keys))) return tooMany()
  const origin = configOf(c.env).publicOrigin
  if (!origin) throw PageError.maintenance()
  const checkout = redirect !== null && isCheckoutPath(redirect)
  const { refused } = await unlessRefused(
    authOf(c, market).register({
      ...fields.data,
      submission_key: token.id,
      // From checkout, the confirmation comes after the purchase: its link leads to the account and its orders.
      link_template: confirmLinkTemplateOf(origin, market.segment, checkout ? null : redirect),
      sign_in: checkout,
    }),
    [422, 429],
  )
  if (refused?.status === 429) return tooMany()
  if (refused) return again({ errors: refused.rejection.errors ?? { form: ['invalid'] } }, 422)
  // Inside checkout the new account logs in at once and goes on to pay; the e-mail's confirmation follows. A taken
  // address (whose owner's password this is not) is "check your mailbox" as from the login page.
  if (checkout && redirect) {
    const outcome = await logIn(c, market, { email: fields.data.email, password: fields.data.password })
    if (outcome === 'logged-in') return sendRedirect(c, redirect, 303)
  }
  return sendRedirect(c, loginLink(REGISTER_SENT_PATH, market, null), 303)
}

/** Whether a same-site path is a market's checkout (`/it-it/checkout/{code}`): where signing up logs in at once. */
const isCheckoutPath = (path: string) => /^\/[a-z]{2,3}-[a-z]{2}\/checkout\//.test(path)

/** `GET /login/register/sent`: "check your mailbox", the same whether or not the address was taken. */
export async function registerSent(c: Context<AppEnv>): Promise<Response> {
  const market = await loginMarket(c)
  const t = await loadTranslator(c.var.lookups.forMarket(market))
  const view = viewOf(c, t, null, false)
  const head: HeadProps = { title: `${t('register.sent_title')} · ${t('brand.name')}`, robots: 'noindex' }
  return sendPage(
    c,
    <BlankLayout view={view} head={head}>
      <div className="auth-panel">
        <h1>{t('register.sent_title')}</h1>
        <p className="lead">{t('register.sent_text')}</p>
        <p>{t('register.sent_hint')}</p>
        <p>
          <a className="button secondary" href={loginLink(LOGIN_PATH, market, null)}>
            {t('register.back_to_login')}
          </a>
        </p>
      </div>
    </BlankLayout>,
    { caching: Caching.private, tracking: false },
  )
}

/**
 * The confirmation link's template the API fills in: `{origin}/{market}/confirm-email/{token}`, with the visitor's
 * `redirect` (percent-encoded) so that confirming brings them back where they were going.
 */
export function confirmLinkTemplateOf(origin: string, segment: string, redirect: string | null): string {
  const base = `${origin}/${segment}/confirm-email/{token}`
  if (!redirect) return base
  const encoded = encodeURIComponent(redirect).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `${base}?redirect=${encoded}`
}
