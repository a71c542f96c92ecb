import type { Context } from 'hono'
import { AccountLayout } from '../../components/account-layout'
import { type FieldErrors, FormErrors } from '../../components/form-field'
import { ConsentField } from '../../components/lead-form-frame'
import { withNotice } from '../../components/toast'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { readForm } from '../../forms/read-form'
import { sendRedirect } from '../../render/respond'
import { unlessRefused } from '../../upstream/errors'
import { newsletterRequestOf } from '../newsletter-request'
import { AccountFormToken, accountFormToken, accountFormTokenOf } from './account-form-token'
import { Ltr } from './ltr'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

/** Where the customer's own address stands with the market's newsletter. */
type Standing = { subscribed: boolean; pending: boolean }
type NewsletterProps = AccountPageProps & {
  email: string
  standing: Standing
  token: string
  privacyUrl: string | null
  errors?: FieldErrors
}

/**
 * The account's newsletter page: whether the customer's address receives this market's newsletter, waits for its
 * confirmation, or does not; one form that unsubscribes, or signs up (the consent ticked, then the mailed link: the
 * double opt-in is kept).
 */
export function AccountNewsletterPage({
  view,
  chrome,
  head,
  email,
  standing,
  token,
  privacyUrl,
  errors,
}: NewsletterProps) {
  const { t } = view
  const state = standing.subscribed ? 'subscribed' : standing.pending ? 'pending' : 'not_subscribed'
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('account_newsletter.title')}</h1>
      <div className="account-card">
        <p className="lead" data-newsletter-state={state}>
          {t(`account_newsletter.${state}`)}
        </p>
        <p>
          {t('profile.email')}: <Ltr>{email}</Ltr>
        </p>
        <form method="post" className="stacked-form" noValidate>
          <FormErrors view={view} errors={errors} />
          <AccountFormToken token={token} />
          {standing.subscribed ? (
            <>
              <input type="hidden" name="action" value="unsubscribe" />
              <button type="submit" className="button secondary">
                {t('newsletter.unsubscribe_submit')}
              </button>
            </>
          ) : (
            <>
              <p>{t('newsletter.intro')}</p>
              <input type="hidden" name="action" value="subscribe" />
              <ConsentField
                view={view}
                errors={errors}
                checked={false}
                privacyUrl={privacyUrl}
                label="newsletter.consent"
              />
              <button type="submit" className="button">
                {t('newsletter.submit')}
              </button>
            </>
          )}
        </form>
      </div>
    </AccountLayout>
  )
}

async function sendNewsletterPage(c: Context<MarketEnv>, errors?: FieldErrors, status: 200 | 400 | 422 = 200) {
  const email = c.var.viewer?.user.email
  if (!email) throw PageError.pageNotFound(c.req.url)
  const [standing, token] = await Promise.all([c.var.api.newsletter.status(email), accountFormToken(c, 'newsletter')])
  const privacyUrl = c.var.available.pageUrl('privacy-policy')
  return sendAccountPage(
    c,
    { key: 'account_newsletter.title' },
    (props) => (
      <AccountNewsletterPage
        {...props}
        email={email}
        standing={standing ?? { subscribed: false, pending: false }}
        token={token}
        privacyUrl={privacyUrl}
        errors={errors}
      />
    ),
    status,
  )
}

/** `GET /{m}/my-account/newsletter`. */
export const accountNewsletterPage = (c: Context<MarketEnv>) => sendNewsletterPage(c)

/**
 * `POST /{m}/my-account/newsletter`: only with the page's token; `unsubscribe` ends the market's newsletter for the
 * customer's address at once, `subscribe` (the consent ticked) sends the newsletter's confirmation link to it (the
 * form token's id is the sign-up's key).
 */
export async function submitAccountNewsletter(c: Context<MarketEnv>): Promise<Response> {
  const values = await readForm(c)
  const token = await accountFormTokenOf(c, 'newsletter', values)
  if (!token) return sendNewsletterPage(c, undefined, 400)
  const email = c.var.viewer?.user.email
  const secret = c.env.SESSION_SECRET
  const origin = configOf(c.env).publicOrigin
  if (!email || !secret || !origin) throw PageError.maintenance()
  const path = c.req.path
  if (values.action === 'unsubscribe') {
    await c.var.api.newsletter.unsubscribe(email)
    return sendRedirect(c, withNotice(path, 'newsletter_unsubscribed'), 303)
  }
  if (values.action !== 'subscribe') return sendNewsletterPage(c, { form: ['invalid'] }, 422)
  if (values.consent !== 'on') return sendNewsletterPage(c, { consent: ['newsletter_consent'] }, 422)
  const request = await newsletterRequestOf(c, secret, origin, { email, consent: true }, token.id)
  const { refused } = await unlessRefused(c.var.api.newsletter.subscribe(request), [422])
  if (refused) return sendNewsletterPage(c, refused.rejection.errors ?? { form: ['invalid'] }, 422)
  return sendRedirect(c, withNotice(path, 'newsletter_requested'), 303)
}
