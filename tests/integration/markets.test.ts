import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import italian from '../../demo/messages/it.json'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { clearCaches, textOf, visit } from '../fixtures/worker'

const MAINTENANCE = 'This page its under maintenance, please check again later.'

beforeEach(clearCaches)

describe('market resolution (PRODUCT.md §3)', () => {
  it("serves the landing page at / without a market, with a plain link to every live market and the picker's form", async () => {
    const { status, text, headers } = await visit('/')
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toContain('text/html')
    expect(text).toContain('action="/_market"')
    expect(text).toContain('<a href="/it-it" hrefLang="it-IT" lang="it" data-market="it-it">Italia</a>')
    expect(text).toContain('<a href="/ch-fr" hrefLang="fr-CH" lang="fr" data-market="ch-fr">')
    for (const segment of LIVE_SEGMENTS)
      expect(text, segment).toMatch(new RegExp(`<a href="/${segment}" [^>]*data-market="${segment}">`))
  })

  it('hides sites under maintenance from the picker', async () => {
    const { text } = await visit('/')
    expect(text).not.toContain('nl-nl')
    const home = await visit('/it-it')
    expect(home.text).toContain('value="ch-it"')
    expect(home.text).not.toContain('value="nl-nl"')
  })

  it('serves a market home for every live market of the demo data', async () => {
    for (const market of LIVE_SEGMENTS) {
      const { status, text } = await visit(`/${market}`)
      expect(status, market).toBe(200)
      expect(text, market).toContain(`<html lang="${market.split('-')[1]}"`)
    }
  })

  it('answers 404 "(no-country)" when the first segment is not of the form country-locale', async () => {
    for (const path of ['/italy', '/it', '/it-it-it', '/IT-IT', '/i-t', '/favicon.png']) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(404)
      expect(text, path).toContain('This page could not be found (no-country).')
    }
  })

  it('answers 404 "(no-country)" when no site has that country', async () => {
    const { status, text } = await visit('/xx-en/about-us')
    expect(status).toBe(404)
    expect(text).toContain('This page could not be found (no-country).')
  })

  it('answers 404 "(no-locale)" when the locale is not one of the site\'s', async () => {
    for (const path of ['/it-en', '/ch-en/about-us', '/us-fr']) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(404)
      expect(text, path).toContain('This page could not be found (no-locale).')
    }
  })

  it('answers 503 maintenance for a page of every kind of a site under maintenance, clearing the remembered market (its whistleblower channel stays open: whistleblower.test.ts)', async () => {
    const pages = [
      '/nl-nl',
      '/nl-nl/over-ons',
      '/nl-nl/products',
      '/nl-nl/products/type/e-bikes',
      '/nl-nl/products/aurora-strada-9',
      '/nl-nl/news',
      '/nl-nl/news/details/report-sostenibilita-2025',
      '/nl-nl/search/all?q=strada',
      '/nl-nl/dealer-locator',
      '/nl-nl/dealers/cicli-bergamasca',
      '/nl-nl/cart',
      '/nl-nl/checkout/abc',
      '/nl-nl/my-account',
      '/nl-nl/newsletter',
      '/nl-nl/cookiebeleid',
      '/nl-nl/no/such/page',
    ]
    for (const path of pages) {
      const { status, text, headers } = await visit(path, { headers: { Cookie: 'CountryLocale=nl-nl' } })
      expect(status, path).toBe(503)
      expect(text).toContain(MAINTENANCE)
      expect(headers.get('Retry-After')).toMatch(/^\d+$/)
      expect(headers.get('Cache-Control')).toBe('no-store')
      expect(headers.get('Set-Cookie')).toMatch(/^CountryLocale=;.*Max-Age=0/)
    }
  })

  it('answers 404 "This page could not be found." on paths of switched-off features', async () => {
    const cases = [
      ['/de-de/probefahrt', 'test_ride_inquiry off'],
      ['/de-de/probefahrt/anything', 'test_ride_inquiry off, deeper'],
      ['/fr-fr/devenir-revendeur', 'become_a_partner off'],
      ['/fr-fr/devenir-distributeur', 'become_a_partner off'],
      ['/pt-pt/trabalhe-connosco', 'work_with_us off'],
      // The English slugs these pages had: switched off, they are not moved to the localised slug but answer 404.
      ['/de-de/test-drive', 'test_ride_inquiry off, the old English slug'],
      ['/fr-fr/become-a-dealer', 'become_a_partner off, the old English slug'],
      ['/pt-pt/work-with-us', 'work_with_us off, the old English slug'],
    ]
    for (const [path, why] of cases) {
      const { status, text } = await visit(path as string)
      expect(status, why).toBe(404)
      expect(text, why).toContain('This page could not be found.')
      expect(text, why).not.toContain('(no-')
    }
  })

  it('switches a feature off whatever the market calls its page', async () => {
    await env.DB.prepare(
      `UPDATE sites SET page_links = json_set(page_links, '$."test-drive"', 'probefahrt') WHERE slug = 'de'`,
    ).run()
    try {
      const { status, text } = await visit('/de-de/probefahrt')
      expect(status).toBe(404)
      expect(text).toContain('This page could not be found.')
      expect(text).not.toContain('(no-')
    } finally {
      await env.DB.prepare(
        `UPDATE sites SET page_links = json_set(page_links, '$."test-drive"', 'test-drive') WHERE slug = 'de'`,
      ).run()
    }
  })

  it('serves the same feature pages where they are switched on', async () => {
    for (const path of [
      '/it-it/prova-su-strada',
      '/de-de/haendler-werden',
      '/fr-fr/travailler-avec-nous',
      '/pt-pt/torne-se-distribuidor',
    ]) {
      expect((await visit(path)).status, path).toBe(200)
    }
  })

  it('hides switched-off features from the menus', async () => {
    const { text } = await visit('/de-de')
    expect(text).not.toContain('href="/de-de/probefahrt"')
    expect(text).toContain('href="/de-de/haendler-werden"')
    const fr = await visit('/fr-fr')
    expect(fr.text).not.toContain('become-a-dealer')
    expect(fr.text).not.toContain('become-a-distributor')
    expect(fr.text).not.toContain('devenir-revendeur')
    expect(fr.text).not.toContain('devenir-distributeur')
  })

  it('answers 404 "Page Not Found: {fullPath}" when no route matches', async () => {
    for (const path of ['/it-it/no-such-page', '/it-it/a/b/c', '/it-it/no-such-page?x=1']) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(404)
      expect(text).toContain(`Page Not Found: ${path.replace('&', '&amp;')}`)
    }
  })

  it('heads an Italian 404 in Italian and still shows the exact English message, marked as English', async () => {
    const { status, text } = await visit('/it-it/pagina-inesistente')
    expect(status).toBe(404)
    expect(text).toContain('<html lang="it"')
    expect(text).toContain(`<h1 class="error-title">${italian.common.not_found_title}</h1>`)
    expect(textOf(text)).toContain(italian.common.page_not_found_homepage)
    expect(text).toContain('<p class="error-message" lang="en" dir="ltr">Page Not Found: /it-it/pagina-inesistente</p>')
    expect(text).not.toMatch(/<h1[^>]*>[^<]*Page Not Found/)
  })

  it('heads an error page outside any market in English, above its exact message', async () => {
    const { status, text } = await visit('/xx-yy/anything')
    expect(status).toBe(404)
    expect(text).toContain('<h1 class="error-title">Page not found</h1>')
    expect(text).toContain(
      '<p class="error-message" lang="en" dir="ltr">This page could not be found (no-country).</p>',
    )
  })

  it("resolves content pages through the site's pageLinks, whose slugs differ per market", async () => {
    const it_ = await visit('/it-it/chi-siamo')
    expect(it_.status).toBe(200)
    expect(it_.text).toContain('href="/it-it/contatti"')
    // The English slug of a page the market names in its language is moved there for good (a bookmark keeps working).
    const moved = await visit('/it-it/about-us')
    expect(moved.status).toBe(301)
    expect(moved.headers.get('Location')).toBe('/it-it/chi-siamo')
    expect((await visit('/de-de/ueber-uns')).status).toBe(200)
    expect((await visit('/int-en/about-us')).status).toBe(200)
  })
})

