import { availableFor } from '../market/request-availability'
import type { Context } from 'hono'
import { ATTEMPT_WINDOW_SECONDS, attemptKeys, attemptRefused, countAgainstAccount } from '../auth/attempts'
import { trustDevice } from '../auth/device-cookie'
import { logIn } from '../auth/log-in'
import { backToSite, LOGIN_MARKET_PARAM, type LoginMarket, loginLink, loginMarket } from '../auth/login-market'
import { FORGOT_PASSWORD_PATH, LOGIN_PATH, REGISTER_PATH } from '../auth/paths'
import { redirectTarget } from '../auth/redirect-target'
import { type FieldErrors, Field, FormErrors } from '../components/form-field'
import { BlankLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import { withNotice } from '../components/toast'
import type { View } from '../components/view'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { loadTranslator } from '../i18n/load-translator'
import { Caching } from '../cache/answer-caching'
import { configOf } from '../config'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { authOf } from '../auth/auth-of'
import { loginRequestSchema } from '../../contract/account-schemas'
import { emailSchema, fieldErrors, valueErrors } from '../../contract/fields'
import { unlessRefused } from '../upstream/errors'

type LoginState = {
  redirect: string | null
  email?: string
  /** The login form's message: wrong credentials or too many attempts. */
  failure?: 'auth.failed' | 'auth.too_many' | null
  errors?: FieldErrors
  /** The forgot-password form's state. */
  forgot?: { email: string; errors?: FieldErrors; failure?: 'auth.too_many' }
}

type LoginPageProps = {
  view: View
  head: HeadProps
  market: LoginMarket
  state: LoginState
  /** Whether signing up exists (the backend serves the account area): else no link to it. */
  signUp: boolean
  /** Whether a forgotten password can be reset (the account area again): else no form for it. */
  passwordReset: boolean
}

/**
 * The login page: the login form and, below it, "forgot password". Plain forms: they work without JavaScript. Each
 * carries the page's market, so that its answers speak the same language (auth/login-market.ts).
 */
export function LoginPage({ view, head, market, state, signUp, passwordReset }: LoginPageProps) {
  const { t } = view
  const forgot = state.forgot
  return (
    <BlankLayout view={view} head={head}>
      <div className="auth-panel">
        <h1>{t('auth.login_title')}</h1>
        <p className="lead">{t('auth.login_intro')}</p>
        <form method="post" action={LOGIN_PATH} className="stacked-form" noValidate>
          <FormErrors view={view} errors={state.errors} message={state.failure ? t(state.failure) : null} />
          <input type="hidden" name={LOGIN_MARKET_PARAM} value={market.segment} />
          {state.redirect && <input type="hidden" name="redirect" value={state.redirect} />}
          <Field
            view={view}
            name="email"
            label={t('auth.email')}
            type="email"
            autoComplete="username"
            dir="ltr"
            defaultValue={state.email}
            errors={state.errors}
          />
          <Field
            view={view}
            name="password"
            label={t('auth.password')}
            type="password"
            autoComplete="current-password"
            errors={state.errors}
          />
          <button type="submit" className="button">
            {t('auth.submit')}
          </button>
        </form>
        {signUp && (
          <p className="auth-switch">
            {t('register.new_here')}{' '}
            <a href={loginLink(REGISTER_PATH, market, state.redirect)}>{t('register.title')}</a>
          </p>
        )}

        {passwordReset && (
          <details className="forgot" open={forgot ? true : undefined}>
            <summary>{t('auth.forgot_title')}</summary>
            <form method="post" action={FORGOT_PASSWORD_PATH} className="stacked-form" noValidate>
              <p>{t('auth.forgot_intro')}</p>
              <input type="hidden" name={LOGIN_MARKET_PARAM} value={market.segment} />
              {state.redirect && <input type="hidden" name="redirect" value={state.redirect} />}
              <FormErrors view={view} errors={forgot?.errors} message={forgot?.failure ? t(forgot.failure) : null} />
              <Field
                view={view}
                name="forgot_email"
                label={t('auth.email')}
                type="email"
                autoComplete="email"
                dir="ltr"
                defaultValue={forgot?.email}
                errors={forgot?.errors}
              />
              <button type="submit" className="button secondary">
                {t('auth.forgot_submit')}
              </button>
            </form>
          </details>
        )}
        <p>
          <a href={backToSite(market, state.redirect)}>{t('auth.back_to_site')}</a>
        </p>
      </div>
    </BlankLayout>
  )
}

/** Renders the login page in its market's language and direction (auth/login-market.ts), with a form's state. */
async function sendLoginPage(
  c: Context<AppEnv>,
  market: LoginMarket,
  state: LoginState,
  status: 200 | 422 | 429 = 200,
) {
  const t = await loadTranslator(c.var.lookups.forMarket(market))
  const view = viewOf(c, t, null, false)
  const head: HeadProps = {
    title: `${t('auth.login_title')} · ${t('brand.name')}`,
    description: t('auth.login_intro'),
    robots: 'noindex',
  }
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': String(ATTEMPT_WINDOW_SECONDS) } : {}
  const available = await availableFor(c)
  const page = (
    <LoginPage
      view={view}
      head={head}
      market={market}
      state={state}
      signUp={available.has('sign-up')}
      passwordReset={available.has('password-reset')}
    />
  )
  return sendPage(c, page, {
    status,
    headers,
    caching: Caching.private,
  })
}

/** `GET /login` (guest only). */
export async function loginPage(c: Context<AppEnv>): Promise<Response> {
  return sendLoginPage(c, await loginMarket(c), { redirect: redirectTarget(c.req.query('redirect')) })
}

/**
 * `POST /login`: rate-limited per client (every attempt) and per account (failures; a browser with the account's
 * device cookie is not locked by failures from elsewhere); wrong credentials answer 422 with a message that does not
 * say whether the account exists; success gives the browser a device cookie for the account and goes to the
 * `redirect` (same-site paths only) or the market's home.
 */
export async function submitLogin(c: Context<AppEnv>): Promise<Response> {
  const form = await readForm(c)
  const market = await loginMarket(c, { market: form[LOGIN_MARKET_PARAM], redirect: form.redirect })
  const state: LoginState = { redirect: redirectTarget(form.redirect), email: form.email ?? '' }
  const credentials = loginRequestSchema.safeParse({ email: form.email ?? '', password: form.password ?? '' })
  if (!credentials.success) return sendLoginPage(c, market, { ...state, errors: fieldErrors(credentials.error) }, 422)
  const tooMany = () => sendLoginPage(c, market, { ...state, failure: 'auth.too_many' }, 429)
  const keys = await attemptKeys(c, 'login', credentials.data.email)
  if (await attemptRefused(c, keys)) return tooMany()
  const outcome = await logIn(c, market, credentials.data)
  if (outcome === 'limited' || (outcome === 'refused' && (await countAgainstAccount(c, keys)))) return tooMany()
  if (outcome === 'refused') return sendLoginPage(c, market, { ...state, failure: 'auth.failed' }, 422)
  await trustDevice(c, keys.account)
  return sendRedirect(c, state.redirect ?? market.home, 303)
}

/**
 * `POST /login/forgot`: the same answer whether or not the account exists; the API mails a single-use link to
 * `/{market}/update-password/{token}` in the visitor's market.
 */
export async function submitForgotPassword(c: Context<AppEnv>): Promise<Response> {
  const form = await readForm(c)
  const market = await loginMarket(c, { market: form[LOGIN_MARKET_PARAM], redirect: form.redirect })
  const email = emailSchema.safeParse(form.forgot_email ?? '')
  const forgot = { email: form.forgot_email ?? '' }
  const state: LoginState = { redirect: redirectTarget(form.redirect) }
  if (!email.success)
    return sendLoginPage(
      c,
      market,
      { ...state, forgot: { ...forgot, errors: { forgot_email: valueErrors(email.error) } } },
      422,
    )
  const tooMany = () => sendLoginPage(c, market, { ...state, forgot: { ...forgot, failure: 'auth.too_many' } }, 429)
  const keys = await attemptKeys(c, 'forgot', email.data)
  if ((await attemptRefused(c, keys)) || (await countAgainstAccount(c, keys))) return tooMany()
  const origin = configOf(c.env).publicOrigin
  if (!origin) throw PageError.maintenance()
  const linkBase = `${origin}/${market.segment}/update-password/`
  const { refused } = await unlessRefused(authOf(c, market).forgotPassword(email.data, linkBase), [429])
  if (refused) return tooMany()
  return sendRedirect(c, withNotice(loginLink(LOGIN_PATH, market, state.redirect), 'reset_link_sent'), 303)
}
