import type { Site } from '../upstream/schemas'

type Setting = 'test_ride_inquiry' | 'become_a_partner' | 'work_with_us'

/** Each switchable feature: its setting and the page keys (and path words) that belong to it. */
const FEATURE_PAGES: ReadonlyArray<{ setting: Setting; pages: readonly string[] }> = [
  { setting: 'test_ride_inquiry', pages: ['test-drive'] },
  { setting: 'become_a_partner', pages: ['become-a-dealer', 'become-a-distributor'] },
  { setting: 'work_with_us', pages: ['work-with-us'] },
]

/**
 * Whether a path belongs to a feature the site switched off: the original's rule (the path contains the feature's
 * word), and the page the path's slug stands for in the site's pageLinks, whatever the market calls it.
 */
export function isSwitchedOff(site: Site, path: string): boolean {
  const slug = path.split('/')[2]
  const pageKey = slug ? pageKeyOf(site, slug) : null
  if (pageKey && !isPageEnabled(site, pageKey)) return true
  return FEATURE_PAGES.some(({ setting, pages }) => !site.settings[setting] && pages.some((word) => path.includes(word)))
}

/** Whether a page key is shown in menus, sitemaps and hreflang: not when its feature is switched off. */
export function isPageEnabled(site: Site, pageKey: string): boolean {
  return !FEATURE_PAGES.some(({ setting, pages }) => !site.settings[setting] && pages.includes(pageKey))
}

/** The site's content pages (pageLinks) that are switched on, as key and slug. */
export function enabledPageLinks(site: Site): Array<{ key: string; slug: string }> {
  return Object.entries(site.pageLinks)
    .filter(([key]) => isPageEnabled(site, key))
    .map(([key, slug]) => ({ key, slug }))
}

/** The pages the header links to, in this order (the footer lists them all). */
const HEADER_PAGES = ['dealer-locator', 'test-drive', 'about-us', 'contact-us']

/** The switched-on pages of the header's navigation. */
export function headerPageLinks(site: Site): Array<{ key: string; slug: string }> {
  const links = enabledPageLinks(site)
  return HEADER_PAGES.flatMap((key) => links.filter((link) => link.key === key))
}

/** The page key a slug of the site's pageLinks stands for, or null. */
export function pageKeyOf(site: Site, slug: string): string | null {
  return Object.entries(site.pageLinks).find(([, s]) => s === slug)?.[0] ?? null
}

/**
 * The URL of a content page in a market (`/it-it/rivenditori` for `dealer-locator`), or null where the site has no
 * such page or its feature is off (a test ride where `test_ride_inquiry` is off). `query` is appended as it is.
 */
export function marketPageUrl(market: { site: Site; segment: string }, pageKey: string, query = ''): string | null {
  const slug = market.site.pageLinks[pageKey]
  const on = pageKey !== 'test-drive' || market.site.settings.test_ride_inquiry
  return slug && on && isPageEnabled(market.site, pageKey) ? `/${market.segment}/${slug}${query}` : null
}
