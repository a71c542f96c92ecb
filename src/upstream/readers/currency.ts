import type { CurrencyCode } from '../../../contract/schemas'

/**
 * The currency of each country the brand sells in (ISO 3166 → ISO 4217): what a site record without `currency` (the
 * original's) is priced in. A country not listed is read from its token (`CURRENCY_OF_TOKEN`).
 */
const CURRENCY_OF_COUNTRY: Readonly<Record<string, CurrencyCode>> = {
  AE: 'AED',
  AU: 'AUD',
  CA: 'CAD',
  CH: 'CHF',
  GB: 'GBP',
  IL: 'ILS',
  JP: 'JPY',
  MX: 'MXN',
  NZ: 'NZD',
  US: 'USD',
  ZA: 'ZAR',
  ...Object.fromEntries(
    [
      'AT',
      'BE',
      'CY',
      'DE',
      'EE',
      'ES',
      'FI',
      'FR',
      'GR',
      'HR',
      'IE',
      'IT',
      'LT',
      'LU',
      'LV',
      'MT',
      'NL',
      'PT',
      'SI',
      'SK',
    ].map((country) => [country, 'EUR']),
  ),
}

/** The currency a token stands for where it names one (`€`, `₪`, `A$`); `$` alone is the US dollar. */
const CURRENCY_OF_TOKEN: Readonly<Record<string, CurrencyCode>> = {
  '€': 'EUR',
  '£': 'GBP',
  '₪': 'ILS',
  '¥': 'JPY',
  A$: 'AUD',
  C$: 'CAD',
  MX$: 'MXN',
  R: 'ZAR',
  $: 'USD',
}

/**
 * The currency of a site record that names none: its token when that is a code (`CHF`, `AED`), else its country's,
 * else the token's, else the original's default token `$` (US dollars).
 *
 * @example
 * currencyOfSite({ country_code: 'IT' }, '€') // 'EUR'
 */
export function currencyOfSite(country: { country_code?: unknown }, token: unknown): CurrencyCode {
  const written = typeof token === 'string' ? token.trim() : ''
  if (/^[A-Z]{3}$/.test(written)) return written
  const code = typeof country.country_code === 'string' ? country.country_code.toUpperCase() : ''
  return CURRENCY_OF_COUNTRY[code] ?? CURRENCY_OF_TOKEN[written] ?? 'USD'
}
