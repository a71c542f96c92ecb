import type { Context } from 'hono'
import { forgetCartCount } from '../../cart/cart-count'
import type { MarketView } from '../../components/view'
import type { MarketEnv } from '../../env'
import { ErrorMessages, PageError } from '../../errors/page-error'
import { FORM_TOKEN_FIELD } from '../../forms/form-token'
import { readForm } from '../../forms/read-form'
import { formatDate, formatMoney } from '../../i18n/formats'
import { sendRedirect } from '../../render/respond'
import type { Order } from '../../../contract/account-schemas'
import type { PlacedOrder } from '../../../contract/checkout-schemas'
import { AddressLines } from '../../components/address-lines'
import {
  CheckoutSteps,
  cartCodeOf,
  checkoutPaths,
  checkoutToken,
  postedToken,
  readCheckout,
  sendCheckoutPage,
} from './checkout-page'
import { payOrder } from './pay'
import { variantName } from '../account/ltr'
import { BankTransferDetails } from '../account/bank-transfer'

/** How often a result still waiting for the provider looks again by itself (seconds). */
export const RESULT_REFRESH_SECONDS = 5
/**
 * For how long after placing it does so: a page that reloads itself forever is a barrier (WCAG 2.2.1); a payment
 * still pending after this is one the buyer left, or a slow bank's, which the confirmation mail announces.
 */
export const RESULT_REFRESH_FOR_MS = 10 * 60 * 1000

/**
 * What the result page says: paid, failed (try again), waiting for the provider, not paid yet (no payment could be
 * started: pay), closed (cancelled), or placed to be paid by bank transfer (how to pay).
 */
type ResultState = 'paid' | 'failed' | 'pending' | 'unpaid' | 'closed' | 'transfer'

function stateOf(order: PlacedOrder): ResultState {
  if (order.payment_state === 'paid') return 'paid'
  if (order.status === 'cancelled' || order.status === 'refunded') return 'closed'
  if (order.payment_state === 'failed') return 'failed'
  // Placed to be paid by bank transfer: nothing to wait for here, the page says how to pay.
  if (order.payment_method === 'bank_transfer') return 'transfer'
  return order.payment_id === null ? 'unpaid' : 'pending'
}

/** The order's items and amounts, as the result and the account show them. */
function OrderSummaryTable({ view, order }: { view: MarketView; order: Order }) {
  const { t } = view
  const money = (minor: number) => formatMoney(minor, order.currency, view.market)
  // VAT inside the prices when the total is items and delivery; added on top (US sales tax) otherwise.
  const discount = order.discount?.amount ?? 0
  const taxAdded = order.tax > 0 && order.total > order.subtotal - discount + order.shipping
  return (
    <section className="result-summary" aria-labelledby="result-summary-title">
      <h2 id="result-summary-title">{t('cart.summary')}</h2>
      <ul className="checkout-summary-lines">
        {order.items.map((item, index) => (
          <li key={index}>
            <span className="checkout-summary-name">
              {item.name}
              <span>
                {item.variant || item.colour ? `${variantName(view, item)} · ` : ''}
                {t('checkout.quantity_short', { count: String(item.quantity) })}
              </span>
            </span>
            <span className="checkout-summary-total">{money(item.total)}</span>
          </li>
        ))}
      </ul>
      <dl className="checkout-amounts">
        <div>
          <dt>{t('checkout.items_amount')}</dt>
          <dd>{money(order.subtotal)}</dd>
        </div>
        {order.discount && (
          <div className="discount-line">
            <dt>{t('order.discount', { code: order.discount.code })}</dt>
            <dd>−{money(order.discount.amount)}</dd>
          </div>
        )}
        <div>
          <dt>{order.delivery.method === 'pickup' ? t('checkout.pickup_amount') : t('cart.delivery')}</dt>
          <dd>{order.shipping === 0 ? t('cart.delivery_free') : money(order.shipping)}</dd>
        </div>
        {taxAdded && (
          <div>
            <dt>{t('mail.order_tax_added')}</dt>
            <dd>{money(order.tax)}</dd>
          </div>
        )}
        <div className="checkout-total">
          <dt>{t('cart.total')}</dt>
          <dd>{money(order.total)}</dd>
        </div>
        {!taxAdded && order.tax > 0 && (
          <div>
            <dt>{t('order.tax')}</dt>
            <dd>{money(order.tax)}</dd>
          </div>
        )}
      </dl>
      <div className="result-delivery">
        <h3>{t('checkout.delivery_title')}</h3>
        {order.delivery.method === 'pickup' ? (
          <p>{t('order.delivery_pickup', { dealer: order.delivery.dealer ?? '' })}</p>
        ) : (
          order.shipping_address && <AddressLines address={order.shipping_address} tag={view.market.tag} />
        )}
      </div>
    </section>
  )
}

