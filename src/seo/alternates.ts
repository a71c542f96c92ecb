import { isPageEnabled } from '../market/feature-switches'
import { isLive, siteUrl } from '../market/market'
import { languageTag } from '../i18n/formats'
import type { Site } from '../upstream/schemas'

export type Alternate = { hreflang: string; href: string }

/**
 * hreflang alternates of a page across the live markets where it exists (`home`, or a pageLinks key that is switched
 * on there), plus `x-default` → `/`.
 */
export function alternates(sites: Site[], page: 'home' | { key: string }, origin: string): Alternate[] {
  const links = sites.filter(isLive).flatMap((site) => {
    const slug = page === 'home' ? '' : site.pageLinks[page.key]
    if (page !== 'home' && (!slug || !isPageEnabled(site, page.key))) return []
    return site.locales.map((locale) => ({
      hreflang: site.slug === 'int' ? locale : languageTag(site.slug, locale),
      href: origin + (page === 'home' ? siteUrl(site, locale) : `/${site.slug}-${locale}/${slug}`),
    }))
  })
  const unique = [...new Map(links.map((link) => [link.hreflang, link])).values()]
  return [...unique, { hreflang: 'x-default', href: `${origin}/` }]
}
