import type { MarketPickerProps } from '../components/market-picker'
import type { PickerRegion } from '../components/market-regions'
import { isolateMemo } from '../cache/memo'
import type { Translate } from '../i18n/translator'
import type { Region, Site } from '../../contract/schemas'
import { isLive, type Market } from './market'
import { PICK_FROM_FIELD, PICK_MARKET_PATH } from './pick-form'

const REGION_ORDER: Region[] = ['europe', 'americas', 'asia', 'oceania', 'africa']
const languageNames = isolateMemo<string>({ limit: 64 })

/** A language's name in that language, capitalised ("Deutsch", "Français"). */
export function languageName(locale: string): string {
  return languageNames.remember(locale, () => {
    const native = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale
    return native.charAt(0).toLocaleUpperCase(locale) + native.slice(1)
  })
}

/** A market's label in its own words: "Schweiz / Suisse / Svizzera · Français". */
export function marketLabel(site: Site, locale: string): string {
  return site.locales.length > 1 || site.slug === 'int'
    ? `${site.country.name} · ${languageName(locale)}`
    : site.country.name
}

/** The live markets, grouped by region with translated region names: what the picker lists. */
export function pickerRegions(sites: Site[], t: Translate): PickerRegion[] {
  return REGION_ORDER.map((region) => ({
    name: t(`picker.regions.${region}`),
    markets: sites
      .filter((site) => site.country.region === region && isLive(site))
      .flatMap((site) =>
        site.locales.map((locale) => ({ segment: `${site.slug}-${locale}`, label: marketLabel(site, locale), locale })),
      ),
  })).filter((region) => region.markets.length > 0)
}

/** The picker island's props for a page; `from`, the page's path, lets the pick land on the same page elsewhere. */
export function pickerProps(sites: Site[], market: Market | null, t: Translate, from?: string): MarketPickerProps {
  return {
    from: market && from ? { name: PICK_FROM_FIELD, value: from } : null,
    current: market?.segment ?? null,
    summary: market ? marketLabel(market.site, market.locale) : t('picker.select_label'),
    shortSummary: market ? `${market.country} · ${market.locale}`.toUpperCase() : '◍',
    label: t('picker.change'),
    title: t('picker.title'),
    regions: pickerRegions(sites, t),
    action: PICK_MARKET_PATH,
  }
}
