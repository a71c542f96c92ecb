import type { Context } from 'hono'
import { withNotice } from '../components/toast'
import type { MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { readForm } from '../forms/read-form'
import { formatMoney } from '../i18n/formats'
import { sendRedirect } from '../render/respond'
import type { Cart } from '../../contract/cart-schemas'
import { DISCOUNT_REFUSALS, type DiscountRefusal, discountCode } from '../../contract/discount-schemas'
import { isRejection } from '../upstream/errors'
import { keepChangedCartCount, visitorCart } from './visitor-cart'

/**
 * The cart's discount code (docs/decisions/051): its field in the cart's summary (a plain form: works without
 * JavaScript), the reason a code was refused, and the `POST`s that apply and remove it. The API prices the discount;
 * nothing of it comes from the browser but the code.
 */

/** A refusal named in the cart's address (`?discount=discount_expired`), or null. */
export const discountRefusalOf = (value: string | undefined): DiscountRefusal | null =>
  DISCOUNT_REFUSALS.find((refusal) => refusal === value) ?? null

/** The cart's path showing why a code was refused. */
export const cartWithRefusal = (segment: string, refusal: DiscountRefusal) =>
  `/${segment}/cart?discount=${encodeURIComponent(refusal)}`

/** The text of a refusal in the market's language (the minimum written as the market writes amounts). */
export function refusalText(view: MarketView, refusal: DiscountRefusal, cart: Cart | null): string {
  const minimum = cart?.discount?.minimum_subtotal ?? 0
  return view.t(`cart.discount_error.${refusal.slice('discount_'.length)}`, {
    amount: formatMoney(minimum, view.market.site.currency, view.market),
  })
}

/** The discount's line in a summary's list: `Discount (AURORA10)  −12,00 €`; nothing without one that applies. */
export function DiscountLine({ view, cart, amount }: { view: MarketView; cart: Cart; amount: number }) {
  if (!cart.discount || amount <= 0) return null
  return (
    <div className="discount-line">
      <dt>{view.t('cart.discount_line', { code: cart.discount.code })}</dt>
      <dd>−{formatMoney(amount, cart.currency, view.market)}</dd>
    </div>
  )
}

/**
 * The code field of the cart's summary: the code applied with a button to remove it, or a field to apply one, with
 * the reason the last code was refused (`refusal`) beside it, or the reason the cart's own code no longer applies.
 */
export function DiscountForm({
  view,
  cart,
  refusal,
}: {
  view: MarketView
  cart: Cart
  refusal: DiscountRefusal | null
}) {
  const { t } = view
  const base = `/${view.market.segment}/cart/discount`
  const applied = cart.discount
  const reason = refusal ?? applied?.refusal ?? null
  return (
    <div className="cart-discount">
      {applied && (
        <form method="post" action={`${base}/remove`} className="cart-discount-applied">
          <p>
            {t('cart.discount_line', { code: applied.code })}
            {applied.refusal === null && <> · −{formatMoney(applied.amount, cart.currency, view.market)}</>}
          </p>
          <button type="submit" className="link-button">
            {t('cart.discount_remove')}
          </button>
        </form>
      )}
      <form method="post" action={base} className="cart-discount-form">
        <label htmlFor="discount-code">{t('cart.discount_label')}</label>
        <div className="cart-discount-field">
          <input
            id="discount-code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            dir="ltr"
            required
            aria-invalid={reason ? true : undefined}
            aria-describedby={reason ? 'discount-code-error' : undefined}
          />
          <button type="submit" className="button secondary small">
            {t('cart.discount_apply')}
          </button>
        </div>
        {reason && (
          <p className="field-error" id="discount-code-error" role="alert">
            {refusalText(view, reason, cart)}
          </p>
        )}
      </form>
    </div>
  )
}

/**
 * `POST /{m}/cart/discount` (`code`): puts the code on the visitor's cart; `303` back to the cart, with a notice when
 * applied, or with the refusal (`?discount=discount_expired`) shown beside the field. A malformed code is unknown.
 */
export async function applyCartDiscount(c: Context<MarketEnv>): Promise<Response> {
  const segment = c.var.market.segment
  const code = discountCode.safeParse((await readForm(c)).code ?? '')
  if (!code.success) return sendRedirect(c, cartWithRefusal(segment, 'discount_unknown'), 303)
  try {
    const cart = await visitorCart(c).calls.applyDiscount(code.data)
    if (cart) keepChangedCartCount(c, cart)
    return sendRedirect(c, cart ? withNotice(`/${segment}/cart`, 'cart_discount_applied') : `/${segment}/cart`, 303)
  } catch (error) {
    const refusal = isRejection(error, 422) ? discountRefusalOf(error.rejection.code) : null
    if (refusal) return sendRedirect(c, cartWithRefusal(segment, refusal), 303)
    throw error
  }
}

/** `POST /{m}/cart/discount/remove`: takes the code off the visitor's cart; `303` back to the cart. */
export async function removeCartDiscount(c: Context<MarketEnv>): Promise<Response> {
  const cart = await visitorCart(c).calls.removeDiscount()
  const segment = c.var.market.segment
  return sendRedirect(c, cart ? withNotice(`/${segment}/cart`, 'cart_discount_removed') : `/${segment}/cart`, 303)
}
