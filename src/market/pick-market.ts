import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { sendCartSwitchPage } from '../pages/market-switch'
import { cartLeftBehind } from './cart-on-switch'
import { CART_CONFIRMED_FIELD, PICK_FROM_FIELD, PICK_MARKET_PATH } from './pick-form'
import { findLiveMarket, rememberMarket } from './remembered-market'
import { samePageIn } from './same-page'

/**
 * `POST /_market` (the picker's forms): remembers the picked market in `CountryLocale` and goes to the page the
 * visitor was on (`from`, a same-site path of a market) in that market when it exists there, else to its home
 * (market/same-page.ts). Only a live market can be picked; like every form, it is same-origin only
 * (security/unsafe-requests.ts). A pick of another country while the cart here holds items first answers what happens
 * to it (it stays in this country, for the visitor's return: market/cart-on-switch.ts), with the pick to post again.
 */
export async function pickMarket(c: Context<AppEnv>): Promise<Response> {
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
  const segment = typeof form.market === 'string' ? form.market : null
  const sites = await c.var.lookups.sites()
  const picked = findLiveMarket(sites, segment)
  if (!picked) throw new PageError(400, ErrorMessages.unknownMarket)
  const from = typeof form[PICK_FROM_FIELD] === 'string' ? form[PICK_FROM_FIELD] : null
  if (from && form[CART_CONFIRMED_FIELD] !== '1') {
    const left = await cartLeftBehind(c, sites, from, picked.site.slug)
    if (left) {
      const fields = { action: PICK_MARKET_PATH, from: PICK_FROM_FIELD, confirmed: CART_CONFIRMED_FIELD }
      return sendCartSwitchPage(c, left, picked, from, fields)
    }
  }
  const target = await samePageIn(c, sites, from, picked)
  rememberMarket(c, `${picked.site.slug}-${picked.locale}`)
  return c.redirect(target, 303)
}
