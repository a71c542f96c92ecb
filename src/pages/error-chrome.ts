import type { Context } from 'hono'
import type { Chrome, MarketView } from '../components/view'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import type { Translator } from '../i18n/translator'
import { viewOf } from '../render/respond'

/**
 * How long an error page waits for its header's data (the sites, the product menu and types) before it shows the
 * header without them: the page answers when the upstream is down too, from what the caches hold.
 */
export const ERROR_CHROME_DEADLINE_MS = 500

/** A market's error page: its view and what its header and footer show. */
export type MarketErrorChrome = { view: MarketView; chrome: Chrome }

/**
 * What an error page of a resolved market shows around itself (docs/decisions/056): the market's header (search
 * included) and footer, from the cached lookups within `ERROR_CHROME_DEADLINE_MS`, else without the menus. Null
 * outside a market, or before the market's texts and pages were known (maintenance, a failed site lookup): those
 * pages keep the plain error layout. Never throws; no cart count and no newsletter form (the page stays cheap and
 * asks the upstream nothing for one visitor).
 */
export async function loadErrorChrome(c: Context<AppEnv>, t: Translator): Promise<MarketErrorChrome | null> {
  const { market, available } = c.var
  if (!market || !available || !c.var.t) return null
  const api = c.var.lookups.forMarket(market)
  const orNothing = <T>(part: string, read: () => Promise<T[]>): Promise<T[]> =>
    read().catch((error: unknown) => {
      logEvent('warn', 'header_data_unavailable', { part, error: errorName(error) })
      return [] as T[]
    })
  const parts = Promise.all([
    orNothing('sites', () => c.var.lookups.sites()),
    orNothing('product_menu', () => api.catalogue.menu()),
    available.has('products') ? orNothing('product_types', () => api.catalogue.types()) : [],
  ])
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ERROR_CHROME_DEADLINE_MS)
  })
  const read = await Promise.race([parts, late]).finally(() => clearTimeout(timer))
  if (!read) logEvent('warn', 'header_data_unavailable', { part: 'error_page', error: 'deadline' })
  const [sites, productMenu, productTypes] = read ?? [[], [], []]
  return {
    view: viewOf(c, t, market, false),
    // The whistleblower channel's error pages link no social network, like its pages (docs/decisions/015).
    chrome: {
      sites,
      productMenu,
      productTypes,
      available,
      cartCount: null,
      newsletterToken: null,
      socialLinks: !c.var.noTrace,
    },
  }
}
