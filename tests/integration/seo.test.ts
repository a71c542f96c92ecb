import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cacheKeys } from '../fixtures/cache-keys'
import { alternatesIn, canonicalIn, structuredDataIn } from '../fixtures/head'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, ORIGIN, visit } from '../fixtures/worker'

beforeEach(clearCaches)

/** The hreflang of every live market of the demo data (nl-nl is under maintenance). */
const LIVE: Record<string, string> = {
  'int-en': 'en',
  'it-it': 'it-IT',
  'es-es': 'es-ES',
  'gr-el': 'el-GR',
  'pt-pt': 'pt-PT',
  'de-de': 'de-DE',
  'fr-fr': 'fr-FR',
  'ch-de': 'de-CH',
  'ch-fr': 'fr-CH',
  'ch-it': 'it-CH',
  'si-sl': 'sl-SI',
  'hr-hr': 'hr-HR',
  'us-en': 'en-US',
  'us-es': 'es-US',
  'mx-es': 'es-MX',
  'il-he': 'he-IL',
  'ae-ar': 'ar-AE',
  'ae-en': 'en-AE',
  'au-en': 'en-AU',
  'za-en': 'en-ZA',
}

/** The alternates a page must have: each market's URL of it (absolute, on the public origin), and x-default → `/`. */
const expected = (paths: Record<string, string>) => ({
  ...Object.fromEntries(
    Object.entries(paths).map(([market, path]) => [LIVE[market] as string, `${ORIGIN}/${market}${path}`]),
  ),
  'x-default': `${ORIGIN}/`,
})

async function alternatesOf(path: string) {
  const { status, text } = await visit(path)
  expect(status, path).toBe(200)
  const { links, counts } = alternatesIn(text)
  expect(
    Object.values(counts).every((count) => count === 1),
    `${path}: one link per hreflang`,
  ).toBe(true)
  return links
}

