import type { AddedToCart } from '../../client/islands/cart-sheet'
import type { Cart } from '../../contract/cart-schemas'
import { sizeName } from '../catalogue/size-name'
import type { Translate } from '../i18n/translator'
import { formatMoney } from '../i18n/formats'
import type { Market } from '../market/market'

/**
 * What the "add to cart" island's mini-cart shows after an add: the line of the SKU added (its picture, name, size,
 * colour, quantity and line total) and the cart's subtotal, in the market's language and money; null when the cart
 * has no such line. Its checkout is the cart's checkout where the market has one, else the cart page.
 *
 * @example
 * addedToCart(cart, 'STR9-S-RED', t, market, available.has('checkout'))
 */
export function addedToCart(
  cart: Cart,
  sku: string,
  t: Translate,
  market: Market,
  checkout: boolean,
): AddedToCart | null {
  const line = cart.lines.find((candidate) => candidate.sku === sku)
  if (!line) return null
  const money = (minor: number) => formatMoney(minor, market.site.currency, market)
  const base = `/${market.segment}`
  return {
    line: {
      name: line.product.name,
      image: line.product.image,
      size: sizeName(t, line.variant.size),
      colour: line.variant.colour_name,
      quantity: line.quantity,
      price: money(line.line_total),
    },
    subtotal: money(cart.subtotal),
    checkoutUrl: checkout ? `${base}/checkout/${cart.code}` : `${base}/cart`,
  }
}
