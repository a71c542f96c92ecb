import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { type FieldErrors, Field, FormErrors } from '../../components/form-field'
import { NewPasswordFields } from '../../components/new-password-fields'
import { withNotice } from '../../components/toast'
import { ATTEMPT_WINDOW_SECONDS } from '../../auth/attempts'
import { sessionsOf } from '../../auth/sessions'
import type { MarketEnv } from '../../env'
import { readForm } from '../../forms/read-form'
import { errorName, logEvent } from '../../ops/log'
import { withinLimit } from '../../ops/rate-limit'
import { sendRedirect } from '../../render/respond'
import { passwordChangeRequest } from '../../../contract/account-schemas'
import { fieldErrors } from '../../../contract/fields'
import { unlessRefused } from '../../upstream/errors'
import { AccountFormToken, accountFormToken, accountFormTokenOf } from './account-form-token'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

type PasswordProps = AccountPageProps & { errors?: FieldErrors; token: string }

/** "Change your password": the current one, the new one under the site's rules, and the new one again. */
export function PasswordPage({ view, chrome, head, errors, token }: PasswordProps) {
  const { t } = view
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('password_change.title')}</h1>
      <p className="lead">{t('password_change.intro')}</p>
      <form method="post" className="stacked-form account-card" noValidate>
        <FormErrors view={view} errors={errors} />
        <AccountFormToken token={token} />
        <Field
          view={view}
          name="current_password"
          label={t('password_change.current')}
          type="password"
          autoComplete="current-password"
          errors={errors}
        />
        <NewPasswordFields view={view} errors={errors} />
        <div className="form-actions">
          <button type="submit" className="button">
            {t('password_change.submit')}
          </button>
          <a href={`${accountBase(view)}/profile`}>{t('profile.back')}</a>
        </div>
      </form>
    </AccountLayout>
  )
}

async function sendPasswordPage(c: Context<MarketEnv>, errors?: FieldErrors, status: 200 | 400 | 422 | 429 = 200) {
  const token = await accountFormToken(c, 'password')
  return sendAccountPage(
    c,
    { key: 'password_change.title' },
    (props) => <PasswordPage {...props} errors={errors} token={token} />,
    status,
  )
}

/** `GET /{m}/my-account/profile/password`. */
export const passwordPage = (c: Context<MarketEnv>) => sendPasswordPage(c)

/**
 * `POST /{m}/my-account/profile/password`: only with the page's token; the rules and the repetition checked here, the
 * current password by the API (counted against the account like a login: past `ACCOUNT_ATTEMPTS`, 429). Changed, every
 * other session of the account ends (upstream, their tokens revoked; here, the stored sessions), this one stays.
 */
export async function changePassword(c: Context<MarketEnv>): Promise<Response> {
  const values = await readForm(c)
  if (!(await accountFormTokenOf(c, 'password', values))) return sendPasswordPage(c, undefined, 400)
  const input = passwordChangeRequest.safeParse(values)
  if (!input.success) return sendPasswordPage(c, fieldErrors(input.error), 422)
  if (values.password !== values.password_confirmation) {
    return sendPasswordPage(c, { password_confirmation: ['password_mismatch'] }, 422)
  }
  const viewer = c.var.viewer
  if (!(await withinLimit(c.env.ACCOUNT_ATTEMPTS, `password-change:${viewer?.user.id}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return sendPasswordPage(c, { form: ['too_many_attempts'] }, 429)
  }
  const { refused } = await unlessRefused(c.var.account.changePassword(input.data), [422])
  if (refused) return sendPasswordPage(c, refused.rejection.errors, 422)
  if (viewer) {
    // Their tokens are revoked upstream already: a store that fails here is logged, and their next call ends them.
    await sessionsOf(c)
      ?.endAllOf(viewer.user.id, viewer.sessionId)
      .catch((error: unknown) => logEvent('error', 'sessions_not_ended', { error: errorName(error) }))
  }
  return sendRedirect(c, withNotice(`/${c.var.market.segment}/my-account/profile`, 'password_updated'), 303)
}
