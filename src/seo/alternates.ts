import { languageTag } from '../i18n/formats'
import type { Availability } from '../market/availability'
import { isLive, siteUrl } from '../market/market'
import type { Site } from '../upstream/schemas'

export type Alternate = { hreflang: string; href: string }

/** hreflang alternates of a market home: every live market's, plus `x-default` → `/`; none without a public origin. */
export function homeAlternates(sites: Site[], origin: string | null): Alternate[] {
  return withDefault(sites, origin, (site, locale) => siteUrl(site, locale))
}

/**
 * hreflang alternates of a content page (a pageLinks key) across the live markets where it is available, by the one
 * availability rule, plus `x-default` → `/`; none without a public origin.
 */
export function pageAlternates(sites: Site[], available: Availability, key: string, origin: string | null): Alternate[] {
  return withDefault(sites, origin, (site, locale) => available.elsewhere({ site, segment: `${site.slug}-${locale}` }).pageUrl(key))
}

/** Absolute alternates on the public origin for every live market's locale that has a URL, one per language tag. */
function withDefault(sites: Site[], origin: string | null, urlOf: (site: Site, locale: string) => string | null): Alternate[] {
  if (!origin) return []
  const links = sites.filter(isLive).flatMap((site) =>
    site.locales.flatMap((locale) => {
      const url = urlOf(site, locale)
      return url ? [{ hreflang: site.slug === 'int' ? locale : languageTag(site.slug, locale), href: origin + url }] : []
    }))
  const unique = [...new Map(links.map((link) => [link.hreflang, link])).values()]
  return [...unique, { hreflang: 'x-default', href: `${origin}/` }]
}
