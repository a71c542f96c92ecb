import type { Site } from '../upstream/schemas'

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.DisplayNames
const formatters = new Map<string, Formatter>()

/** Intl formatters are costly to build and safe to share: one per kind and language tag per isolate. */
function formatter<F extends Formatter>(key: string, build: () => F): F {
  let cached = formatters.get(key) as F | undefined
  if (!cached) {
    cached = build()
    formatters.set(key, cached)
  }
  return cached
}

/** The BCP 47 tag of a market, e.g. `it-IT`, `de-CH`; `int` markets use the locale alone. */
export function languageTag(country: string, locale: string): string {
  return country.length === 2 ? `${locale}-${country.toUpperCase()}` : locale
}

/**
 * Formats an amount in the site's currency: the site's token on its side (default `$` on the left), the digits
 * grouped the way the market writes numbers. Word tokens (`CHF`, `AED`) are set apart by a space.
 *
 * @example
 * formatPrice(1299, { default_currency_token: '€', default_currency_place: 'right' }, 'de-DE') // "1.299,00 €"
 */
export function formatPrice(
  amount: number,
  site: Pick<Site, 'default_currency_token' | 'default_currency_place'>,
  tag: string,
): string {
  const digits = formatter(`price:${tag}`, () => new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(amount)
  const token = site.default_currency_token || '$'
  if (site.default_currency_place === 'right') return `${digits}\u00a0${token}`
  return /^[A-Za-z]/.test(token) ? `${token}\u00a0${digits}` : `${token}${digits}`
}

/**
 * A market price from the API (minor units of the site's currency: every site's currency has cents), formatted as
 * `formatPrice` does.
 */
export const formatMinorPrice = (minor: number, site: Pick<Site, 'default_currency_token' | 'default_currency_place'>, tag: string) =>
  formatPrice(minor / 100, site, tag)

/** A calendar date (`2026-11-02`) written the market's way, e.g. "2 novembre 2026". */
export function formatDate(isoDate: string, tag: string): string {
  const date = new Date(`${isoDate.slice(0, 10)}T12:00:00Z`)
  if (Number.isNaN(date.getTime())) return isoDate
  return formatter(`date:${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' })).format(date)
}

/**
 * Formats an amount in minor units (cents) in an ISO currency the market's way, e.g. an order's total:
 * `formatMoney(249000, 'CHF', 'it-CH')` → "CHF 2’490.00".
 */
export function formatMoney(minor: number, currency: string, tag: string): string {
  const money = formatter(`money:${tag}:${currency}`, () => new Intl.NumberFormat(tag, { style: 'currency', currency }))
  return money.format(minor / 10 ** (money.resolvedOptions().maximumFractionDigits ?? 2))
}

/** A country's name in the market's language (`IT` → "Italia" for it-IT), or the code when Intl does not know it. */
export function countryName(code: string, tag: string): string {
  try {
    return formatter(`region:${tag}`, () => new Intl.DisplayNames([tag], { type: 'region', fallback: 'code' })).of(code) ?? code
  } catch {
    return code
  }
}
