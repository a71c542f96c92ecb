import type { Context } from 'hono'
import { readCartCode } from '../cart/visitor-cart'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import type { Site } from '../../contract/schemas'
import { cartCalls } from '../upstream/contract/cart'
import { findLiveMarket } from './remembered-market'

/** The market a visitor leaves with items in its cart: its site, its locale and how many items. */
export type CartLeftBehind = { site: Site; locale: string; count: number }

/**
 * What picking another market does to the visitor's cart (docs/decisions/062): a cart belongs to a country's site
 * (its currency, prices and delivery; `__Host-Cart-{country}`, a customer's cart per site upstream), so a pick within
 * the country (`ch-de` → `ch-fr`) keeps it in hand, and a pick of another country leaves it where it is, kept for
 * the visitor's return (the cookie for `CART_COOKIE_DAYS`, a customer's for good). Answers the cart left behind when
 * it holds items, else null (no cart, an empty one, the same country, a page of no market, a cart that cannot be read).
 *
 * @example
 * const left = await cartLeftBehind(c, sites, '/it-it/products/aurora-strada-9', 'de')
 */
export async function cartLeftBehind(
  c: Context<AppEnv>,
  sites: Site[],
  from: string | null,
  pickedCountry: string,
): Promise<CartLeftBehind | null> {
  const here = findLiveMarket(sites, from?.split('/')[1])
  if (!here || here.site.slug === pickedCountry || !here.site.settings.sells_online) return null
  const viewer = c.var.viewer
  const code = viewer ? null : readCartCode(c, here.site.slug)
  if (!viewer && !code) return null
  const client = c.var.upstream.forMarket({ country: here.site.slug, locale: here.locale })
  const calls = viewer
    ? cartCalls(client.withToken(viewer.token), { customer: true })
    : cartCalls(client, { code: code ?? null })
  try {
    const count = (await calls.read())?.item_count ?? 0
    return count > 0 ? { ...here, count } : null
  } catch (error) {
    // A cart that cannot be read does not hold the visitor back: the pick goes through, the cart stays where it is.
    logEvent('warn', 'cart_not_read', { part: 'market_switch', error: errorName(error) })
    return null
  }
}
