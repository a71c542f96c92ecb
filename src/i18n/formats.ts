import { isolateMemo } from '../cache/memo'
import type { CurrencyCode, Site } from '../../contract/schemas'
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
  const date = new Date(`${isoDate.slice(0, 10)}T12:00:00Z`)
  if (Number.isNaN(date.getTime())) return isoDate
  return formatter(`date:${tag}`, () => new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' })).format(
    date,
  )
}

/** The market an amount is written for: its language tag and direction, and its site (currency, token and the token's side). */
export type MoneyMarket = {
  tag: string
  dir: Direction
  site: Pick<Site, 'currency' | 'default_currency_token' | 'default_currency_place'>
}

/** How many digits the minor unit of an ISO 4217 currency has, as Intl knows it: 2 for EUR, 0 for JPY, 3 for KWD. */
export function minorUnitDigits(currency: CurrencyCode): number {
  const money = formatter(`currency:${currency}`, () => new Intl.NumberFormat('en', { style: 'currency', currency }))
  return money.resolvedOptions().maximumFractionDigits ?? 2
}

/**
 * Every amount the site shows: `minor` units of the ISO `currency`, written for a market. In the market's own currency
 * (the site's `currency`) the site's token goes on its side as product prices always read (`1.299,00 €` in de-DE,
 * `$1,299.00` in en-US; a word token such as `CHF` is set apart by a no-break space); any other currency (a CHF order
 * seen from it-it) is written the market's way by Intl (`2490,00 CHF`). In a right-to-left market the amount is a
 * right-to-left isolate (U+2067 … U+2069), so the text around it, e.g. "From {{price}}", never reorders its parts.
 *
 * @example
 * formatMoney(129900, 'EUR', { tag: 'de-DE', site }) // "1.299,00 €" (site: EUR, token € on the right)
 */
export function formatMoney(minor: number, currency: CurrencyCode, market: MoneyMarket): string {
  const { tag, dir, site } = market
  const digits = minorUnitDigits(currency)
  const amount = minor / 10 ** digits
  let text: string
  if (currency === site.currency) {
    const number = formatter(
      `number:${tag}:${digits}`,
      () => new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    )
    const token = site.default_currency_token || '$'
    if (site.default_currency_place === 'right') text = `${number.format(amount)}\u00a0${token}`
    else text = /^[A-Za-z]/.test(token) ? `${token}\u00a0${number.format(amount)}` : `${token}${number.format(amount)}`
  } else {
    text = formatter(
      `money:${tag}:${currency}`,
      () => new Intl.NumberFormat(tag, { style: 'currency', currency }),
    ).format(amount)
  }
  return dir === 'rtl' ? `\u2067${text}\u2069` : text
}

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
