import type { PlacedOrder } from './checkout-schemas'

/**
 * The provider's idempotency key of an order's payment attempt: the same attempt always creates the same payment
 * (a double click, a retry after a timeout), a new attempt a new one. 43 characters of base64url. The site pays with
 * it and settling tells the current attempt's payment by it, whichever backend settles.
 */
export async function paymentKeyOf(order: Pick<PlacedOrder, 'code' | 'payment_attempt'>): Promise<string> {
  const text = new TextEncoder().encode(`payment|${order.code}|${order.payment_attempt}`)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', text))
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
