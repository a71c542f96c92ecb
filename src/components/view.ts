import type { Translate, Translator } from '../i18n/translator'
import type { Market } from '../market/market'
import type { Notice } from './toast'
import type { ListedProductType } from '../../contract/catalogue-schemas'
import type { MenuProduct, Site } from '../../contract/schemas'
import type { PageAvailability } from '../market/availability'

/** What every page's layout needs to know about the request: its texts, market and URL. */
export type View = {
  t: Translate
  locale: string
  dir: Translator['dir']
  market: Market | null
  /** The site's public origin, for canonical, hreflang and Open Graph URLs (null when none is configured). */
  origin: string | null
  path: string
  /** Whether the page loads the client bundle (pages without islands do not). */
  hydrate: boolean
  /** The logged-in visitor as the header greets them, or null. */
  viewer: { name: string } | null
  /** A notice to show as a toast (after a redirect). */
  notice: Notice | null
  /** Whether pictures are served resized at the widths they are shown (`IMAGE_RESIZING`; absent: off). */
  imageResizing?: boolean
}

/** The view of a market's page (`viewOf` with its market): the market is always there. */
export type MarketView = View & { market: Market }

/** The data of the default layout's header and footer: the sites (picker), the product menu, what is available. */
export type Chrome = {
  sites: Site[]
  productMenu: MenuProduct[]
  /** The product types the market sells, with their pictures: the product menu's panel. */
  productTypes: ListedProductType[]
  /** The request's availability: which pages the menus may link to. */
  available: PageAvailability
  /**
   * The visitor's cart count in the header: null for a visitor without a cart (no count; the page stays shared), or
   * in a market that does not sell online. Optional: pages made without it show none.
   */
  cartCount?: number | null
  /**
   * The signed token of the footer's newsletter form (src/pages/newsletter.tsx); null or absent: the footer shows no
   * form (no `SESSION_SECRET`, or the page is the sign-up itself).
   */
  newsletterToken?: string | null
  /** False: the footer links no social network (the whistleblower channel names no other origin). */
  socialLinks?: boolean
}
