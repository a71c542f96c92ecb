import type { Site } from '../../contract/schemas'
import { isLive } from './market'

type Accepted = { language: string; region: string | null }

/**
 * The market a visitor most likely wants, from the edge's country (`request.cf.country`) and Accept-Language;
 * only live markets. Suggested on the landing page, never redirected to.
 *
 * @example
 * suggestMarket(sites, 'CH', 'fr-CH,fr;q=0.9') // { site: ch, locale: 'fr' }
 */
export function suggestMarket(
  sites: Site[],
  geoCountry: string | null | undefined,
  acceptLanguage: string | null | undefined,
): { site: Site; locale: string } | null {
  const live = sites.filter(isLive)
  const accepted = parseAcceptLanguage(acceptLanguage ?? '')
  const pickLocale = (site: Site) =>
    accepted.find((a) => site.locales.includes(a.language))?.language ?? site.locales[0]

  const geoSite = geoCountry
    ? live.find((s) => s.country.country_code.toLowerCase() === geoCountry.toLowerCase())
    : undefined
  if (geoSite) return { site: geoSite, locale: pickLocale(geoSite) as string }

  for (const { language, region } of accepted) {
    const site = region ? live.find((s) => s.slug === region && s.locales.includes(language)) : undefined
    if (site) return { site, locale: language }
  }
  for (const { language } of accepted) {
    const site = live.find((s) => s.locales.includes(language))
    if (site) return { site, locale: language }
  }
  return null
}

/** `fr-CH,fr;q=0.9,en;q=0.8` → accepted languages, most wanted first (at most 10, malformed parts ignored). */
export function parseAcceptLanguage(header: string): Accepted[] {
  return header
    .slice(0, 500)
    .split(',')
    .slice(0, 10)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      )
      const match = /^([a-zA-Z]{2})(?:-([a-zA-Z]{2}))?/.exec(tag.trim())
      return match && Number.isFinite(q) && q > 0
        ? { language: (match[1] as string).toLowerCase(), region: match[2]?.toLowerCase() ?? null, q, index }
        : null
    })
    .filter((a) => a !== null)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ language, region }) => ({ language, region }))
}
