import { describe, expect, it } from 'vitest'
import { headFromSeo } from '../../src/components/page-head'
import { availabilityOf } from '../../src/market/availability'
import { parseMarketSegment } from '../../src/market/market'
import { parseAcceptLanguage, suggestMarket } from '../../src/market/suggest-market'
import { homeAlternates } from '../../src/seo/alternates'
import { canonicalUrl } from '../../src/seo/canonical'
import { siteSchema, type Site } from '../../contract/schemas'

const site = (slug: string, locales: string[], settings: Record<string, unknown> = {}, region = 'europe'): Site =>
  siteSchema.parse({
    slug,
    country: { name: slug, country_code: slug.toUpperCase(), region },
    currency: 'EUR',
    locales,
    urls: locales.map((l) => ({ locale_code: l, url: `/${slug}-${l}` })),
    settings,
  })

const sites = [
  site('int', ['en']),
  site('it', ['it']),
  site('ch', ['de', 'fr', 'it']),
  site('nl', ['nl'], { under_maintenance: true }),
  site('us', ['en', 'es'], {}, 'americas'),
]

describe('market segments', () => {
  it('accepts country-locale and nothing else', () => {
    expect(parseMarketSegment('ch-fr')).toEqual({ country: 'ch', locale: 'fr' })
    expect(parseMarketSegment('int-en')).toEqual({ country: 'int', locale: 'en' })
    for (const bad of ['', 'it', 'it-', 'IT-it', 'it-ita', 'itit-it', 'it_it', undefined])
      expect(parseMarketSegment(bad)).toBeNull()
  })
})

describe('the availability rule', () => {
  const withPages = (settings: Record<string, unknown>) =>
    siteSchema.parse({
      ...site('de', ['de'], settings),
      pageLinks: { 'test-drive': 'probefahrt', 'dealer-locator': 'haendler', 'about-us': 'ueber-uns' },
    })
  const market = (settings: Record<string, unknown> = {}) => ({ site: withPages(settings), segment: 'de-de' })

  it("matches the original rule for a market's switches: the path contains the feature's word, or is its slug", () => {
    const de = availabilityOf(market({ test_ride_inquiry: false }), [])
    expect(de.allowsPath('/de-de/test-drive')).toBe(false)
    expect(de.allowsPath('/de-de/products/x/test-drive')).toBe(false)
    expect(de.allowsPath('/de-de/probefahrt')).toBe(false)
    expect(de.allowsPath('/de-de/become-a-dealer')).toBe(true)
    expect(de.has('test-drive')).toBe(false)
    expect(de.pageUrl('test-drive')).toBeNull()
    expect(de.pageLinks().map(({ key }) => key)).toEqual(['dealer-locator', 'about-us'])
  })

  it("switches sections off with the brand's features, everywhere, and leaves the rest on", () => {
    const features = [
      { key: 'search', name: 'Search', enabled: false },
      { key: 'dealer_locator', name: 'Dealers', enabled: false },
    ]
    const de = availabilityOf(market(), features)
    expect(de.has('search')).toBe(false)
    expect(de.has('dealer-pages')).toBe(false)
    expect(de.pageOf('haendler')).toBeNull()
    expect(de.headerLinks().map(({ key }) => key)).toEqual(['test-drive', 'about-us'])
    expect(de.has('account')).toBe(true)
    expect(availabilityOf(null, features).has('search')).toBe(false)
  })

  it('makes nothing of a market under maintenance available', () => {
    const nl = availabilityOf(market({ under_maintenance: true }), [])
    expect(nl.live).toBe(false)
    expect(nl.has('about-us')).toBe(false)
    expect(nl.pageUrl('about-us')).toBeNull()
  })

  it('default to on when a backend leaves them out, and read 0/1 as booleans', () => {
    expect(site('xx', ['en']).settings.work_with_us).toBe(true)
    expect(site('xx', ['en'], { work_with_us: 0 }).settings.work_with_us).toBe(false)
  })
})

