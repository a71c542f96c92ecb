import { isolateMemo } from '../cache/memo'
import { type CurrencyStyle, minorDigits, type NumberFormats, writtenAmount } from '../../contract/money'
import type { CurrencyCode } from '../../contract/schemas'
import type { Direction } from './direction'

type Formatter = Intl.NumberFormat | Intl.DateTimeFormat | Intl.DisplayNames
const formatters = isolateMemo<Formatter>({ limit: 512 })

/** Intl formatters are costly to build and safe to share: one per kind and language tag per isolate. */
const formatter = <F extends Formatter>(key: string, build: () => F): F => formatters.remember(key, build) as F

/** The BCP 47 tag of a market, e.g. `it-IT`, `de-CH`; `int` markets use the locale alone. */
export function languageTag(country: string, locale: string): string {
  return country.length === 2 ? `${locale}-${country.toUpperCase()}` : locale
}

/** A calendar date (`2026-11-02`) written the market's way, e.g. "2 novembre 2026". */
export function formatDate(isoDate: string, tag: string): string {
  const day = isoDate.slice(0, 10)
  return writtenDates.remember(`${tag}:${day}`, () => {
    const date = new Date(`${day}T12:00:00Z`)
    if (Number.isNaN(date.getTime())) return isoDate
    return formatter(`date:${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' })).format(
      date,
    )
  })
}

/** Each day as a language writes it, once per isolate: the same news dates are on page after page. */
const writtenDates = isolateMemo<string>({ limit: 2048 })

/** The market an amount is written for: its language tag and direction, and its site (currency, token and the token's side). */
export type MoneyMarket = { tag: string; dir: Direction; site: CurrencyStyle }

const numberFormats: NumberFormats = (key, build) => formatter(key, build)

/** How many digits the minor unit of an ISO 4217 currency has, as Intl knows it: 2 for EUR, 0 for JPY, 3 for KWD. */
export const minorUnitDigits = (currency: CurrencyCode): number => minorDigits(currency, numberFormats)

/**
 * Every amount the site shows: `minor` units of the ISO `currency`, written for a market as the contract's site record
 * says (contract/money.ts): a CHF order seen from it-it the language's way, `1.299,00 €` in de-DE.
 *
 * @example
 * formatMoney(129900, 'EUR', { tag: 'de-DE', dir: 'ltr', site }) // "1.299,00 €" (site: EUR, token € on the right)
 */
export const formatMoney = (minor: number, currency: CurrencyCode, { tag, dir, site }: MoneyMarket): string =>
  writtenAmount(minor, currency, { tag, rightToLeft: dir === 'rtl', site }, numberFormats)

/** A whole number written the market's way (`1.234` in it-IT, `١٬٢٣٤` where the language writes its own digits). */
export const formatCount = (count: number, tag: string): string =>
  formatter(`count:${tag}`, () => new Intl.NumberFormat(tag, { maximumFractionDigits: 0 })).format(count)

/** A country's name in the market's language (`IT` → "Italia" for it-IT), or the code when Intl does not know it. */
export function countryName(code: string, tag: string): string {
  try {
    return (
      formatter(`region:${tag}`, () => new Intl.DisplayNames([tag], { type: 'region', fallback: 'code' })).of(code) ??
      code
    )
  } catch {
    return code
  }
}
