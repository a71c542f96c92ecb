import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { minorUnitDigits } from '../i18n/formats'
import { sendPage, sendRedirect } from '../render/respond'
import type { PaymentState } from './provider'
import { paymentProviderOf } from './providers'
import {
  actOnTestPayment,
  deliverTestWebhook,
  readTestPayment,
  TEST_ACTIONS,
  TEST_MERCHANT,
  TEST_PAYMENTS_PATH,
  type TestAction,
  type TestPayment,
} from './test-provider'

/** The test page's stylesheet: the staff console's (calm, no web fonts, no script). */
const STYLESHEET = '/console.css'

/**
 * `GET /_test-payments/{paymentId}`: the embedded test provider's page, standing for a provider's hosted checkout.
 * Marked "TEST PAYMENT — no money moves"; shows the merchant, the amount and the order; while the payment is pending,
 * three buttons: succeed, fail, leave pending. English (the provider's page, not the brand's), no script, the
 * console's strict policy, never cached or indexed. 404 unless the test provider is the deployment's (the embedded
 * API or a backend on this machine is the upstream) and the payment exists.
 */
export async function testPaymentPage(c: Context<AppEnv>): Promise<Response> {
  const payment = await paymentOf(c)
  return sendTestPage(c, payment)
}

/**
 * `POST /_test-payments/{paymentId}` (same-origin only, like every form of the site), `action` = succeed | fail |
 * pending: the pending payment takes its new state, the provider delivers the signed webhook to the Worker's webhook
 * route (the same path a provider's HTTP call takes), then the buyer goes back to the shop's `returnUrl` (303). A
 * payment already paid or failed answers 409 with its page and sends nothing.
 */
export async function submitTestPayment(c: Context<AppEnv>): Promise<Response> {
  const payment = await paymentOf(c)
  const action = (await readForm(c)).action
  if (!isAction(action))
    return sendTestPage(c, payment, {
      status: 400,
      notice: 'Choose one of the buttons: succeed, fail or leave pending.',
    })
  const outcome = await actOnTestPayment(c.env.DB, payment.id, action)
  if (outcome === null) throw PageError.pageNotFound(c.req.url)
  if (outcome === 'settled') {
    const now = (await readTestPayment(c.env.DB, payment.id)) ?? payment
    return sendTestPage(c, now, {
      status: 409,
      notice: `This payment is already ${STATE_WORDS[now.state]}: nothing changed.`,
    })
  }
  const config = configOf(c.env)
  await deliverTestWebhook(outcome.event, {
    secret: c.env.PAYMENT_WEBHOOK_SECRET as string,
    publicOrigin: config.publicOrigin as string,
    env: c.env,
    ctx: c.executionCtx,
  })
  return sendRedirect(c, outcome.payment.return_url, 303)
}

const isAction = (value: string | undefined): value is TestAction =>
  value !== undefined && Object.hasOwn(TEST_ACTIONS, value)

const STATE_WORDS: Record<PaymentState, string> = {
  pending: 'pending',
  paid: 'paid',
  failed: 'failed',
  cancelled: 'cancelled',
}
const STATE_BADGES: Record<PaymentState, string> = {
  pending: 'badge warn',
  paid: 'badge ok',
  failed: 'badge error',
  cancelled: 'badge error',
}

/** The payment of the path, when the test provider is the deployment's; else 404 (503 without the webhook secret). */
async function paymentOf(c: Context<AppEnv>): Promise<TestPayment> {
  const choice = paymentProviderOf(c.env)
  if (choice.kind === 'unavailable') throw new PageError(503, ErrorMessages.serverError, 'server-error')
  const payment =
    choice.kind === 'ready' && choice.provider.name === 'test'
      ? await readTestPayment(c.env.DB, c.req.param('id') ?? '')
      : null
  if (!payment) throw PageError.pageNotFound(c.req.url)
  return payment
}

/** An amount the provider's way: in English, with the currency's code or sign (`€1,749.00`, `CHF 2,490.00`). */
function amountText(minor: number, currency: string): string {
  const digits = minorUnitDigits(currency as Parameters<typeof minorUnitDigits>[0])
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits)
}

function sendTestPage(
  c: Context<AppEnv>,
  payment: TestPayment,
  { status, notice }: { status?: 400 | 409; notice?: string } = {},
) {
  const amount = amountText(payment.amount, payment.currency)
  const title = `Test payment: ${amount} to ${TEST_MERCHANT}`
  return sendPage(
    c,
    <html lang="en" dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="same-origin" />
        <title>{title}</title>
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="stylesheet" href={STYLESHEET} />
      </head>
      <body className="console">
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="console-header">
          <span className="console-brand">
            Test payment provider <span>no money moves</span>
          </span>
        </header>
        <main id="main" className="console-main">
          <p className="flash flash-error">
            <strong>TEST PAYMENT — no money moves.</strong> This page stands in for a payment provider's. Nothing is
            charged and no card is asked for.
          </p>
          {notice && (
            <p className="flash flash-error" role="alert">
              {notice}
            </p>
          )}
          <h1>{`Pay ${amount} to ${TEST_MERCHANT}`}</h1>
          <dl className="facts">
            <div>
              <dt>Merchant</dt>
              <dd>{TEST_MERCHANT}</dd>
            </div>
            <div>
              <dt>Amount</dt>
              <dd>{amount}</dd>
            </div>
            <div>
              <dt>For</dt>
              <dd>{payment.description}</dd>
            </div>
            <div>
              <dt>Order</dt>
              <dd>{payment.order_code}</dd>
            </div>
            {payment.method && (
              <div>
                <dt>Paying with</dt>
                <dd>{payment.method === 'paypal' ? 'PayPal' : 'Card'}</dd>
              </div>
            )}
            <div>
              <dt>State</dt>
              <dd>
                <span className={STATE_BADGES[payment.state]}>{STATE_WORDS[payment.state]}</span>
              </dd>
            </div>
          </dl>
          {payment.state === 'pending' ? (
            <form method="post" action={`${TEST_PAYMENTS_PATH}/${payment.id}`}>
              <h2>What happens to this payment?</h2>
              <p className="hint">
                {payment.updated_at !== payment.created_at
                  ? 'This payment was left pending. Settle it now: each choice sends the shop a signed webhook, then takes you back to the shop.'
                  : 'Each choice sends the shop a signed webhook, then takes you back to the shop.'}
              </p>
              <p>
                <button type="submit" name="action" value="succeed" className="button primary button-form">
                  {`Succeed: pay ${amount}`}
                </button>
                <button type="submit" name="action" value="fail" className="button danger button-form">
                  Fail the payment
                </button>
                <button type="submit" name="action" value="pending" className="button button-form">
                  Leave it pending
                </button>
              </p>
            </form>
          ) : (
            <p>
              <a className="button" href={payment.return_url}>
                Back to the shop
              </a>
            </p>
          )}
        </main>
      </body>
    </html>,
    {
      kind: 'test-payment',
      tracking: false,
      caching: Caching.never,
      status,
      headers: { 'X-Robots-Tag': 'noindex, nofollow' },
    },
  )
}
