import type { Context } from 'hono'
import { ATTEMPT_WINDOW_SECONDS, attemptKeys, attemptRefused, countAgainstAccount } from '../auth/attempts'
import { authOf } from '../auth/auth-of'
import { loginUrl, redirectTarget } from '../auth/redirect-target'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import { withNotice } from '../components/toast'
import type { Chrome, MarketView } from '../components/view'
import { configOf } from '../config'
import { TOKEN_FORMAT } from '../../contract/tokens'
import type { MarketEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { rememberMarket } from '../market/remembered-market'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { unlessRefused } from '../upstream/errors'
import { loadChrome } from './chrome'
import { confirmLinkTemplateOf } from './register'

/** What the page shows: the button that confirms a link's address, or why the link no longer works. */
type ConfirmState = { kind: 'form'; email: string; redirect: string | null } | { kind: 'invalid' }

/**
 * The confirmation page: opening the link never confirms by itself (mail scanners follow links), the visitor presses
 * the button, which posts to the same address.
 */
export function ConfirmEmailPage({
  view,
  chrome,
  head,
  state,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  state: ConfirmState
}) {
  const { t } = view
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="auth-panel narrow">
        {state.kind === 'invalid' ? (
          <>
            <h1>{t('confirm.invalid_title')}</h1>
            <p>{t('confirm.invalid_text')}</p>
            <p>
              <a className="button" href={`/${view.market.segment}/my-account`}>
                {t('confirm.to_account')}
              </a>
            </p>
          </>
        ) : (
          <>
            <h1>{t('confirm.title')}</h1>
            <p className="lead">
              {t('confirm.intro_before')} <bdi dir="ltr">{state.email}</bdi>
            </p>
            <form method="post" className="stacked-form" noValidate>
              {state.redirect && <input type="hidden" name="redirect" value={state.redirect} />}
              <button type="submit" className="button">
                {t('confirm.submit')}
              </button>
            </form>
          </>
        )}
      </div>
    </DefaultLayout>
  )
}

async function sendConfirmPage(c: Context<MarketEnv>, state: ConfirmState, status: 200 | 404 | 410 = 200) {
  const { market, t } = c.var
  const chrome = await loadChrome(c)
  const view = viewOf(c, t, market)
  const head: HeadProps = { title: `${t('confirm.title')} · ${t('brand.name')}`, robots: 'noindex' }
  // The token is in the URL: no other site may see it in a Referer, nor any tracker in the page's address.
  return sendPage(c, <ConfirmEmailPage view={view} chrome={chrome} head={head} state={state} />, {
    status,
    caching: Caching.private,
    headers: { 'Referrer-Policy': 'no-referrer' },
    tracking: false,
  })
}

/** Unknown links answer 404, used or expired ones 410, both with the same message. */
const spent = (c: Context<MarketEnv>, status: 404 | 410) => sendConfirmPage(c, { kind: 'invalid' }, status)

/** `GET /{m}/confirm-email/{token}?redirect=`: checks the link and shows the button; confirms nothing. */
export async function confirmEmailPage(c: Context<MarketEnv>): Promise<Response> {
  const token = c.req.param('token') ?? ''
  if (!TOKEN_FORMAT.test(token)) return spent(c, 404)
  const link = await unlessRefused(authOf(c).confirmationLink(token), [410])
  if (link.refused) return spent(c, 410)
  if (!link.answer) return spent(c, 404)
  return sendConfirmPage(c, {
    kind: 'form',
    email: link.answer.email,
    redirect: redirectTarget(c.req.query('redirect')),
  })
}

/**
 * `POST /{m}/confirm-email/{token}`: confirms the address once. A logged-in visitor goes on to the `redirect` (or
 * their account) with a notice; anyone else logs in, in this market, and comes back to the `redirect` afterwards.
 */
export async function submitConfirmEmail(c: Context<MarketEnv>): Promise<Response> {
  const token = c.req.param('token') ?? ''
  if (!TOKEN_FORMAT.test(token)) return spent(c, 404)
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
  const posted = typeof form.redirect === 'string' ? form.redirect : undefined
  const next = redirectTarget(posted) ?? `/${c.var.market.segment}/my-account`
  const confirmed = await unlessRefused(authOf(c).confirmEmail(token), [410, 422])
  if (confirmed.refused) return spent(c, 410)
  if (!confirmed.answer) return spent(c, 404)
  if (c.var.viewer) return sendRedirect(c, withNotice(next, 'email_confirmed'), 303)
  // The login page has no market in its path: it speaks the market of the link the visitor confirmed.
  rememberMarket(c, c.var.market.segment)
  return sendRedirect(c, withNotice(loginUrl(next), 'email_confirmed'), 303)
}

/**
 * `POST /{m}/my-account/confirm-email` (`redirect`: a same-site path to come back to, checkout's): the account
 * banner's "send the link again". Counted per client and per
 * account (each sends a mail; the API also bounds the links an account is sent); back to the account with a notice.
 */
export async function resendConfirmation(c: Context<MarketEnv>): Promise<Response> {
  const { viewer, market } = c.var
  if (!viewer) throw PageError.notFound('')
  const keys = await attemptKeys(c, 'confirm', `user:${viewer.user.id}`)
  if ((await attemptRefused(c, keys)) || (await countAgainstAccount(c, keys))) {
    c.header('Retry-After', String(ATTEMPT_WINDOW_SECONDS))
    throw new PageError(429, ErrorMessages.tooManyAttempts)
  }
  const origin = configOf(c.env).publicOrigin
  if (!origin) throw PageError.maintenance()
  // From checkout's "confirm your address first": the link, and this answer, lead back to the checkout.
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
  const back = redirectTarget(typeof form.redirect === 'string' ? form.redirect : undefined)
  await c.var.account.resendConfirmation(confirmLinkTemplateOf(origin, market.segment, back))
  return sendRedirect(c, withNotice(back ?? `/${market.segment}/my-account`, 'confirmation_sent'), 303)
}
