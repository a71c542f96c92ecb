import type { Context } from 'hono'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { errorName, logEvent } from '../../ops/log'
import { PaymentError } from '../../payments/provider'
import { paymentProviderOf } from '../../payments/providers'
import { sendRedirect } from '../../render/respond'
import type { PlacedOrder } from '../../../contract/checkout-schemas'
import { paymentKeyOf } from '../../../contract/payment-key'
import { isRejection } from '../../upstream/errors'
import { checkoutOf, checkoutPaths, sendCheckoutPage } from './checkout-page'

/**
 * Sends the buyer to pay a placed order, as "The flow" of the checkout says: a paid order goes to its result; a
 * failed payment first starts a new attempt; then the provider creates the attempt's payment once (its idempotency key
 * is the order and attempt: a double click, a refresh or two tabs pay the same payment), with the amount, currency and
 * market of the placed order (never the browser's), the payment is recorded on the order, and the buyer goes to the
 * provider (303); a bank-transfer order goes straight to its result, which shows how to pay. A provider that cannot be reached answers 503 with the way back: the order stays pending, the
 * result page offers to pay.
 */
export async function payOrder(c: Context<MarketEnv>, code: string, placed: PlacedOrder): Promise<Response> {
  const { market } = c.var
  const paths = checkoutPaths(market, code)
  if (placed.payment_state === 'paid' || placed.status !== 'pending_payment') return sendRedirect(c, paths.result, 303)
  // A bank transfer goes to no provider: the result page says where to send the money, and the order waits for it.
  if (placed.payment_method === 'bank_transfer') return sendRedirect(c, paths.result, 303)
  const calls = checkoutOf(c)
  let order = placed
  if (order.payment_state === 'failed') {
    try {
      order = (await calls.attempt(order.code)) ?? order
    } catch (error) {
      // Paid or closed in the meantime (a webhook, another tab): the result page says which.
      if (isRejection(error, 409)) return sendRedirect(c, paths.result, 303)
      throw error
    }
    if (order.payment_state !== 'pending') return sendRedirect(c, paths.result, 303)
  }
  const choice = paymentProviderOf(c.env)
  const origin = configOf(c.env).publicOrigin
  if (choice.kind !== 'ready' || !origin) return paymentUnavailable(c, code)
  try {
    const payment = await choice.provider.createPayment({
      orderCode: order.code,
      amount: order.total,
      currency: order.currency,
      market: order.market,
      returnUrl: `${origin}${paths.result}`,
      idempotencyKey: await paymentKeyOf(order),
      description: `Aurora Cycles order ${order.code}`,
      method: order.payment_method === 'bank_transfer' ? undefined : order.payment_method,
    })
    try {
      await calls.recordPayment(order.code, order.payment_attempt, payment.paymentId)
    } catch (error) {
      // A newer attempt was started elsewhere (another tab): that one is the order's now; its result page says so.
      if (isRejection(error, 409)) return sendRedirect(c, paths.result, 303)
      throw error
    }
    return sendRedirect(c, payment.redirectUrl, 303)
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error
    logEvent('error', 'payment_create_failed', { error: errorName(error), reason: error.code })
    return paymentUnavailable(c, code)
  }
}

/** 503: the payment could not start. Nothing is lost: the order waits, and its result page offers to pay. */
function paymentUnavailable(c: Context<MarketEnv>, code: string): Promise<Response> {
  const paths = checkoutPaths(c.var.market, code)
  return sendCheckoutPage(
    c,
    { key: 'checkout.unavailable_title' },
    ({ view }) => (
      <div className="checkout-page checkout-message">
        <h1>{view.t('checkout.unavailable_title')}</h1>
        <p className="lead">{view.t('checkout.unavailable_text')}</p>
        <p>
          <a className="button" href={paths.result}>
            {view.t('checkout.to_order')}
          </a>
        </p>
      </div>
    ),
    { status: 503, headers: { 'Retry-After': '60' } },
  )
}
