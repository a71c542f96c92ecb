import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { formatDate, formatPrice, languageTag } from '../../src/i18n/formats'
import { createTranslator } from '../../src/i18n/translator'
import { direction } from '../../src/i18n/direction'

type Messages = { [key: string]: string | Messages }
const flatten = (messages: Messages, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(messages).flatMap(([key, value]) =>
      typeof value === 'string' ? [[prefix + key, value]] : Object.entries(flatten(value, `${prefix}${key}.`))),
  )
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()

describe('the translator', () => {
  it('translates with parameters in the market\'s language', () => {
    const { t } = createTranslator('it', { picker: { suggested: 'Sembra che tu sia in {{market}}.' } })
    expect(t('picker.suggested', { market: 'Italia' })).toBe('Sembra che tu sia in Italia.')
  })

  it('falls back to English for a missing key, and to the key itself when nobody has it', () => {
    const { t } = createTranslator('it', {})
    expect(t('common.return_to_home')).toBe('Return to home')
    expect(t('no.such.key')).toBe('no.such.key')
  })

  it('never answers a group of texts as a text', () => {
    const { t } = createTranslator('it', { common: { return_to_home: { oops: 'x' } } } as never)
    expect(t('common.return_to_home')).toBe('Return to home')
    expect(t('common')).toBe('common')
  })

  it('logs a missing key once per isolate', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { t } = createTranslator('sl', {})
    t('home.hero_title')
    t('home.hero_title')
    createTranslator('sl', {}).t('home.hero_title')
    const lines = warn.mock.calls.map(([line]) => JSON.parse(String(line)))
    expect(lines).toEqual([{ level: 'warn', event: 'missing_translation', locale: 'sl', key: 'home.hero_title' }])
    warn.mockRestore()
  })

  it('keeps each request\'s language to itself', () => {
    const italian = createTranslator('it', { common: { return_to_home: 'Torna alla home' } })
    const german = createTranslator('de', { common: { return_to_home: 'Zur Startseite' } })
    expect(italian.t('common.return_to_home')).toBe('Torna alla home')
    expect(german.t('common.return_to_home')).toBe('Zur Startseite')
    expect(italian.t('common.return_to_home')).toBe('Torna alla home')
  })

  it('sets right to left for he, ar and fa only', () => {
    expect(['he', 'ar', 'fa', 'en', 'it'].map(direction)).toEqual(['rtl', 'rtl', 'rtl', 'ltr', 'ltr'])
  })
})

describe('the demo translations', () => {
  const all = env.TEST_DEMO_MESSAGES
  const english = flatten(all.en as Messages)

  it('cover every locale of the demo markets', () => {
    expect(Object.keys(all).sort()).toEqual(['ar', 'de', 'el', 'en', 'es', 'fr', 'he', 'hr', 'it', 'nl', 'pt', 'sl'])
  })

  it.each(Object.keys(all))('have every UI text in %s, with the same placeholders', (locale) => {
    const texts = flatten(all[locale] as Messages)
    expect(Object.keys(texts).sort()).toEqual(Object.keys(english).sort())
    for (const [key, text] of Object.entries(texts)) {
      expect(text.trim(), `${locale}:${key}`).not.toBe('')
      expect(placeholders(text), `${locale}:${key}`).toEqual(placeholders(english[key] as string))
    }
  })
})

describe('prices and dates', () => {
  it('puts the currency token on the site\'s side, $ on the left by default', () => {
    expect(formatPrice(1299, { default_currency_token: '€', default_currency_place: 'right' }, 'de-DE')).toBe('1.299,00\u00a0€')
    expect(formatPrice(1299, { default_currency_token: '$', default_currency_place: 'left' }, 'en-US')).toBe('$1,299.00')
    expect(formatPrice(5, { default_currency_token: '', default_currency_place: 'left' }, 'en-US')).toBe('$5.00')
    expect(formatPrice(1299.5, { default_currency_token: 'CHF', default_currency_place: 'left' }, 'fr-CH')).toMatch(/^CHF\u00a01.299,50$/)
  })

  it('writes dates the market\'s way', () => {
    expect(formatDate('2026-11-02', 'it-IT')).toBe('2 novembre 2026')
    expect(formatDate('not a date', 'it-IT')).toBe('not a date')
    expect(languageTag('ch', 'fr')).toBe('fr-CH')
    expect(languageTag('int', 'en')).toBe('en')
  })
})