/**
 * "Confirm your e-mail address": bought before confirming it, the customer is asked now, with "send the link again"
 * (it comes back to this page).
 */
function ConfirmAsk({ view, email, back }: { view: MarketView; email: string; back: string }) {
  const { t } = view
  return (
    <div className="confirm-ask" role="note">
      <p>
        {t('checkout.result_confirm_email')} <bdi dir="ltr">{email}</bdi>
      </p>
      <form method="post" action={`/${view.market.segment}/my-account/confirm-email`}>
        <input type="hidden" name="redirect" value={back} />
        <button type="submit" className="button secondary">
          {t('confirm.resend')}
        </button>
      </form>
    </div>
  )
}

/** The result of paying: thanks and the order, or what went wrong and "try again", or "waiting for the provider". */
export function ResultPage({
  view,
  state,
  order,
  placed,
  email,
  unconfirmed,
  code,
  token,
  refreshing,
}: {
  view: MarketView
  state: ResultState
  refreshing: boolean
  order: Order
  placed: PlacedOrder
  email: string
  /** The account's address still waits for its confirmation: the page asks for it (docs/decisions/057). */
  unconfirmed: boolean
  code: string
  token: string
}) {
  const { t } = view
  const market = view.market
  const paths = checkoutPaths(market, code)
  const orderCode = <bdi dir="ltr">{order.code}</bdi>
  const payForm = (label: string) => (
    <form method="post" action={paths.result} className="result-pay">
      <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
      <button type="submit" className="button checkout-submit">
        {label}
      </button>
    </form>
  )
  return (
    <div className="checkout-page result-page">
      {state !== 'paid' && <CheckoutSteps view={view} current={3} paths={paths} />}
      <div className={`result-card result-${state}`}>
        <p className="result-badge">{t(`checkout.result_badge_${state}`)}</p>
        <h1>{t(`checkout.result_${state}_title`)}</h1>
        <p className="result-code">
          {t('checkout.order_code')} {orderCode} ·{' '}
          {t('order.placed_on', { date: formatDate(placed.placed_at, market.tag) })}
        </p>
        {state === 'paid' && (
          <>
            <p className="lead">
              {t('checkout.result_paid_mail')} <bdi dir="ltr">{email}</bdi>
            </p>
            {unconfirmed && <ConfirmAsk view={view} email={email} back={paths.result} />}
            <p>
              <a className="button" href={`/${market.segment}/my-account/orders/${encodeURIComponent(order.code)}`}>
                {t('checkout.to_account_order')}
              </a>{' '}
              <a className="button secondary" href={`/${market.segment}/products`}>
                {t('cart.continue')}
              </a>
            </p>
          </>
        )}
        {state === 'failed' && (
          <>
            <p className="lead">{t('checkout.result_failed_text')}</p>
            {payForm(t('checkout.try_again'))}
            <p>
              <a href={paths.review}>{t('checkout.back_to_review')}</a>
            </p>
          </>
        )}
        {state === 'pending' && (
          <>
            <p className="lead" role="status">
              {t('checkout.result_pending_text')}
            </p>
            {refreshing ? (
              <p className="checkout-note">
                {t('checkout.result_pending_refresh', { seconds: String(RESULT_REFRESH_SECONDS) })}
              </p>
            ) : (
              <p className="checkout-note">
                {t('checkout.result_pending_stopped')} <a href={paths.result}>{t('checkout.result_look_again')}</a>
              </p>
            )}
            <p>{t('checkout.result_pending_left')}</p>
            {payForm(t('checkout.pay'))}
          </>
        )}
        {state === 'unpaid' && (
          <>
            <p className="lead">{t('checkout.result_unpaid_text')}</p>
            {payForm(t('checkout.pay'))}
          </>
        )}
        {state === 'transfer' && (
          <>
            <p className="lead">{t('checkout.result_transfer_text')}</p>
            <BankTransferDetails
              view={view}
              account={market.site.settings.bank_transfer ?? null}
              amount={formatMoney(order.total, order.currency, market)}
              code={order.code}
              headingId="result-bank-title"
            />
            <p>
              <a
                className="button secondary"
                href={`/${market.segment}/my-account/orders/${encodeURIComponent(order.code)}`}
              >
                {t('checkout.to_account_order')}
              </a>
            </p>
          </>
        )}
        {state === 'closed' && (
          <>
            <p className="lead">{t('checkout.result_closed_text')}</p>
            <p>
              <a className="button" href={paths.cart}>
                {t('checkout.back_to_cart')}
              </a>
            </p>
          </>
        )}
      </div>
      <OrderSummaryTable view={view} order={order} />
    </div>
  )
}

