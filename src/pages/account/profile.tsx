import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { type FieldErrors, Field, FormErrors } from '../../components/form-field'
import { withNotice } from '../../components/toast'
import { sessionsOf, sessionUser } from '../../auth/sessions'
import type { MarketEnv } from '../../env'
import { readForm } from '../../forms/read-form'
import { errorName, logEvent } from '../../ops/log'
import { sendRedirect } from '../../render/respond'
import { profileInput } from '../../../contract/account-schemas'
import { fieldErrors } from '../../../contract/fields'
import type { User } from '../../../contract/schemas'
import { UpstreamError, unlessRefused } from '../../upstream/errors'
import { AccountFormToken, accountFormToken, accountFormTokenOf } from './account-form-token'
import { Ltr } from './ltr'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

type ProfileForm = { values: Record<string, string>; errors?: FieldErrors }
type ProfileProps = AccountPageProps & { user: User; form: ProfileForm; token: string }

/**
 * The profile page: the names and the phone (the e-mail shown, not changed: it is the login, docs/decisions/062), then
 * the ways to the password and to deleting the account.
 */
export function ProfilePage({ view, chrome, head, user, form, token }: ProfileProps) {
  const { t } = view
  const base = accountBase(view)
  const value = (name: 'first_name' | 'last_name' | 'phone') => form.values[name] ?? user[name] ?? ''
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('profile.title')}</h1>
      <section aria-labelledby="profile-form-title" className="account-card">
        <h2 id="profile-form-title">{t('profile.details')}</h2>
        <form method="post" className="stacked-form" noValidate>
          <FormErrors view={view} errors={form.errors} />
          <AccountFormToken token={token} />
          <Field
            view={view}
            name="first_name"
            label={t('profile.first_name')}
            autoComplete="given-name"
            maxLength={80}
            defaultValue={value('first_name')}
            errors={form.errors}
          />
          <Field
            view={view}
            name="last_name"
            label={t('profile.last_name')}
            autoComplete="family-name"
            maxLength={80}
            defaultValue={value('last_name')}
            errors={form.errors}
          />
          <Field
            view={view}
            name="phone"
            label={t('profile.phone')}
            type="tel"
            dir="ltr"
            autoComplete="tel"
            optional
            maxLength={30}
            defaultValue={value('phone')}
            errors={form.errors}
          />
          <div className="field">
            <p className="profile-email">
              {t('profile.email')}: <Ltr>{user.email}</Ltr>
            </p>
            <p className="hint">{t('profile.email_hint')}</p>
          </div>
          <button type="submit" className="button">
            {t('profile.save')}
          </button>
        </form>
      </section>
      <section aria-labelledby="security-title" className="account-card">
        <h2 id="security-title">{t('profile.security_title')}</h2>
        <ul className="account-links">
          <li>
            <a href={`${base}/profile/password`}>{t('password_change.title')}</a>
          </li>
          <li>
            <a href={`${base}/profile/delete`}>{t('erase.title')}</a>
          </li>
        </ul>
      </section>
    </AccountLayout>
  )
}

async function sendProfilePage(c: Context<MarketEnv>, form: ProfileForm, status: 200 | 400 | 422 = 200) {
  const user = await c.var.account.profile()
  if (!user) throw new UpstreamError('invalid', 'account/profile')
  const token = await accountFormToken(c, 'profile')
  return sendAccountPage(
    c,
    { key: 'profile.title' },
    (props) => <ProfilePage {...props} user={user} form={form} token={token} />,
    status,
  )
}

/** `GET /{m}/my-account/profile`. */
export const profilePage = (c: Context<MarketEnv>) => sendProfilePage(c, { values: {} })

/**
 * `POST /{m}/my-account/profile`: only with the page's token; checked with the shared schema here and by the API; the
 * session's user is written again, so the header greets the new name at once.
 */
export async function saveProfile(c: Context<MarketEnv>): Promise<Response> {
  const values = await readForm(c)
  if (!(await accountFormTokenOf(c, 'profile', values))) return sendProfilePage(c, { values }, 400)
  const input = profileInput.safeParse(values)
  if (!input.success) return sendProfilePage(c, { values, errors: fieldErrors(input.error) }, 422)
  const { answer, refused } = await unlessRefused(c.var.account.updateProfile(input.data), [422])
  if (refused) return sendProfilePage(c, { values, errors: refused.rejection.errors }, 422)
  const viewer = c.var.viewer
  const sessions = sessionsOf(c)
  if (answer && viewer && sessions) {
    await sessions
      .read(viewer.sessionId)
      .then((session) => session && sessions.save(viewer.sessionId, { ...session, user: sessionUser(answer) }))
      .catch((error: unknown) => logEvent('warn', 'session_not_renamed', { error: errorName(error) }))
  }
  return sendRedirect(c, withNotice(c.req.path, 'profile_saved'), 303)
}
