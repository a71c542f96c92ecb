import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { cartWithRefusal, discountRefusalOf } from '../../cart/cart-discount'
import { withNotice } from '../../components/toast'
import type { MarketView } from '../../components/view'
import type { MarketEnv } from '../../env'
import { ErrorMessages, PageError } from '../../errors/page-error'
import { FORM_TOKEN_FIELD } from '../../forms/form-token'
import { readForm } from '../../forms/read-form'
import { sendRedirect } from '../../render/respond'
import { type Checkout, checkoutSchema } from '../../../contract/checkout-schemas'
import { unlessRefused } from '../../upstream/errors'
import { AddressLines } from '../../components/address-lines'
import {
  CheckoutAmounts,
  CheckoutSteps,
  cartCodeOf,
  checkoutOf,
  checkoutPaths,
  checkoutToken,
  moneyOf,
  postedToken,
  readCheckout,
  sendCheckoutPage,
  variantText,
} from './checkout-page'
import { payOrder } from './pay'

/** Why the review is shown again: the prices changed since it was shown, or the checkout did (another tab). */
type ReviewChange = 'prices' | 'checkout' | null
const changeOf = (value: string | undefined): ReviewChange =>
  value === 'prices' || value === 'checkout' ? value : null

/** One reviewed part with its "change" link back to the form. */
function ReviewPart({
  view,
  title,
  id,
  href,
  children,
}: {
  view: MarketView
  title: string
  id: string
  href: string
  children: ReactNode
}) {
  return (
    <section className="review-part" aria-labelledby={id}>
      <div className="review-part-head">
        <h2 id={id}>{title}</h2>
        <a href={href}>
          {view.t('checkout.change')}
          <span className="visually-hidden">: {title}</span>
        </a>
      </div>
      {children}
    </section>
  )
}

/** The review: every line and amount, the delivery, the addresses, the payment method, then "place order and pay". */
export function ReviewPage({
  view,
  checkout,
  code,
  token,
  change,
}: {
  view: MarketView
  checkout: Checkout
  code: string
  token: string
  change: ReviewChange
}) {
  const { t } = view
  const paths = checkoutPaths(view.market, code)
  const money = moneyOf(view, checkout.cart.currency)
  const { choices, cart } = checkout
  const dealer = choices.delivery?.dealer ?? null
  return (
    <div className="checkout-page">
      <CheckoutSteps view={view} current={2} paths={paths} />
      <h1>{t('checkout.review_title')}</h1>
      {change && (
        <div className="checkout-alert" role="alert">
          <h2>{t(`checkout.changed_${change}_title`)}</h2>
          <p>{t(`checkout.changed_${change}_text`)}</p>
        </div>
      )}
      <div className="checkout-layout">
        <div className="review-parts">
          <ReviewPart view={view} title={t('checkout.review_items')} id="review-items" href={paths.cart}>
            <ul className="review-lines">
              {cart.lines.map((line) => (
                <li key={line.sku}>
                  {line.product.image ? (
                    <img src={line.product.image} alt="" width={120} height={80} loading="lazy" decoding="async" />
                  ) : (
                    <span className="cart-line-noimage" aria-hidden="true" />
                  )}
                  <div className="review-line-text">
                    <h3>{line.product.name}</h3>
                    <p>{variantText(view, line)}</p>
                    <p>
                      {t('checkout.quantity_short', { count: String(line.quantity) })} ·{' '}
                      {line.unit_price === null
                        ? t('cart.unavailable_line')
                        : t('cart.unit_price', { price: money(line.unit_price) })}
                    </p>
                  </div>
                  <p className="review-line-total">
                    <span className="visually-hidden">{t('cart.line_total')}: </span>
                    {money(line.line_total)}
                  </p>
                </li>
              ))}
            </ul>
          </ReviewPart>
          <ReviewPart
            view={view}
            title={t('checkout.delivery_title')}
            id="review-delivery"
            href={`${paths.form}#checkout-delivery-title`}
          >
            {choices.delivery?.method === 'pickup' && dealer ? (
              <>
                <p className="review-strong">{t('order.delivery_pickup', { dealer: dealer.name })}</p>
                <address>
                  <span className="address-line">
                    <bdi>{dealer.address}</bdi>
                  </span>
                  <span className="address-line">
                    <bdi>{dealer.city}</bdi>
                  </span>
                </address>
                <p className="checkout-note">{t('checkout.pickup_when')}</p>
              </>
            ) : (
              <>
                <p className="review-strong">{t('checkout.home')}</p>
                {choices.shipping_address && <AddressLines address={choices.shipping_address} tag={view.market.tag} />}
                {cart.shipping && (
                  <p className="checkout-note">
                    {t('cart.delivery_days', {
                      min: String(cart.shipping.days[0]),
                      max: String(cart.shipping.days[1]),
                    })}
                  </p>
                )}
              </>
            )}
          </ReviewPart>
          <ReviewPart
            view={view}
            title={t('checkout.billing_legend')}
            id="review-billing"
            href={`${paths.form}#checkout-addresses-title`}
          >
            {choices.billing_same ? (
              <p>{t('checkout.billing_same')}</p>
            ) : (
              choices.billing_address && <AddressLines address={choices.billing_address} tag={view.market.tag} />
            )}
          </ReviewPart>
          <ReviewPart
            view={view}
            title={t('checkout.payment_title')}
            id="review-payment"
            href={`${paths.form}#checkout-payment-title`}
          >
            <p className="review-strong">
              {choices.payment_method ? t(`payment_method.${choices.payment_method}`) : ''}
            </p>
            <p className="checkout-note">{t('checkout.payment_hint')}</p>
          </ReviewPart>
        </div>
        <aside className="checkout-summary" aria-labelledby="review-amounts-title">
          <h2 id="review-amounts-title">{t('cart.summary')}</h2>
          <CheckoutAmounts view={view} checkout={checkout} />
          <form method="post" action={paths.review} className="review-place">
            <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
            <input type="hidden" name="review_key" value={checkout.review_key} />
            <button type="submit" className="button checkout-submit">
              {t('checkout.place')}
            </button>
            <p className="checkout-note">{t('checkout.place_note')}</p>
          </form>
        </aside>
      </div>
    </div>
  )
}