/**
 * `GET /{m}/checkout/{code}/result` (the provider's return URL): the newest order placed from the cart, as it stands.
 * None yet: back to the checkout (303). Waiting for the provider, it looks again by itself every few seconds (a
 * `Refresh` header and `<meta http-equiv="refresh">`: no script needed) for the first minutes after placing, then
 * offers "look again".
 */
export async function resultPage(c: Context<MarketEnv>): Promise<Response> {
  const code = cartCodeOf(c)
  const [checkout, user] = await Promise.all([readCheckout(c, code), c.var.account.profile()])
  const paths = checkoutPaths(c.var.market, code)
  const placed = checkout.order
  if (!placed) return sendRedirect(c, paths.form, 303)
  const order = await c.var.account.order(placed.code)
  if (!order) throw PageError.pageNotFound(c.req.url)
  const state = stateOf(placed)
  // Paying takes the paid lines out of the cart (after the provider's webhook): the header's copy of the count goes.
  forgetCartCount(c, c.var.market.country)
  const token = await checkoutToken(c, code, 'retry')
  const email = c.var.viewer?.user.email ?? ''
  const waiting = state === 'pending' && Date.now() - Date.parse(placed.placed_at) < RESULT_REFRESH_FOR_MS
  return sendCheckoutPage(
    c,
    { key: `checkout.result_${state}_title` },
    ({ view }) => (
      <ResultPage
        view={view}
        state={state}
        order={order}
        placed={placed}
        email={email}
        unconfirmed={user?.email_confirmed === false}
        code={code}
        token={token}
        refreshing={waiting}
      />
    ),
    waiting ? { refreshSeconds: RESULT_REFRESH_SECONDS, headers: { Refresh: String(RESULT_REFRESH_SECONDS) } } : {},
  )
}

/**
 * `POST /{m}/checkout/{code}/result` (the form's token): "try again" after a failed payment (a new attempt, a new
 * payment) or "pay" while it waits (the same attempt: the same payment), then to the provider; a paid order, or none,
 * back to the result or the checkout.
 */
export async function submitResult(c: Context<MarketEnv>): Promise<Response> {
  const code = cartCodeOf(c)
  const form = await readForm(c)
  const token = await postedToken(c, code, 'retry', form[FORM_TOKEN_FIELD])
  if (!token) throw new PageError(400, ErrorMessages.badRequest)
  // A result page left open for a day: it is shown again as it now stands, with a fresh form.
  if (token.state === 'expired') return sendRedirect(c, checkoutPaths(c.var.market, code).result, 303)
  const checkout = await readCheckout(c, code)
  if (!checkout.order) return sendRedirect(c, checkoutPaths(c.var.market, code).form, 303)
  return payOrder(c, code, checkout.order)
}
