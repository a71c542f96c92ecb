import type { Upstream } from '../client'
import { type AddToCart, cartAnswer } from '../../../contract/cart-schemas'
import { dataOf, segment } from './answers'

/**
 * The visitor's cart in one market, over a client bound to the market (and, for a customer, their token): a
 * customer's calls go to their own cart (`api/account/cart…`), an anonymous visitor's to the cart of their code
 * (`api/carts/{code}…`). Every call answers null for a cart (or line) that is not there (404); refusals (a variant not
 * sold, not enough stock) throw `UpstreamError` with the API's `code`.
 *
 * @example
 * const cart = await cartCalls(upstream.forMarket(market), { code }).read()
 */
export const cartCalls = (client: Upstream, holder: { customer: true } | { code: string | null }) => {
  const base = 'customer' in holder ? 'account/cart' : holder.code ? `carts/${segment(holder.code)}` : null
  return {
    /** `GET api/account/cart` or `GET api/carts/{code}`: null when there is none. */
    read: () => (base ? dataOf(client.get(base, cartAnswer)) : Promise.resolve(null)),
    /**
     * `POST api/account/cart/items` or `POST api/carts/items` (creating the anonymous cart when there is no code):
     * once per `key`. Null when the code's cart is gone.
     */
    add: (line: Omit<AddToCart, 'cart'>) =>
      dataOf(
        'customer' in holder
          ? client.send('POST', 'account/cart/items', line, cartAnswer)
          : client.send('POST', 'carts/items', { ...line, cart: holder.code }, cartAnswer),
      ),
    /** `PUT …/items/{sku}`: null when the line is not there. */
    change: (sku: string, quantity: number) =>
      base
        ? dataOf(client.send('PUT', `${base}/items/${segment(sku)}`, { quantity }, cartAnswer))
        : Promise.resolve(null),
    /** `DELETE …/items/{sku}`: null when the line is not there. */
    remove: (sku: string) =>
      base
        ? dataOf(client.send('DELETE', `${base}/items/${segment(sku)}`, undefined, cartAnswer))
        : Promise.resolve(null),
    /**
     * `PUT …/discount` (`api/account/cart/discount` or `api/carts/{code}/discount`): puts a discount code on the cart;
     * a code that does not apply throws `UpstreamError` 422 with its refusal (`discount_expired`…). Null: no cart.
     */
    applyDiscount: (code: string) =>
      base ? dataOf(client.send('PUT', `${base}/discount`, { code }, cartAnswer)) : Promise.resolve(null),
    /** `DELETE …/discount`: takes the code off. Null: no cart. */
    removeDiscount: () =>
      base ? dataOf(client.send('DELETE', `${base}/discount`, undefined, cartAnswer)) : Promise.resolve(null),
    /** `POST api/account/cart/merge`: the anonymous cart of `code` folded into the customer's (then deleted). */
    merge: (code: string) => dataOf(client.send('POST', 'account/cart/merge', { cart: code }, cartAnswer)),
  }
}

export type CartCalls = ReturnType<typeof cartCalls>
