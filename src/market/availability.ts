import type { Feature, Site } from '../../contract/schemas'
import { AREAS } from '../upstream/areas'
import { isLive } from './market'

/** The availability rule's name of the content area's pages (every pageLinks page but a lead form's). */
const CONTENT_PAGES = AREAS.content.pages[0]

/**
 * What can be switched off, and what belongs to it. A market's settings switch its lead forms; the brand's features
 * (`api/get-features`) switch whole sections everywhere. Pages are named by their pageLinks key (`test-drive`) or, for
 * the site's own sections, by the section (`search`, `account`, `dealer-pages`).
 */
const MARKET_SWITCHES: ReadonlyArray<{
  setting: 'test_ride_inquiry' | 'become_a_partner' | 'work_with_us'
  pages: readonly string[]
}> = [
  { setting: 'test_ride_inquiry', pages: ['test-drive'] },
  { setting: 'become_a_partner', pages: ['become-a-dealer', 'become-a-distributor'] },
  { setting: 'work_with_us', pages: ['work-with-us'] },
]
const BRAND_FEATURES: ReadonlyArray<{ feature: string; pages: readonly string[] }> = [
  { feature: 'dealer_locator', pages: ['dealer-locator', 'dealer-pages'] },
  { feature: 'search', pages: ['search'] },
  { feature: 'customer_login', pages: ['account'] },
  { feature: 'checkout', pages: ['cart', 'checkout'] },
]
/**
 * Buying online (the cart and checkout) exists only in markets whose `sells_online` setting is on; so do the terms of
 * sale and the delivery and returns page (elsewhere the dealers sell, on their own terms).
 */
const SELLING_PAGES = ['cart', 'checkout', 'terms-of-sale', 'delivery-returns']

/** The pages the header links to, in this order (the footer lists every content page). */
const HEADER_PAGES = ['dealer-locator', 'test-drive', 'about-us', 'contact-us']

/** A content page of the market: its pageLinks key and its slug there. */
export type PageLink = { key: string; slug: string }

/** Which pages of a market a visitor may reach, decided once per request (`c.var.available`) and read everywhere. */
export type PageAvailability = {
  /** Whether the market is live (not under maintenance): nothing of it is available otherwise. */
  readonly live: boolean
  /** Whether a page (a pageLinks key, or `search`, `account`, `dealer-pages`, `cart`, `checkout`) is available. */
  has(page: string): boolean
  /**
   * Whether a path of the market escapes the market's switches (PRODUCT.md §3.5): not when its slug is a switched-off
   * page's, or it contains such a page's word. (Sections the brand switched off answer "Page Not Found" on their routes.)
   */
  allowsPath(path: string): boolean
  /** The market's available content pages (footer, sitemaps). */
  pageLinks(): PageLink[]
  /** The available content pages of the header, in its order. */
  headerLinks(): PageLink[]
  /** The content page a slug stands for, when it is available; else null. */
  pageOf(slug: string): PageLink | null
  /**
   * The available content page a slug used to stand for in this market before its slugs were in its language (the
   * page's key, the site-wide slug, another locale's slug: `/it-it/work-with-us`, `/ch-fr/probefahrt`), when the
   * slug is no page of the market's own; else null. Its old URLs answer 301 to the page (docs/api.md "pageLinks").
   */
  movedPage(slug: string): PageLink | null
  /** The URL of an available content page (`/it-it/rivenditori`), `query` appended as it is; else null. */
  pageUrl(key: string, query?: string): string | null
  /** The same rule for another market, with the same brand features (hreflang, sitemaps). */
  elsewhere(market: MarketOf): PageAvailability
}

/** The market a rule is made for: its site and its path segment (`ch-fr`). */
type MarketOf = { site: Site; segment: string }

/**
 * The one availability rule (PRODUCT.md §3.5): a page is available when its market is live, its market switch is on
 * and the brand's feature it belongs to is on (a feature the list does not name is on). With no market (`/login`),
 * only the brand's features count.
 *
 * @example
 * const available = availabilityOf(market, features)
 * if (!available.has('search')) throw PageError.pageNotFound(url)
 */
export function availabilityOf(
  market: MarketOf | null,
  features: readonly Feature[],
  areasOff: readonly string[] = [],
): PageAvailability {
  // Decided once per isolate for the same site and features records (the lookups' own, kept in the memo): the
  // request's, and every other market's for hreflang.
  const bySite = decided.get(features) ?? new WeakMap<object, Map<string, PageAvailability>>()
  decided.set(features, bySite)
  const siteKey = market?.site ?? NO_SITE
  const byMarket = bySite.get(siteKey) ?? new Map<string, PageAvailability>()
  bySite.set(siteKey, byMarket)
  const key = `${market?.segment ?? ''}\u0001${areasOff.join(',')}`
  let availability = byMarket.get(key)
  if (!availability) {
    availability = decide(market, features, areasOff)
    byMarket.set(key, availability)
  }
  return availability
}

