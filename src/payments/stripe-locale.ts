/**
 * The languages Stripe's hosted Checkout is shown in (its `locale` parameter), by the market's language and, where
 * Stripe has a regional variant, its country. A language it lacks (Arabic, Hebrew…) is `auto`: the buyer's browser.
 */
const STRIPE_LANGUAGES = new Set([
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'fil',
  'fr',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'vi',
  'zh',
])

/** Stripe's regional variants, by `{language}-{country}` of the market. */
const REGIONAL: Record<string, string> = {
  'en-gb': 'en-GB',
  'fr-ca': 'fr-CA',
  'pt-br': 'pt-BR',
  'zh-hk': 'zh-HK',
  'zh-tw': 'zh-TW',
}

/** The Spanish-speaking countries of the Americas, for which Stripe has Latin American Spanish (`es-419`). */
const LATIN_AMERICA = new Set([
  'ar',
  'bo',
  'cl',
  'co',
  'cr',
  'cu',
  'do',
  'ec',
  'gt',
  'hn',
  'mx',
  'ni',
  'pa',
  'pe',
  'py',
  'sv',
  'uy',
  've',
])

/**
 * The hosted Checkout's `locale` for a market segment (`it-it` → `it`, `gb-en` → `en-GB`, `mx-es` → `es-419`,
 * `ae-ar` → `auto`).
 *
 * @example
 * stripeLocaleOf('ch-fr') // 'fr'
 */
export function stripeLocaleOf(market: string): string {
  const [country = '', language = ''] = market.split('-')
  const regional = REGIONAL[`${language}-${country}`]
  if (regional) return regional
  if (language === 'es' && LATIN_AMERICA.has(country)) return 'es-419'
  return STRIPE_LANGUAGES.has(language) ? language : 'auto'
}
