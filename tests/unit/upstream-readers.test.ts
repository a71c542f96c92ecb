import { afterEach, describe, expect, it, vi } from 'vitest'
import { currencyOfSite } from '../../src/upstream/readers/currency'
import { featureListAnswer } from '../../src/upstream/readers/features'
import { siteListAnswer, siteRecordAnswer } from '../../src/upstream/readers/site-records'
import { translationsAnswer } from '../../src/upstream/readers/translations'
import { userRecordAnswer } from '../../src/upstream/readers/user-record'

afterEach(() => vi.restoreAllMocks())

/** A site record in the original's shape (seed §3): no currency, absolute urls, 0/1 flags, a field the site ignores. */
const original = (slug: string, token: string | null, country_code = slug.toUpperCase()) => ({
  id: 7,
  slug,
  country: { name: slug, country_code, region: 'europe' },
  locales: ['it'],
  urls: [{ locale_code: 'it', url: `https://www.brand.example/${slug}-it/` }],
  pageLinks: {},
  seo: null,
  settings: { under_maintenance: 0, test_ride_inquiry: 1 },
  default_currency_token: token,
  default_currency_place: null,
  timezone: 'Europe/Rome',
})

describe("the readers of the brand's own backend", () => {
  it('reads a site record without a currency: its token when a code, its country, its token, else dollars', () => {
    expect(currencyOfSite({ country_code: 'CH' }, 'CHF')).toBe('CHF')
    expect(currencyOfSite({ country_code: 'MX' }, '$')).toBe('MXN')
    expect(currencyOfSite({ country_code: 'INT' }, '€')).toBe('EUR')
    expect(currencyOfSite({ country_code: 'XX' }, null)).toBe('USD')
    const { data } = siteRecordAnswer.parse({ data: original('it', '€') })
    expect(data.currency).toBe('EUR')
    expect(data.default_currency_token).toBe('€')
    expect(data.default_currency_place).toBe('left')
    expect(data.urls).toEqual([{ locale_code: 'it', url: '/it-it' }])
    expect(data.settings.test_ride_inquiry).toBe(true)
    expect(data).not.toHaveProperty('timezone')
  })

  it('drops a record it cannot read from the list, logged, and keeps the others', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { slug: _, ...noSlug } = original('bk', '€')
    const { data } = siteListAnswer.parse({ data: [original('it', '€'), noSlug, original('us', null)] })
    expect(data.map((site) => [site.slug, site.currency])).toEqual([
      ['it', 'EUR'],
      ['us', 'USD'],
    ])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"event":"site_record_invalid"'))
  })

  it('reads a plain Laravel user, splitting the name where no first name is given', () => {
    const laravel = {
      id: 4,
      name: 'Giulia Maria Rossi',
      email: 'g@example.com',
      email_verified_at: null,
      created_at: '2026-01-05T08:59:00.000000Z',
      updated_at: '2026-01-05T08:59:00.000000Z',
    }
    const { data } = userRecordAnswer.parse({ data: laravel })
    expect([data.first_name, data.last_name, data.name]).toEqual(['Giulia', 'Maria Rossi', 'Giulia Maria Rossi'])
    const contract = userRecordAnswer.parse({
      data: { ...laravel, name: 'G. Rossi', first_name: 'Giulia', last_name: 'Rossi' },
    }).data
    expect([contract.first_name, contract.last_name, contract.name]).toEqual(['Giulia', 'Rossi', 'G. Rossi'])
  })

  it('reads a translation resource of flat dotted keys as nested texts, leaving out what is no text', () => {
    const { data } = translationsAnswer.parse({
      data: { 'brand.name': 'Aurora', 'home.hero': { title: 'Ciao' }, 'brand.count': 3, '__proto__.x': 'no' },
    })
    expect(data).toEqual({ brand: { name: 'Aurora' }, home: { hero: { title: 'Ciao' } } })
  })

  it("maps the brand's features onto the site's switches through the one table, ignoring unknown ones", () => {
    const { data } = featureListAnswer.parse({
      data: [
        { id: 1, name: 'login', status: 0 },
        { id: 2, name: 'dealer_locator', status: 1 },
        { id: 3, name: 'loyalty_points', status: 1 },
        { key: 'search', name: 'Site search', enabled: false },
      ],
    })
    expect(data.map(({ key, enabled }) => [key, enabled])).toEqual([
      ['customer_login', false],
      ['dealer_locator', true],
      ['search', false],
    ])
  })
})
