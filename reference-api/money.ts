import { type CurrencyStyle, writtenAmount } from '../contract/money'
import type { CurrencyCode } from '../contract/schemas'

const RIGHT_TO_LEFT = new Set(['he', 'ar', 'fa'])
const formatters = new Map<string, Intl.NumberFormat>()

/** Intl formatters are costly to build and safe to share: one per kind and language tag per isolate. */
function formatter(key: string, build: () => Intl.NumberFormat): Intl.NumberFormat {
  let cached = formatters.get(key)
  if (!cached) {
    cached = build()
    formatters.set(key, cached)
  }
  return cached
}

/** The market a mail is written for: its country, its language and its site's currency, token and the token's side. */
export type MailMarket = { country: string; locale: string; site: CurrencyStyle }

/**
 * `minor` units of the ISO `currency` in the reference API's mails (an order's confirmation), written as the site
 * writes them on its pages (contract/money.ts).
 *
 * @example
 * mailMoney(129900, 'EUR', { country: 'de', locale: 'de', site }) // "1.299,00 €" (site: EUR, token € on the right)
 */
export function mailMoney(minor: number, currency: CurrencyCode, { country, locale, site }: MailMarket): string {
  const tag = country.length === 2 ? `${locale}-${country.toUpperCase()}` : locale
  return writtenAmount(minor, currency, { tag, rightToLeft: RIGHT_TO_LEFT.has(locale), site }, formatter)
}
