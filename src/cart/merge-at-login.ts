import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { cartCode } from '../../contract/cart-schemas'
import { cartCalls } from '../upstream/contract/cart'
import { isUpstreamError } from '../upstream/errors'
import { cartCookieName, clearCartCookie } from './visitor-cart'

const CART_COOKIE = /^__Host-Cart-([a-z]{2,3})$/

/**
 * At login, every anonymous cart the browser holds (one cookie per market) is merged into the customer's cart of
 * that market (`POST api/account/cart/merge`: quantities added, capped by the stock; the anonymous cart deleted, its
 * code carried over, so a checkout link made before the login still leads to the cart) and its cookie cleared. A
 * cart already gone is only forgotten; a merge the API cannot do now keeps its cookie for the next login and never
 * fails the login (logged `cart_merge_failed`).
 */
export async function mergeHeldCarts(c: Context<AppEnv>, token: string, locale: string): Promise<void> {
  const held = Object.entries(getCookie(c))
    .map(([name, value]) => ({ country: CART_COOKIE.exec(name)?.[1], code: cartCode.safeParse(value) }))
    .filter(
      (cookie): cookie is { country: string; code: { success: true; data: string } } =>
        Boolean(cookie.country) && cookie.code.success,
    )
  await Promise.all(
    held.map(async ({ country, code }) => {
      try {
        await cartCalls(c.var.upstream.forMarket({ country, locale }).withToken(token), { customer: true }).merge(
          code.data,
        )
        clearCartCookie(c, country)
      } catch (error) {
        if (isUpstreamError(error) && error.status === 422) clearCartCookie(c, country)
        else logEvent('warn', 'cart_merge_failed', { cookie: cartCookieName(country), error: errorName(error) })
      }
    }),
  )
}