describe('hreflang (PRODUCT.md §5 SEO)', () => {
  it('lists on a product page exactly the live markets that sell it, itself among them', async () => {
    // aurora-e-cargo is priced in int, it, es, gr, pt, de, fr, ch, si, hr, nl and il; nl is under maintenance.
    const sold = [
      'int-en',
      'it-it',
      'es-es',
      'gr-el',
      'pt-pt',
      'de-de',
      'fr-fr',
      'ch-de',
      'ch-fr',
      'ch-it',
      'si-sl',
      'hr-hr',
      'il-he',
    ]
    const links = await alternatesOf('/ch-fr/products/aurora-e-cargo')
    expect(links).toEqual(expected(Object.fromEntries(sold.map((market) => [market, '/products/aurora-e-cargo']))))
    expect(links['fr-CH']).toBe(`${ORIGIN}/ch-fr/products/aurora-e-cargo`)
  })

  it("lists on an article its translations, in every market that shows each, and on a market's own article only itself", async () => {
    const links = await alternatesOf('/it-it/news/details/report-sostenibilita-2025')
    expect(links).toEqual(
      expected({
        'int-en': '/news/details/sustainability-report-2025',
        'us-en': '/news/details/sustainability-report-2025',
        'ae-en': '/news/details/sustainability-report-2025',
        'au-en': '/news/details/sustainability-report-2025',
        'za-en': '/news/details/sustainability-report-2025',
        'it-it': '/news/details/report-sostenibilita-2025',
        'ch-it': '/news/details/report-sostenibilita-2025',
        'de-de': '/news/details/nachhaltigkeitsbericht-2025',
        'ch-de': '/news/details/nachhaltigkeitsbericht-2025',
      }),
    )
    expect(await alternatesOf('/ch-fr/news/details/aurora-partenaire-cyclosportive-du-leman')).toEqual(
      expected({ 'ch-fr': '/news/details/aurora-partenaire-cyclosportive-du-leman' }),
    )
  })

  it("lists on a dealer's page the locales of its market only", async () => {
    expect(await alternatesOf('/ch-it/dealers/velowerk-limmat')).toEqual(
      expected({
        'ch-de': '/dealers/velowerk-limmat',
        'ch-fr': '/dealers/velowerk-limmat',
        'ch-it': '/dealers/velowerk-limmat',
      }),
    )
  })

  it("leaves out the markets where a content page is switched off, and uses each market's own slug", async () => {
    const testRide = await alternatesOf('/it-it/prova-su-strada')
    expect(testRide['de-DE']).toBeUndefined()
    expect(testRide['fr-FR']).toBe(`${ORIGIN}/fr-fr/essai`)
    const jobs = await alternatesOf('/it-it/lavora-con-noi')
    expect(jobs['pt-PT']).toBeUndefined()
    const dealers = await alternatesOf('/it-it/diventa-rivenditore')
    expect(dealers['fr-FR']).toBeUndefined()
    // Its own page is switched off in fr-fr: the page does not exist there, so fr-fr has no alternates of it.
    expect((await visit('/fr-fr/devenir-revendeur')).status).toBe(404)
    const about = await alternatesOf('/de-de/ueber-uns')
    expect(about['it-IT']).toBe(`${ORIGIN}/it-it/chi-siamo`)
    expect(Object.keys(about).sort()).toEqual([...Object.values(LIVE), 'x-default'].sort())
  })

  it('lists on listings the markets that sell something of theirs, and on the news index every live market (its first page only)', async () => {
    const index = JSON.parse((await visit('/api/front/page-index')).text) as {
      data: { listings: Array<{ type: string; site: string }> }
    }
    const sellsAccessories = (market: string) =>
      index.data.listings.some((l) => l.type === 'accessories' && l.site === market.split('-')[0])
    const accessories = await alternatesOf('/it-it/products/type/accessories')
    expect(accessories).toEqual(
      expected(
        Object.fromEntries(
          Object.keys(LIVE)
            .filter(sellsAccessories)
            .map((m) => [m, '/products/type/accessories']),
        ),
      ),
    )
    expect(Object.keys(await alternatesOf('/us-en/products')).length).toBe(Object.keys(LIVE).length + 1)
    expect(await alternatesOf('/il-he/news')).toEqual(
      expected(Object.fromEntries(Object.keys(LIVE).map((m) => [m, '/news']))),
    )
    const more = Array.from({ length: 10 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO news (slug, scope, locale, title, published_at) VALUES (?, '*', 'he', ?, '2026-01-01')",
      ).bind(`more-${i}`, `עוד ${i}`),
    )
    await env.DB.batch(more)
    await clearCaches()
    expect(await alternatesOf('/il-he/news?page=2')).toEqual({})
  })

  it('never lists a market under maintenance, and gives none on pages that are not indexed', async () => {
    const home = await alternatesOf('/it-it')
    expect(Object.values(home).some((href) => href.includes('nl-nl'))).toBe(false)
    const search = await visit('/it-it/search/all?q=gravel')
    expect(alternatesIn(search.text).links).toEqual({})
  })

  it('writes every URL on the public origin, whatever Host the request came with', async () => {
    const { text } = await visit('https://attacker.example/it-it/products/aurora-e-cargo', {
      headers: { Host: 'attacker.example' },
    })
    expect(canonicalIn(text)).toBe(`${ORIGIN}/it-it/products/aurora-e-cargo`)
    expect(Object.values(alternatesIn(text).links).every((href) => href.startsWith(`${ORIGIN}/`))).toBe(true)
    expect(text).not.toContain('attacker.example')
    const sitemap = await visit('https://attacker.example/it-it/sitemap.xml', { headers: { Host: 'attacker.example' } })
    expect(sitemap.text).not.toContain('attacker.example')
    const robots = await visit('https://attacker.example/robots.txt', { headers: { Host: 'attacker.example' } })
    expect(robots.text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`)
  })
})

describe('robots.txt', () => {
  it('names the sitemap index and keeps crawlers out of the account, checkout, cart, login, search and the console', async () => {
    const { status, text, headers } = await visit('/robots.txt')
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toContain('text/plain')
    const lines = text.split('\n')
    for (const rule of [
      'Disallow: /*/my-account',
      'Disallow: /*/checkout',
      'Disallow: /*/cart',
      'Disallow: /login',
      'Disallow: /*/search/',
      'Disallow: /_',
      'Disallow: /api/',
    ]) {
      expect(lines).toContain(rule)
    }
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`)
  })

  it('names no sitemap without a public origin (it would be no absolute URL)', async () => {
    const { text } = await visit('/robots.txt', {}, { PUBLIC_ORIGIN: '' })
    expect(text).not.toContain('Sitemap:')
  })
})

