import { languageTag } from '../i18n/formats'
import type { Availability } from '../market/availability'
import { isLive, siteUrl } from '../market/market'
import type { Site } from '../upstream/schemas'

export type Alternate = { hreflang: string; href: string }

/**
 * hreflang alternates of a page across the live markets where it is available (`home`, or a pageLinks key), by the
 * one availability rule, plus `x-default` → `/`; absolute on the site's public origin (none without one).
 */
export function alternates(sites: Site[], available: Availability, page: 'home' | { key: string }, origin: string | null): Alternate[] {
  if (!origin) return []
  const links = sites.filter(isLive).flatMap((site) =>
    site.locales.flatMap((locale) => {
      if (page === 'home') return [{ hreflang: hreflangOf(site, locale), href: origin + siteUrl(site, locale) }]
      const url = available.elsewhere({ site, segment: `${site.slug}-${locale}` }).pageUrl(page.key)
      return url ? [{ hreflang: hreflangOf(site, locale), href: origin + url }] : []
    }))
  const unique = [...new Map(links.map((link) => [link.hreflang, link])).values()]
  return [...unique, { hreflang: 'x-default', href: `${origin}/` }]
}

const hreflangOf = (site: Site, locale: string) => (site.slug === 'int' ? locale : languageTag(site.slug, locale))
