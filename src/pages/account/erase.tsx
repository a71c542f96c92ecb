import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { type FieldErrors, Field, FormErrors } from '../../components/form-field'
import { DefaultLayout } from '../../components/layouts'
import { ATTEMPT_WINDOW_SECONDS } from '../../auth/attempts'
import { clearSessionCookie } from '../../auth/session-cookie'
import { sessionsOf } from '../../auth/sessions'
import type { MarketEnv } from '../../env'
import { readForm } from '../../forms/read-form'
import { errorName, logEvent } from '../../ops/log'
import { withinLimit } from '../../ops/rate-limit'
import { sendRedirect } from '../../render/respond'
import { accountErasureRequest } from '../../../contract/account-schemas'
import { fieldErrors } from '../../../contract/fields'
import { unlessRefused } from '../../upstream/errors'
import { AccountFormToken, accountFormToken, accountFormTokenOf } from './account-form-token'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

type EraseProps = AccountPageProps & { errors?: FieldErrors; token: string }

/** The goodbye page's path in a market: outside `/my-account`, which an erased (logged-out) visitor no longer reaches. */
export const erasedPathOf = (segment: string) => `/${segment}/account-deleted`

/**
 * "Delete your account": what goes (the person's data) and what stays (the orders, as the law requires), then the
 * password as the confirmation, and a way back that keeps everything.
 */
export function ErasePage({ view, chrome, head, errors, token }: EraseProps) {
  const { t } = view
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('erase.title')}</h1>
      <div className="account-card erase-card">
        <p className="lead">{t('erase.intro')}</p>
        <p>{t('erase.orders_kept')}</p>
        <form method="post" className="stacked-form" noValidate>
          <FormErrors view={view} errors={errors} />
          <AccountFormToken token={token} />
          <Field
            view={view}
            name="password"
            label={t('erase.password')}
            type="password"
            autoComplete="current-password"
            errors={errors}
          />
          <div className="form-actions">
            <button type="submit" className="button danger">
              {t('erase.submit')}
            </button>
            <a href={`${accountBase(view)}/profile`}>{t('erase.cancel')}</a>
          </div>
        </form>
      </div>
    </AccountLayout>
  )
}

async function sendErasePage(c: Context<MarketEnv>, errors?: FieldErrors, status: 200 | 400 | 422 | 429 = 200) {
  const token = await accountFormToken(c, 'erase')
  return sendAccountPage(
    c,
    { key: 'erase.title' },
    (props) => <ErasePage {...props} errors={errors} token={token} />,
    status,
  )
}

/** `GET /{m}/my-account/profile/delete`: the confirmation step. */
export const erasePage = (c: Context<MarketEnv>) => sendErasePage(c)

/**
 * `POST /{m}/my-account/profile/delete`: only with the page's token and the account's password (checked by the API,
 * counted like a login). Erased upstream (the person's data gone, the orders kept, every token revoked: docs/decisions/062),
 * every stored session of the account ends, the cookie is taken back, and the visitor sees the goodbye page.
 */
export async function eraseAccount(c: Context<MarketEnv>): Promise<Response> {
  const values = await readForm(c)
  if (!(await accountFormTokenOf(c, 'erase', values))) return sendErasePage(c, undefined, 400)
  const input = accountErasureRequest.safeParse(values)
  if (!input.success) return sendErasePage(c, fieldErrors(input.error), 422)
  const viewer = c.var.viewer
  if (!(await withinLimit(c.env.ACCOUNT_ATTEMPTS, `account-erase:${viewer?.user.id}`))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    return sendErasePage(c, { form: ['too_many_attempts'] }, 429)
  }
  const { refused } = await unlessRefused(c.var.account.erase(input.data.password), [422])
  if (refused) return sendErasePage(c, refused.rejection.errors, 422)
  if (viewer) {
    await sessionsOf(c)
      ?.endAllOf(viewer.user.id)
      .catch((error: unknown) => logEvent('error', 'sessions_not_ended', { error: errorName(error) }))
  }
  clearSessionCookie(c)
  return sendRedirect(c, erasedPathOf(c.var.market.segment), 303)
}

/** The goodbye page: the account is gone, the visitor logged out, and the way home. */
function ErasedPage({ view, chrome, head }: AccountPageProps) {
  const { t } = view
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="erased">
        <h1>{t('erased.title')}</h1>
        <p className="lead">{t('erased.text')}</p>
        <p>
          <a className="button" href={`/${view.market.segment}`}>
            {t('common.return_to_home')}
          </a>
        </p>
      </div>
    </DefaultLayout>
  )
}

/** `GET /{m}/account-deleted`: the same page for everyone (it says nothing of any account), in the market's language. */
export const erasedPage = (c: Context<MarketEnv>) =>
  sendAccountPage(c, { key: 'erased.title' }, (props) => <ErasedPage {...props} />)