/**
 * `GET /{m}/checkout/{code}/review` (`?changed=prices|checkout` after a refused placement): what placing will buy.
 * An empty cart, or a line that cannot be bought as it stands, goes back to the cart, choices missing to the form (303).
 */
export async function reviewPage(c: Context<MarketEnv>): Promise<Response> {
  const code = cartCodeOf(c)
  const checkout = await readCheckout(c, code)
  const paths = checkoutPaths(c.var.market, code)
  if (checkout.cart.lines.length === 0) return sendRedirect(c, paths.cart, 303)
  // A line that cannot be bought as it stands (sold out, too few left) is the cart's to fix, not the form's.
  if (checkout.cart.lines.some((line) => !line.available))
    return sendRedirect(c, withNotice(paths.cart, 'cart_changed'), 303)
  // A code the cart carries that no longer applies: the cart says why (remove it, or buy enough for it).
  const discountRefusal = checkout.cart.discount?.refusal
  if (discountRefusal) return sendRedirect(c, cartWithRefusal(c.var.market.segment, discountRefusal), 303)
  if (!checkout.ready) return sendRedirect(c, paths.form, 303)
  const token = await checkoutToken(c, code, 'place')
  const change = changeOf(c.req.query('changed'))
  return sendCheckoutPage(c, { key: 'checkout.review_title' }, ({ view }) => (
    <ReviewPage view={view} checkout={checkout} code={code} token={token} change={change} />
  ))
}

/**
 * `POST /{m}/checkout/{code}/review` (`review_key`, the form's token): places the reviewed checkout and sends the
 * buyer to pay (src/pages/checkout/pay.tsx). The API re-checks everything now: a changed price or checkout goes back
 * to the review saying so, a line that cannot be bought to the cart, a dealer gone to the form, an unconfirmed
 * address or a missing choice to the form (303 each). The same checkout placed twice is one order and one payment.
 */
export async function submitReview(c: Context<MarketEnv>): Promise<Response> {
  const code = cartCodeOf(c)
  const form = await readForm(c)
  const reviewKey = checkoutSchema.shape.review_key.safeParse(form.review_key)
  const token = await postedToken(c, code, 'place', form[FORM_TOKEN_FIELD])
  if (!reviewKey.success || !token) throw new PageError(400, ErrorMessages.badRequest)
  const paths = checkoutPaths(c.var.market, code)
  // A review left open for a day is not placed as it was: it is shown again as it now stands, with a fresh form.
  if (token.state === 'expired') return sendRedirect(c, paths.review, 303)
  const { answer, refused } = await unlessRefused(checkoutOf(c).place(code, reviewKey.data), [403, 409, 422])
  if (refused) {
    switch (refused.rejection.code) {
      case 'prices_changed':
        return sendRedirect(c, `${paths.review}?changed=prices`, 303)
      case 'checkout_changed':
        return sendRedirect(c, `${paths.review}?changed=checkout`, 303)
      case 'unavailable':
        return sendRedirect(c, withNotice(paths.cart, 'cart_changed'), 303)
      case 'payment_in_progress':
        // An earlier order of this cart is being paid: its result says how it stands (and offers to pay it).
        return sendRedirect(c, paths.result, 303)
      case 'dealer_unavailable':
        return sendRedirect(c, `${paths.form}?changed=dealer`, 303)
      case 'discount_unavailable': {
        // The code expired, was disabled or ran out since the review: not placed; the cart says so and why.
        const reason = discountRefusalOf(refused.rejection.errors?.discount?.[0]) ?? 'discount_unknown'
        return sendRedirect(c, withNotice(cartWithRefusal(c.var.market.segment, reason), 'cart_discount_ended'), 303)
      }
      case 'email_unconfirmed':
        // A backend of the brand's that sells only to confirmed addresses: the form's page says so.
        return sendRedirect(c, `${paths.form}?confirm=email`, 303)
      default:
        // `incomplete`: the form says what is missing.
        return sendRedirect(c, paths.form, 303)
    }
  }
  if (!answer) throw PageError.pageNotFound(c.req.url)
  return payOrder(c, code, answer)
}
