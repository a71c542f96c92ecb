import { type CheckoutChoices, checkoutAnswer, placedOrderAnswer } from '../../../contract/checkout-schemas'
import type { Upstream } from '../client'
import { dataOf, segment } from './answers'

/**
 * The logged-in customer's checkout of a cart, over a client bound to their market and token (docs/api.md
 * "Checkout"). Every call answers null for a cart or order that is not theirs (404); refusals (a changed price, a
 * missing choice, an unconfirmed address…) throw `UpstreamError` with the API's `code` (`CHECKOUT_REFUSALS`).
 *
 * @example
 * const checkout = await checkoutCalls(upstream.forMarket(market).withToken(viewer.token)).read(code)
 */
export const checkoutCalls = (client: Upstream) => ({
  /** `GET api/account/checkout/{code}`: the cart, the choices so far, the amounts, the newest order placed from it. */
  read: (code: string) => dataOf(client.get(`account/checkout/${segment(code)}`, checkoutAnswer)),
  /** `PUT api/account/checkout/{code}`: every choice at once; answers the checkout as it now stands. */
  choose: (code: string, choices: CheckoutChoices) =>
    dataOf(client.send('PUT', `account/checkout/${segment(code)}`, choices, checkoutAnswer)),
  /**
   * `POST api/account/checkout/{code}/orders`: places the reviewed checkout. The same checkout placed again (a
   * double click, a refresh, two tabs) answers the same order; the first placement answers 201, later ones 200.
   */
  place: (code: string, reviewKey: string) =>
    dataOf(
      client.send('POST', `account/checkout/${segment(code)}/orders`, { review_key: reviewKey }, placedOrderAnswer),
    ),
  /**
   * `POST api/account/orders/{code}/payment-attempts`: the attempt to pay now: a new one after a failed payment, the
   * current one while it is pending (so a double click pays once); 409 `already_paid` or `order_closed`.
   */
  attempt: (orderCode: string) =>
    dataOf(client.send('POST', `account/orders/${segment(orderCode)}/payment-attempts`, {}, placedOrderAnswer)),
  /** `PUT api/account/orders/{code}/payment`: records the provider's payment of an attempt (409 `stale_attempt`). */
  recordPayment: (orderCode: string, attempt: number, paymentId: string) =>
    dataOf(
      client.send(
        'PUT',
        `account/orders/${segment(orderCode)}/payment`,
        { attempt, payment_id: paymentId },
        placedOrderAnswer,
      ),
    ),
})

export type CheckoutCalls = ReturnType<typeof checkoutCalls>