describe('the error page (PRODUCT.md §3.9)', () => {
  it("is dark, shows the logo, the translated texts and a link to the site's first URL", async () => {
    const { text } = await visit('/it-it/pagina-inesistente')
    // In a market, the dark band between the market's header and footer (docs/decisions/056).
    expect(text).toContain('<main id="main" tabindex="-1" class="error-page">')
    expect(text).toContain('class="logo"')
    expect(text).toContain('href="/it-it"')
    expect(text).toMatch(/<html lang="it"/)
  })

  it('speaks int-en and leads to /int-en for an unknown country or locale', async () => {
    for (const path of ['/zz-zz', '/it-xx']) {
      const { text } = await visit(path)
      expect(text).toContain('href="/int-en"')
      expect(text).toContain('Return to home')
      expect(text).toMatch(/<html lang="en" dir="ltr"/)
    }
  })

  it('never loads a script', async () => {
    const { text, headers } = await visit('/zz-zz')
    expect(text).not.toContain('<script')
    expect(headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'")
  })
})

describe('direction and language', () => {
  it('renders he and ar right to left, en in the same country left to right', async () => {
    expect((await visit('/il-he')).text).toMatch(/<html lang="he" dir="rtl"/)
    expect((await visit('/ae-ar')).text).toMatch(/<html lang="ar" dir="rtl"/)
    expect((await visit('/ae-en')).text).toMatch(/<html lang="en" dir="ltr"/)
  })

  it("takes each locale's own SEO record for the home page, in a country of three locales", async () => {
    const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]
    const [de, fr, it_] = await Promise.all(
      ['/ch-de', '/ch-fr', '/ch-it'].map(async (path) => titleOf((await visit(path)).text)),
    )
    expect(new Set([de, fr, it_]).size).toBe(3)
  })

  it('renders each market in its own language', async () => {
    const messages = env.TEST_DEMO_MESSAGES as unknown as Record<string, { footer: { legal: string; explore: string } }>
    for (const segment of LIVE_SEGMENTS) {
      const locale = segment.split('-')[1]!
      const { text } = await visit(`/${segment}`)
      expect(text, segment).toMatch(new RegExp(`<html lang="${locale}"`))
      expect(text, segment).toContain(`<h2>${messages[locale]!.footer.explore}</h2>`)
      expect(text, segment).toContain(`<h2>${messages[locale]!.footer.legal}</h2>`)
    }
    expect(textOf((await visit('/de-de')).text)).toContain('Händler')
  })
})
