import type { CurrencyCode, Site } from './schemas'

/** The site record's fields that say how its market writes an amount (docs/api.md "Sites"). */
export type CurrencyStyle = Pick<Site, 'currency' | 'default_currency_token' | 'default_currency_place'>

/**
 * Where the Intl number formats come from: the caller's per-isolate memo (they are costly to build and safe to share).
 */
export type NumberFormats = (key: string, build: () => Intl.NumberFormat) => Intl.NumberFormat

/** How many digits the minor unit of an ISO 4217 currency has, as Intl knows it: 2 for EUR, 0 for JPY, 3 for KWD. */
export function minorDigits(currency: CurrencyCode, formats: NumberFormats): number {
  let digits = currencyDigits.get(currency)
  if (digits === undefined) {
    const money = formats(`currency:${currency}`, () => new Intl.NumberFormat('en', { style: 'currency', currency }))
    digits = money.resolvedOptions().maximumFractionDigits ?? 2
    currencyDigits.set(currency, digits)
  }
  return digits
}

/** Intl's answer per currency, asked once per isolate (`resolvedOptions` builds a whole object each time). */
const currencyDigits = new Map<string, number>()

/**
 * `minor` units of the ISO `currency` as the contract's site record says its market writes them: in the market's own
 * currency (the site's `currency`) its token on its side (`1.299,00 €` in de-DE, `$1,299.00` in en-US; a word token
 * such as `CHF` set apart by a no-break space); any other currency the language's way by Intl (`2490,00 CHF`). In a
 * right-to-left language the amount is a right-to-left isolate (U+2067 … U+2069), so the text around it never
 * reorders its parts. Both the site's pages and the reference API's mails write amounts so.
 *
 * @example
 * writtenAmount(129900, 'EUR', { tag: 'de-DE', rightToLeft: false, site }, formats) // "1.299,00 €"
 */
export function writtenAmount(
  minor: number,
  currency: CurrencyCode,
  { tag, rightToLeft, site }: { tag: string; rightToLeft: boolean; site: CurrencyStyle },
  formats: NumberFormats,
): string {
  const digits = minorDigits(currency, formats)
  const amount = minor / 10 ** digits
  let text: string
  if (currency === site.currency) {
    const number = formats(
      `number:${tag}:${digits}`,
      () => new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    )
    const token = site.default_currency_token || '$'
    if (site.default_currency_place === 'right') text = `${number.format(amount)}\u00a0${token}`
    else text = /^[A-Za-z]/.test(token) ? `${token}\u00a0${number.format(amount)}` : `${token}${number.format(amount)}`
  } else {
    text = formats(
      `money:${tag}:${currency}`,
      () => new Intl.NumberFormat(tag, { style: 'currency', currency }),
    ).format(amount)
  }
  return rightToLeft ? `\u2067${text}\u2069` : text
}
