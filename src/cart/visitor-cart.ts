import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { Caching } from '../cache/answer-caching'
import { randomToken, sha256Hex } from '../crypto/digest'
import type { AppEnv, MarketEnv } from '../env'
import { keepCartCount, keptCartCount } from './cart-count'
import { errorName, logEvent } from '../ops/log'
import { cartCode } from '../../contract/cart-schemas'
import { type CartCalls, cartCalls } from '../upstream/contract/cart'

/** How long an anonymous visitor's cart code is kept by their browser. */
export const CART_COOKIE_DAYS = 30

/**
 * The cart cookie of a market's site (`__Host-Cart-it`): one per site, so a cart in one market never makes another
 * market's pages personal, and `ch-de` and `ch-fr` share the Swiss cart (one currency). It holds the random code only.
 */
export const cartCookieName = (country: string) => `__Host-Cart-${country}`

/** The cart code the browser holds for a site, when it is well-formed. */
export function readCartCode<E extends AppEnv>(c: Context<E>, country: string): string | null {
  const cookie = getCookie(c, cartCookieName(country))
  if (cookie === undefined) return null
  const parsed = cartCode.safeParse(cookie)
  return parsed.success ? parsed.data : null
}

/** Gives the browser its cart code: only adding to the cart does (HttpOnly, Secure, SameSite=Lax, Path=/). */
export function setCartCookie<E extends AppEnv>(c: Context<E>, country: string, code: string): void {
  setCookie(c, cartCookieName(country), code, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: CART_COOKIE_DAYS * 24 * 3600,
  })
}

/** Takes a site's cart cookie back (its cart was merged at login, or is gone). */
export function clearCartCookie<E extends AppEnv>(c: Context<E>, country: string): void {
  deleteCookie(c, cartCookieName(country), { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' })
}

/** The request's cart calls in its market: the customer's own cart when logged in, else the cookie's code's. */
export function visitorCart(c: Context<MarketEnv>): { calls: CartCalls; code: string | null; customer: boolean } {
  const { market, viewer } = c.var
  const client = c.var.upstream.forMarket(market)
  if (viewer)
    return { calls: cartCalls(client.withToken(viewer.token), { customer: true }), code: null, customer: true }
  const code = readCartCode(c, market.country)
  return { calls: cartCalls(client, { code }), code, customer: false }
}

/**
 * The header's cart count on a market page: null (no count, the page stays shared) for a visitor without a session or
 * a cart cookie, or in a market that does not sell online; else the number of items, and the page becomes personal.
 * Read from the API; with `kept` (the page cache's stitching) from the browser's copy when it has one for this cart,
 * else from the API and the copy given to the browser (`cart-count.ts`); given `read`, the count the page's own call
 * already answered (the account overview's: docs/decisions/066), that one. A cart that cannot be read shows no count
 * (logged); it never fails the page.
 */
export async function headerCartCount(
  c: Context<MarketEnv>,
  { kept = false, read }: { kept?: boolean; read?: number | null } = {},
): Promise<number | null> {
  const [market, available] = [c.get('market'), c.get('available')]
  if (!available.has('cart')) return null
  const holder = cartHolderOf(c)
  if (!holder) return null
  c.get('caching').lower(Caching.personal)
  if (read !== undefined) return read
  const known = kept ? keptCartCount(c, market.country, holder) : null
  if (known !== null) return known
  try {
    const count = (await visitorCart(c).calls.read())?.item_count ?? 0
    if (kept) keepCartCount(c, market.country, holder, count)
    return count
  } catch (error) {
    logEvent('warn', 'header_data_unavailable', { part: 'cart', error: errorName(error) })
    return null
  }
}

/** Keeps the count of a cart the visitor just changed (its answer's `item_count`) in their browser. */
export function keepChangedCartCount(c: Context<MarketEnv>, cart: { code: string; item_count: number }): void {
  const { market, viewer } = c.var
  keepCartCount(c, market.country, viewer?.sessionId ?? cart.code, cart.item_count)
}

/**
 * What ties this browser to its cart in the market: the session id when logged in, else its cart code; null when it
 * holds neither (its first add makes a cart).
 */
export function cartHolderOf(c: Context<MarketEnv>): string | null {
  return c.get('viewer')?.sessionId ?? readCartCode(c, c.get('market').country)
}

/**
 * The idempotency key upstream of an "add" form: the form's key, the line and what only this browser holds (its
 * session or cart code), so a double click adds once while two browsers given the same kept page — behind one address,
 * with one User-Agent — never share a key. A browser that holds neither gets a key of its own each time: nothing
 * tells its double click from another browser's add, and its add never joins an earlier one.
 *
 * @example
 * const key = await addKeyOf(form.key, { sku, quantity }, cartHolderOf(c))
 */
export async function addKeyOf(
  formKey: string,
  line: { sku: string; quantity: number },
  holder: string | null,
): Promise<string> {
  if (holder === null) return randomToken()
  return (await sha256Hex(`${formKey}|${line.sku}|${line.quantity}|${holder}`)).slice(0, 48)
}