describe('structured data (JSON-LD)', () => {
  const typesOf = async (path: string) => {
    const { status, text } = await visit(path)
    expect(status, path).toBe(200)
    return structuredDataIn(text)
  }
  const find = (things: Awaited<ReturnType<typeof typesOf>>, type: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: the test reads JSON-LD freely, checking each value it names
    things.find((thing) => thing['@type'] === type) as Record<string, any>

  it("describes a home as the brand's Organization and a WebSite whose SearchAction searches the market", async () => {
    const things = await typesOf('/ch-fr')
    expect(find(things, 'Organization')).toMatchObject({
      name: 'Aurora Cycles',
      url: `${ORIGIN}/`,
      logo: `${ORIGIN}/logo.svg`,
    })
    expect(find(things, 'WebSite')).toMatchObject({
      url: `${ORIGIN}/ch-fr`,
      inLanguage: 'fr-CH',
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${ORIGIN}/ch-fr/search/all?q={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    })
  })

  it("describes a product with one Offer per variant sold in the market: decimal price, ISO currency, availability, the market's URL", async () => {
    const things = await typesOf('/ch-fr/products/aurora-e-cargo')
    const product = find(things, 'Product')
    expect(product.name).toBeTruthy()
    expect(product.brand).toEqual({ '@type': 'Brand', name: 'Aurora Cycles' })
    expect(product.image.every((url: string) => url.startsWith(`${ORIGIN}/images/`))).toBe(true)
    expect(product.offers.length).toBeGreaterThan(0)
    for (const offer of product.offers) {
      expect(offer).toMatchObject({
        '@type': 'Offer',
        priceCurrency: 'CHF',
        url: `${ORIGIN}/ch-fr/products/aurora-e-cargo`,
      })
      expect(offer.price).toMatch(/^\d+\.\d{2}$/)
      expect(offer.availability).toMatch(/^https:\/\/schema\.org\/(InStock|LimitedAvailability|OutOfStock|PreOrder)$/)
      expect(offer.sku).toBeTruthy()
    }
    expect(find(things, 'BreadcrumbList').itemListElement.map((item: { item: string }) => item.item)).toEqual([
      `${ORIGIN}/ch-fr`,
      `${ORIGIN}/ch-fr/products/type/e-bikes`,
      `${ORIGIN}/ch-fr/products/aurora-e-cargo`,
    ])
  })

  it('describes an article as a NewsArticle published by the brand, under the news', async () => {
    const things = await typesOf('/it-it/news/details/report-sostenibilita-2025')
    expect(find(things, 'NewsArticle')).toMatchObject({
      datePublished: expect.stringMatching(/^\d{4}-\d{2}-\d{2}/),
      inLanguage: 'it-IT',
      mainEntityOfPage: `${ORIGIN}/it-it/news/details/report-sostenibilita-2025`,
      publisher: { '@type': 'Organization', name: 'Aurora Cycles' },
    })
    expect(find(things, 'NewsArticle').headline).toBeTruthy()
    expect(find(things, 'BreadcrumbList').itemListElement[1]).toMatchObject({
      position: 2,
      item: `${ORIGIN}/it-it/news`,
    })
  })

  it('describes a dealer as a BikeStore with its address, position and opening hours, under the dealer locator', async () => {
    const things = await typesOf('/it-it/dealers/cicli-bergamasca')
    const store = find(things, 'BikeStore')
    expect(store.address).toMatchObject({ '@type': 'PostalAddress', addressCountry: 'IT' })
    expect(store.address.streetAddress).toBeTruthy()
    expect(store.geo).toMatchObject({
      '@type': 'GeoCoordinates',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    })
    expect(store.openingHoursSpecification[0]).toMatchObject({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: expect.stringMatching(/^https:\/\/schema\.org\/(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day$/),
      opens: expect.stringMatching(/^\d{2}:\d{2}$/),
      closes: expect.stringMatching(/^\d{2}:\d{2}$/),
    })
    expect(find(things, 'BreadcrumbList').itemListElement[1]).toMatchObject({ item: `${ORIGIN}/it-it/rivenditori` })
  })

  it("puts a type's listing under the listing of every product", async () => {
    const trail = find(await typesOf('/it-it/products/type/accessories'), 'BreadcrumbList')
    expect(trail.itemListElement.map((item: { item: string }) => item.item)).toEqual([
      `${ORIGIN}/it-it`,
      `${ORIGIN}/it-it/products`,
      `${ORIGIN}/it-it/products/type/accessories`,
    ])
  })

  it('is never on a page that is not indexed', async () => {
    const search = await visit('/it-it/search/all?q=gravel')
    expect(search.text).toContain('noindex')
    expect(structuredDataIn(search.text)).toEqual([])
    expect(structuredDataIn((await visit('/login')).text)).toEqual([])
  })

  it('escapes what could end its script: a product named with </script> stays inside, as text', async () => {
    const name = 'Evil </script><script>alert(1)</script> & <!-- bike'
    await env.DB.prepare(
      "UPDATE product_names SET name = ? WHERE locale = 'it' AND product_id = (SELECT id FROM products WHERE slug = 'aurora-e-cargo')",
    )
      .bind(name)
      .run()
    const { text } = await visit('/it-it/products/aurora-e-cargo')
    const script = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(text)?.[1] ?? ''
    expect(script).not.toMatch(/[<>]/)
    expect(script).toContain('\\u003c/script\\u003e')
    expect(structuredDataIn(text).find((thing) => thing['@type'] === 'Product')?.name).toBe(name)
    expect(text).not.toContain('<script>alert(1)</script>')
  })
})

describe('the page index behind hreflang and sitemaps', () => {
  it('is a cached lookup, purged with any market', async () => {
    await visit('/it-it/sitemap.xml')
    expect(await env.CACHE.get(cacheKeys.pageIndex())).not.toBeNull()
    const purged = await visit('/_purge?market=de-de', {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.PURGE_SECRET}` },
    })
    expect(purged.status).toBe(200)
    expect(await env.CACHE.get(cacheKeys.pageIndex())).toBeNull()
  })
})

describe('the SEO record (`api/front/seo/{model_id}/{model_type}`, seed §7)', () => {
  afterEach(() => vi.unstubAllGlobals())
  const http = { UPSTREAM_URL }
  const seoCalls = (requests: Request[]) =>
    requests.map((request) => new URL(request.url).pathname).filter((path) => path.startsWith('/api/front/seo/'))
  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]

  async function recordFor(modelType: string, modelId: number) {
    await env.DB.prepare(
      "INSERT OR REPLACE INTO seo_records (model_type, model_id, locale, page_title, meta_description) VALUES (?, ?, 'it', 'Titolo del record SEO', 'Descrizione del record SEO')",
    )
      .bind(modelType, modelId)
      .run()
  }

  it('is never asked for a product (Product) or a news article (Post): they carry their own title and description, even where a record exists', async () => {
    const product = await env.DB.prepare("SELECT id FROM products WHERE slug = 'aurora-strada-9'").first<number>('id')
    const article = await env.DB.prepare("SELECT id FROM news WHERE slug = 'report-sostenibilita-2025'").first<number>(
      'id',
    )
    await recordFor('Product', product!)
    await recordFor('Post', article!)
    const upstream = httpUpstream()
    for (const path of ['/it-it/products/aurora-strada-9', '/it-it/news/details/report-sostenibilita-2025']) {
      const { status, text } = await visit(path, {}, http)
      expect(status, path).toBe(200)
      expect(titleOf(text), path).not.toContain('Titolo del record SEO')
      expect(text, path).not.toContain('Descrizione del record SEO')
    }
    expect(upstream.requests.length).toBeGreaterThan(0)
    expect(seoCalls(upstream.requests)).toEqual([])
  })

  it('is asked for every other model: a content page (Page) and a listing (Listing)', async () => {
    const upstream = httpUpstream()
    expect((await visit('/it-it/chi-siamo', {}, http)).status).toBe(200)
    expect((await visit('/it-it/news', {}, http)).status).toBe(200)
    const page = await env.DB.prepare("SELECT id FROM pages WHERE key = 'about-us'").first<number>('id')
    expect(seoCalls(upstream.requests)).toEqual([`/api/front/seo/${page}/Page`, '/api/front/seo/news/Listing'])
  })
})
