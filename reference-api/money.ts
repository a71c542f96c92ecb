import type { CurrencyCode, Site } from '../contract/schemas'

/**
 * Amounts in the reference API's mails (an order's confirmation), written as the site writes them on its pages: in the
 * market's own currency with the site record's token on its side, any other currency the language's way by Intl, a
 * right-to-left language's amount as an isolate (U+2067 … U+2069). The API's own copy: its mails are its texts.
 */

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
export type MailMarket = {
  country: string
  locale: string
  site: Pick<Site, 'currency' | 'default_currency_token' | 'default_currency_place'>
}

/**
 * `minor` units of the ISO `currency` as a mail to the market writes them.
 *
 * @example
 * mailMoney(129900, 'EUR', { country: 'de', locale: 'de', site }) // "1.299,00 €" (site: EUR, token € on the right)
 */
export function mailMoney(minor: number, currency: CurrencyCode, { country, locale, site }: MailMarket): string {
  const tag = country.length === 2 ? `${locale}-${country.toUpperCase()}` : locale
  const digits =
    formatter(
      `currency:${currency}`,
      () => new Intl.NumberFormat('en', { style: 'currency', currency }),
    ).resolvedOptions().maximumFractionDigits ?? 2
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
  return RIGHT_TO_LEFT.has(locale) ? `\u2067${text}\u2069` : text
}
