import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { siteUrl } from './market'
import { findLiveMarket, rememberMarket } from './remembered-market'

/** Where the pickers' forms post. */
export const PICK_MARKET_PATH = '/_market'

/**
 * `POST /_market` (the picker's forms): remembers the picked market in `CountryLocale` and goes there. Only a live
 * market can be picked; like every form, it is same-origin only (security/unsafe-requests.ts).
 */
export async function pickMarket(c: Context<AppEnv>): Promise<Response> {
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
  const segment = typeof form.market === 'string' ? form.market : null
  const sites = await c.var.lookups.sites()
  const picked = findLiveMarket(sites, segment)
  if (!picked) throw new PageError(400, ErrorMessages.unknownMarket)
  rememberMarket(c, `${picked.site.slug}-${picked.locale}`)
  return c.redirect(siteUrl(picked.site, picked.locale), 303)
}
