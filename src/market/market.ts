import { direction, type Direction } from '../i18n/direction'
import { languageTag } from '../i18n/formats'
import type { Site } from '../../contract/schemas'

/** The market a page is served for: `/{country}-{locale}` and its site record. */
export type Market = {
  country: string
  locale: string
  /** The first path segment, e.g. `ch-fr`. */
  segment: string
  site: Site
  dir: Direction
  /** The BCP 47 tag for numbers and dates, e.g. `fr-CH`. */
  tag: string
}

/** The market shown when none is known: its texts and its home are the error page's fallback. */
export const FALLBACK_MARKET = { country: 'int', locale: 'en', home: '/int-en' } as const

const SEGMENT = /^([a-z]{2,3})-([a-z]{2})$/

/** Splits a first path segment of the form `country-locale`, or answers null. */
export function parseMarketSegment(segment: string | undefined): { country: string; locale: string } | null {
  const match = segment ? SEGMENT.exec(segment) : null
  return match ? { country: match[1] as string, locale: match[2] as string } : null
}

/** A market of a site that lists the locale. */
export function toMarket(site: Site, locale: string): Market {
  return {
    country: site.slug,
    locale,
    segment: `${site.slug}-${locale}`,
    site,
    dir: direction(locale),
    tag: languageTag(site.slug, locale),
  }
}

/** The URL of a site's home in a locale (its `urls` entry), else `/{country}-{locale}`. */
export function siteUrl(site: Site, locale: string): string {
  return site.urls.find((u) => u.locale_code === locale)?.url ?? `/${site.slug}-${locale}`
}

/** The first URL of a site: where the error page's "return to home" leads. */
export function siteHome(site: Site | undefined | null): string {
  return site?.urls[0]?.url ?? (site ? `/${site.slug}-${site.locales[0]}` : FALLBACK_MARKET.home)
}

/** Whether visitors may see a site: maintenance hides it from the picker and sends its pages to 503. */
export const isLive = (site: Site): boolean => !site.settings.under_maintenance