describe('the market suggestion', () => {
  it('prefers the edge country, in the best accepted language the site has', () => {
    expect(suggestMarket(sites, 'CH', 'fr-FR,fr;q=0.9')).toMatchObject({ site: { slug: 'ch' }, locale: 'fr' })
    expect(suggestMarket(sites, 'ch', 'ja')).toMatchObject({ site: { slug: 'ch' }, locale: 'de' })
  })

  it('uses the region of Accept-Language, then its language alone', () => {
    expect(suggestMarket(sites, null, 'es-US,en;q=0.5')).toMatchObject({ site: { slug: 'us' }, locale: 'es' })
    expect(suggestMarket(sites, null, 'it')).toMatchObject({ site: { slug: 'it' }, locale: 'it' })
  })

  it('never suggests a market under maintenance, and may suggest nothing', () => {
    expect(suggestMarket(sites, 'NL', 'nl')).toBeNull()
    expect(suggestMarket(sites, undefined, 'ja-JP')).toBeNull()
  })

  it('reads Accept-Language by weight and ignores garbage', () => {
    expect(parseAcceptLanguage('en;q=0.2, de-CH, fr;q=0.9, ***, x;q=abc')).toEqual([
      { language: 'de', region: 'ch' },
      { language: 'fr', region: null },
      { language: 'en', region: null },
    ])
  })
})

describe('the site record', () => {
  it('accepts same-site paths only as its URLs (the Worker redirects to them)', () => {
    const withUrl = (url: string) =>
      siteSchema.safeParse({ ...site('it', ['it']), urls: [{ locale_code: 'it', url }] }).success
    expect(withUrl('/it-it')).toBe(true)
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'it-it', '/it it'])
      expect(withUrl(bad), bad).toBe(false)
  })
})

describe('head tags from an SEO record', () => {
  it('drop an Open Graph image that is not a URL instead of failing the page', () => {
    const record = { model_id: 1, model_type: 'Page', og_image: 'http://[' }
    expect(headFromSeo(record, { title: 'T' }, 'https://s.test').ogImage).toBeNull()
    expect(headFromSeo({ ...record, og_image: '/images/a.svg' }, { title: 'T' }, 'https://s.test').ogImage).toBe(
      'https://s.test/images/a.svg',
    )
  })
})

describe('canonical URLs', () => {
  it('keep only the whitelisted query parameters', () => {
    expect(
      canonicalUrl('https://s.test', 'https://s.test/it-it/search/all?utm_source=x&q=+gravel+&page=2&sort=asc', [
        'page',
        'q',
      ]),
    ).toBe('https://s.test/it-it/search/all?page=2&q=gravel')
    expect(canonicalUrl('https://s.test', 'https://s.test/it-it/news?page=1&fbclid=1', ['page'])).toBe(
      'https://s.test/it-it/news',
    )
    // A page that reads neither keeps neither: no endless copies of it.
    expect(canonicalUrl('https://s.test', 'https://s.test/it-it/chi-siamo?q=x&page=7')).toBe(
      'https://s.test/it-it/chi-siamo',
    )
  })

  it("start with the site's public origin, never the host the request named", () => {
    expect(canonicalUrl('https://s.test', 'https://evil.example/it-it')).toBe('https://s.test/it-it')
    expect(canonicalUrl(null, 'https://evil.example/it-it')).toBeUndefined()
  })
})

describe("a market home's hreflang alternates (docs/decisions/073)", () => {
  it('are made once per sites list and origin, and follow a new list', () => {
    const first = homeAlternates(sites, 'https://www.example.com')
    expect(first.map((a) => a.hreflang)).toEqual([
      'en',
      'it-IT',
      'de-CH',
      'fr-CH',
      'it-CH',
      'en-US',
      'es-US',
      'x-default',
    ])
    expect(homeAlternates(sites, 'https://www.example.com')).toBe(first)
    const fewer = sites.slice(0, 2)
    expect(homeAlternates(fewer, 'https://www.example.com').map((a) => a.hreflang)).toEqual([
      'en',
      'it-IT',
      'x-default',
    ])
    expect(homeAlternates(sites, null)).toEqual([])
  })
})