/** The availabilities decided in this isolate, by the features and the site records they were decided from. */
const decided = new WeakMap<readonly Feature[], WeakMap<object, Map<string, PageAvailability>>>()
const NO_SITE = {}

function decide(market: MarketOf | null, features: readonly Feature[], areasOff: readonly string[]): PageAvailability {
  const site = market?.site ?? null
  const live = site ? isLive(site) : true
  // The pages of the contract's areas the backend lacks and the Worker does not hold (src/upstream/areas.ts).
  const off = new Set<string>(areasOff)
  const switchedOff = new Set<string>()
  for (const { feature, pages } of BRAND_FEATURES) {
    if (features.find((f) => f.key === feature)?.enabled === false) for (const page of pages) off.add(page)
  }
  for (const { setting, pages } of MARKET_SWITCHES) {
    if (!site || site.settings[setting]) continue
    for (const page of pages) {
      switchedOff.add(page)
      off.add(page)
    }
  }
  // Not a switch of the original: its paths are not matched by word (allowsPath), only its routes answer 404.
  if (site && !site.settings.sells_online) for (const page of SELLING_PAGES) off.add(page)
  const locale = market?.segment.split('-')[1] ?? ''
  const links = site ? localePageLinks(site, locale) : []
  // Without the content area, a content page exists only for its lead form (its label for a title).
  if (off.has(CONTENT_PAGES))
    for (const { key } of links) if (!(AREAS.forms.pages as readonly string[]).includes(key)) off.add(key)
  const has = (page: string) => live && !off.has(page)
  // The links available, listed once (the header, the footer and the routes each ask).
  let available: PageLink[] | undefined
  /** The header's links, listed once too (one list: a kept part reads it by its identity). */
  let header: PageLink[] | undefined
  const pageLinks = () => {
    available ??= links.filter(({ key }) => has(key))
    return available
  }

  return {
    live,
    has,
    allowsPath(path) {
      const slug = path.split('/')[2]
      const linked = slug ? links.find((link) => link.slug === slug) : undefined
      if (linked && switchedOff.has(linked.key)) return false
      // The original's rule: the path contains a switched-off page's word, whatever the market calls the page.
      return ![...switchedOff].some((word) => path.includes(word))
    },
    pageLinks,
    headerLinks: () => {
      header ??= HEADER_PAGES.flatMap((key) => pageLinks().filter((link) => link.key === key))
      return header
    },
    pageOf: (slug) => pageLinks().find((link) => link.slug === slug) ?? null,
    movedPage(slug) {
      if (!site || links.some((link) => link.slug === slug)) return null
      const former = formerSlugs(site, locale)
      const key = former.get(slug)
      return key ? (pageLinks().find((link) => link.key === key) ?? null) : null
    },
    pageUrl(key, query = '') {
      const link = has(key) ? links.find((l) => l.key === key) : undefined
      return link && market ? `/${market.segment}/${link.slug}${query}` : null
    },
    elsewhere: (other) => availabilityOf(other, features, areasOff),
  }
}

/**
 * A market's content pages in its locale: the site's `pageLinks`, each replaced by the locale's own slug where
 * `pageLinksByLocale` names one (docs/api.md "pageLinks"), and the keys only the locale has.
 */
export function localePageLinks(site: Site, locale: string): PageLink[] {
  const merged = { ...site.pageLinks, ...(site.pageLinksByLocale[locale] ?? {}) }
  return Object.entries(merged).map(([key, slug]) => ({ key, slug }))
}

/** The slugs that stood for a market's pages before: each key itself, the site-wide slugs, the other locales' slugs. */
function formerSlugs(site: Site, locale: string): Map<string, string> {
  const former = new Map<string, string>()
  const add = (links: Record<string, string>) => {
    for (const [key, slug] of Object.entries(links)) if (!former.has(slug)) former.set(slug, key)
  }
  add(
    Object.fromEntries(
      Object.keys({ ...site.pageLinks, ...(site.pageLinksByLocale[locale] ?? {}) }).map((key) => [key, key]),
    ),
  )
  add(site.pageLinks)
  for (const [other, links] of Object.entries(site.pageLinksByLocale)) if (other !== locale) add(links)
  return former
}
