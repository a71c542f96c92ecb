import type { Context } from 'hono'
import type { Chrome } from '../components/view'
import type { MarketEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { headerCartCount } from '../cart/visitor-cart'
import { newsletterToken } from '../forms/newsletter-token'

/** What a page's own call already answered of the chrome's data: the header's cart count (the account overview's). */
export type ChromeRead = { cartCount?: number | null }

/**
 * Loads what the default layout shows around every market page: the sites (market picker), the product menu and
 * types, the request's availability, the visitor's cart count (src/cart/visitor-cart.ts) and the footer's newsletter
 * form token; what the page already read (`known`) is not asked again. None may fail a page: without them the header
 * shows less, and says so in the log.
 */
export async function loadChrome(c: Context<MarketEnv>, known: ChromeRead = {}): Promise<Chrome> {
  const [lookups, api, available] = [c.get('lookups'), c.get('api'), c.get('available')]
  const orNothing = <T>(part: string, read: Promise<T[]>) =>
    read.catch((error: unknown) => {
      logEvent('warn', 'header_data_unavailable', { part, error: errorName(error) })
      return [] as T[]
    })
  const [sites, productMenu, productTypes, cartCount, newsletter] = await Promise.all([
    orNothing('sites', lookups.sites()),
    orNothing('product_menu', api.catalogue.menu()),
    available.has('products') ? orNothing('product_types', api.catalogue.types()) : [],
    headerCartCount(c, { read: known.cartCount }),
    available.has('newsletter') ? newsletterToken(c) : null,
  ])
  return { sites, productMenu, productTypes, available, cartCount, newsletterToken: newsletter }
}
