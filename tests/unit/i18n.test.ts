import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { formatDate, formatMoney, languageTag, type MoneyMarket } from '../../src/i18n/formats'
import { createTranslator } from '../../src/i18n/translator'
import { direction } from '../../src/i18n/direction'
import { DEMO_MARKETS } from '../fixtures/demo-markets'

type Messages = { [key: string]: string | Messages }
const flatten = (messages: Messages, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(messages).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`)),
    ),
  )
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
/** Two words or more: a text a translator has to write (a single word such as "PayPal" or "CV" may stay as it is). */
const SEVERAL_WORDS = /\p{L}{2,}\s+\p{L}{2,}/u
/** The script the texts of these locales must be written in. */
const SCRIPT: Record<string, RegExp> = { el: /[\u0370-\u03FF]/, he: /[\u0590-\u05FF]/, ar: /[\u0600-\u06FF]/ }

describe('the translator', () => {
  it("translates with parameters in the market's language", () => {
    const t = createTranslator('it', { picker: { suggested: 'Sembra che tu sia in {{market}}.' } })
    expect(t('picker.suggested', { market: 'Italia' })).toBe('Sembra che tu sia in Italia.')
  })

  it('falls back to English for a missing key, and to the key itself when nobody has it', () => {
    const t = createTranslator('it', {})
    expect(t('common.return_to_home')).toBe('Return to home')
    expect(t('no.such.key')).toBe('no.such.key')
  })

  it('never answers a group of texts as a text', () => {
    const t = createTranslator('it', { common: { return_to_home: { oops: 'x' } } } as never)
    expect(t('common.return_to_home')).toBe('Return to home')
    expect(t('common')).toBe('common')
  })

  it('logs a missing key once per isolate', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const t = createTranslator('sl', {})
    t('home.hero_title')
    t('home.hero_title')
    createTranslator('sl', {})('home.hero_title')
    const lines = warn.mock.calls.map(([line]) => JSON.parse(String(line)))
    expect(lines).toEqual([{ level: 'warn', event: 'missing_translation', locale: 'sl', key: 'home.hero_title' }])
    warn.mockRestore()
  })

  it("keeps each request's language to itself", () => {
    const italian = createTranslator('it', { common: { return_to_home: 'Torna alla home' } })
    const german = createTranslator('de', { common: { return_to_home: 'Zur Startseite' } })
    expect(italian('common.return_to_home')).toBe('Torna alla home')
    expect(german('common.return_to_home')).toBe('Zur Startseite')
    expect(italian('common.return_to_home')).toBe('Torna alla home')
  })

  it('sets right to left for he, ar and fa only', () => {
    expect(['he', 'ar', 'fa', 'en', 'it'].map(direction)).toEqual(['rtl', 'rtl', 'rtl', 'ltr', 'ltr'])
  })
})

describe('the demo translations', () => {
  const all = env.TEST_DEMO_MESSAGES
  const english = flatten(all.en as Messages)

  it('cover every locale of the demo markets', () => {
    const locales = [...new Set(DEMO_MARKETS.flatMap((market) => market.locales))].sort()
    expect(Object.keys(all).sort()).toEqual(locales)
  })

  it.each(Object.keys(all))('have every UI text in %s, with the same placeholders', (locale) => {
    const texts = flatten(all[locale] as Messages)
    expect(
      Object.keys(english).filter((key) => !(key in texts)),
      `keys of en.json missing in ${locale}`,
    ).toEqual([])
    expect(
      Object.keys(texts).filter((key) => !(key in english)),
      `keys of ${locale} that en.json does not have`,
    ).toEqual([])
    for (const [key, text] of Object.entries(texts)) {
      expect(text.trim(), `${locale}:${key}`).not.toBe('')
      expect(placeholders(text), `${locale}:${key}`).toEqual(placeholders(english[key] as string))
    }
  })

  it.each(Object.keys(all).filter((locale) => locale !== 'en'))(
    'leave no text of several words in English in %s',
    (locale) => {
      const texts = flatten(all[locale] as Messages)
      const copied = Object.entries(texts).filter(
        ([key, text]) => key !== 'brand.name' && text === english[key] && SEVERAL_WORDS.test(text),
      )
      expect(
        copied.map(([key]) => key),
        `texts of ${locale} identical to English`,
      ).toEqual([])
    },
  )

  it.each(Object.keys(SCRIPT))('write every text of several words in %s in its own script', (locale) => {
    const texts = flatten(all[locale] as Messages)
    const foreign = Object.entries(texts).filter(([, text]) => {
      const words = text.replace(/\{\{\w+\}\}/g, '').replaceAll('Aurora Cycles', '')
      return SEVERAL_WORDS.test(words) && !SCRIPT[locale]!.test(words)
    })
    expect(
      foreign.map(([key]) => key),
      `texts of ${locale} without its script`,
    ).toEqual([])
  })
})

/** A market as the money formatter sees it: its language tag and its site's currency, token and the token's side. */
const market = (tag: string, currency: string, token: string, place: 'left' | 'right'): MoneyMarket => ({
  tag,
  dir: direction(tag.split('-')[0] as string),
  site: { currency, default_currency_token: token, default_currency_place: place },
})
const RLI = '\u2067'
const PDI = '\u2069'

describe('money', () => {
  it("writes an amount in the market's own currency with the site's token on its side, as product prices read", () => {
    expect(formatMoney(129900, 'EUR', market('de-DE', 'EUR', '€', 'right'))).toBe('1.299,00\u00a0€')
    expect(formatMoney(429000, 'EUR', market('it-IT', 'EUR', '€', 'right'))).toBe('4290,00\u00a0€')
    expect(formatMoney(429000, 'EUR', market('en', 'EUR', '€', 'left'))).toBe('€4,290.00')
    expect(formatMoney(129900, 'EUR', market('it-IT', 'EUR', '€', 'left'))).toBe('€1299,00')
    expect(formatMoney(469999, 'USD', market('en-US', 'USD', '$', 'left'))).toBe('$4,699.99')
    expect(formatMoney(9199000, 'MXN', market('es-MX', 'MXN', '$', 'left'))).toBe('$91,990.00')
  })

  it('sets a word token apart with a no-break space, and writes $ when the site has no token', () => {
    // Swiss German thousands as CLDR 48 writes them (workerd 1.20261117): an apostrophe, no longer U+2019.
    expect(formatMoney(439000, 'CHF', market('de-CH', 'CHF', 'CHF', 'left'))).toBe("CHF\u00a04'390.00")
    expect(formatMoney(129950, 'CHF', market('fr-CH', 'CHF', 'CHF', 'left'))).toMatch(/^CHF\u00a01.299,50$/)
    expect(formatMoney(1799900, 'AED', market('en-AE', 'AED', 'AED', 'right'))).toBe('17,999.00\u00a0AED')
    expect(formatMoney(500, 'USD', market('en-US', 'USD', '', 'left'))).toBe('$5.00')
  })

  it("reads minor units with the currency's own exponent from Intl, not a fixed hundredth", () => {
    expect(formatMoney(129900, 'JPY', market('ja-JP', 'JPY', '¥', 'left'))).toBe('¥129,900')
    expect(formatMoney(1299500, 'KWD', market('en-KW', 'KWD', 'KD', 'left'))).toBe('KD\u00a01,299.500')
    expect(formatMoney(129900, 'JPY', market('en-US', 'USD', '$', 'left'))).toBe('¥129,900')
  })

  it("writes an amount in another currency the market's way with Intl, e.g. a CHF order seen from it-it", () => {
    expect(formatMoney(249000, 'CHF', market('it-IT', 'EUR', '€', 'right'))).toBe(
      new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'CHF' }).format(2490),
    )
    expect(formatMoney(249000, 'CHF', market('it-IT', 'EUR', '€', 'right'))).toMatch(/^2490,00\sCHF$/)
    expect(formatMoney(129900, 'USD', market('de-DE', 'EUR', '€', 'right'))).toMatch(/^1\.299,00\s\$$/)
    expect(formatMoney(129900, 'EUR', market('en-US', 'USD', '$', 'left'))).toBe('€1,299.00')
  })

  it('isolates the amount right to left in Hebrew and Arabic markets, and nowhere else', () => {
    expect(formatMoney(1839000, 'ILS', market('he-IL', 'ILS', '₪', 'left'))).toBe(`${RLI}₪18,390.00${PDI}`)
    expect(formatMoney(1799900, 'AED', market('ar-AE', 'AED', 'AED', 'right'))).toBe(`${RLI}17,999.00\u00a0AED${PDI}`)
    const chfInHebrew = formatMoney(249000, 'CHF', market('he-IL', 'ILS', '₪', 'left'))
    expect(chfInHebrew).toBe(
      `${RLI}${new Intl.NumberFormat('he-IL', { style: 'currency', currency: 'CHF' }).format(2490)}${PDI}`,
    )
    expect(chfInHebrew).toContain('2,490.00')
    for (const ltr of [
      market('en-AE', 'AED', 'AED', 'right'),
      market('de-DE', 'EUR', '€', 'right'),
      market('en', 'EUR', '€', 'left'),
    ]) {
      expect(formatMoney(100, 'EUR', ltr)).not.toMatch(/[\u2066-\u2069]/)
    }
  })
})

describe('dates', () => {
  it("writes dates the market's way", () => {
    expect(formatDate('2026-11-02', 'it-IT')).toBe('2 novembre 2026')
    expect(formatDate('not a date', 'it-IT')).toBe('not a date')
    expect(languageTag('ch', 'fr')).toBe('fr-CH')
    expect(languageTag('int', 'en')).toBe('en')
  })
})
