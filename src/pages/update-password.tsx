import type { Context } from 'hono'
import { loginPageOf } from '../auth/login-market'
import { sessionsOf } from '../auth/sessions'
import { type FieldErrors, FormErrors } from '../components/form-field'
import { NewPasswordFields } from '../components/new-password-fields'
import { DefaultLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import { withNotice } from '../components/toast'
import type { Chrome, MarketView } from '../components/view'
import { TOKEN_FORMAT } from '../../contract/tokens'
import type { MarketEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { readForm } from '../forms/read-form'
import { Caching } from '../cache/answer-caching'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { authOf } from '../auth/auth-of'
import { newPasswordSchema } from '../../contract/account-schemas'
import { valueErrors } from '../../contract/fields'
import { unlessRefused } from '../upstream/errors'
import { loadChrome } from './chrome'

/** What the page shows: the form (for the link's account), or why the link no longer works. */
type ResetState = { kind: 'form'; email: string; errors?: FieldErrors } | { kind: 'invalid' }

/** The update-password page: the rules, the new password twice; or a clear message when the link is spent. */
export function UpdatePasswordPage({
  view,
  chrome,
  head,
  state,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  state: ResetState
}) {
  const { t } = view
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="auth-panel narrow">
        {state.kind === 'invalid' ? (
          <>
            <h1>{t('password.link_invalid_title')}</h1>
            <p>{t('password.link_invalid_text')}</p>
            <p>
              <a className="button" href={loginPageOf(view.market.segment)}>
                {t('password.request_new')}
              </a>
            </p>
          </>
        ) : (
          <>
            <h1>{t('password.update_title')}</h1>
            <p className="lead">{t('password.update_intro', { email: state.email })}</p>
            <form method="post" className="stacked-form" noValidate>
              <FormErrors view={view} errors={state.errors} />
              <input type="hidden" name="username" value={state.email} autoComplete="username" />
              <NewPasswordFields view={view} errors={state.errors} />
              <button type="submit" className="button">
                {t('password.submit')}
              </button>
            </form>
          </>
        )}
      </div>
    </DefaultLayout>
  )
}

async function sendResetPage(c: Context<MarketEnv>, state: ResetState, status: 200 | 404 | 410 | 422 = 200) {
  const { market, t } = c.var
  const chrome = await loadChrome(c)
  const view = viewOf(c, t, market)
  const head: HeadProps = { title: `${t('password.update_title')} · ${t('brand.name')}`, robots: 'noindex' }
  // The token is in the URL: no other site may see it in a Referer, nor any tracker in the page's address.
  return sendPage(c, <UpdatePasswordPage view={view} chrome={chrome} head={head} state={state} />, {
    status,
    caching: Caching.private,
    headers: { 'Referrer-Policy': 'no-referrer' },
    tracking: false,
  })
}

/** Unknown links answer 404, expired or used ones 410, both with the same message and a way to ask again. */
const spent = (c: Context<MarketEnv>, status: 404 | 410) => sendResetPage(c, { kind: 'invalid' }, status)

/** `GET /{m}/update-password/{token}` (guest only): checks the link before asking for anything. */
export async function updatePasswordPage(c: Context<MarketEnv>): Promise<Response> {
  const token = c.req.param('token') ?? ''
  if (!TOKEN_FORMAT.test(token)) return spent(c, 404)
  const reset = await unlessRefused(authOf(c).resetLink(token), [410])
  if (reset.refused) return spent(c, 410)
  return reset.answer ? sendResetPage(c, { kind: 'form', email: reset.answer.email }) : spent(c, 404)
}

/**
 * `POST /{m}/update-password/{token}`: the rules and the repetition checked here and by the API; the new password
 * ends every session of the account (upstream tokens and the sessions stored here), then the visitor logs in.
 */
export async function submitUpdatePassword(c: Context<MarketEnv>): Promise<Response> {
  const token = c.req.param('token') ?? ''
  if (!TOKEN_FORMAT.test(token)) return spent(c, 404)
  const form = await readForm(c)
  const email = form.username ?? ''
  const errors: FieldErrors = {}
  const password = newPasswordSchema.safeParse(form.password ?? '')
  if (!password.success) errors.password = valueErrors(password.error)
  else if (form.password !== form.password_confirmation) errors.password_confirmation = ['password_mismatch']
  if (Object.keys(errors).length > 0) return sendResetPage(c, { kind: 'form', email, errors }, 422)

  const reset = await unlessRefused(authOf(c).resetPassword(token, form.password ?? ''), [410, 422])
  if (reset.refused?.status === 422)
    return sendResetPage(c, { kind: 'form', email, errors: reset.refused.rejection.errors }, 422)
  if (reset.refused) return spent(c, 410)
  if (!reset.answer) return spent(c, 404)
  // The password is changed: a store that fails to end the other sessions is logged, not shown (their tokens are
  // revoked upstream already, so their next account call ends them anyway).
  await sessionsOf(c)
    ?.endAllOf(reset.answer.user_id)
    .catch((error: unknown) => logEvent('error', 'sessions_not_ended', { error: errorName(error) }))
  return sendRedirect(c, withNotice(loginPageOf(c.var.market.segment), 'password_changed'), 303)
}
