import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import italian from '../../demo/messages/it.json'
import { api } from '../../reference-api'
import { ftsQuery } from '../../reference-api/resources/search'
import { expectFirstCardImageEager } from '../fixtures/card-images'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { clearCaches, textOf, visit } from '../fixtures/worker'
import { IT_PAGE_KINDS } from '../fixtures/public-pages'

const page = async (path: string) => {
  const answer = await visit(path)
  return { ...answer, words: textOf(answer.text), main: textOf(/<main[\s\S]*<\/main>/.exec(answer.text)?.[0] ?? '') }
}

/** The search API's answer, as the Worker gets it. */
async function searchApi(query: string, market = { country: 'it', locale: 'it' }) {
  const request = new Request(`http://embedded.invalid/api/front/search?${query}`, {
    headers: { 'X-Tenant': market.country, 'X-Locale': market.locale },
  })
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
  return {
    status: response.status,
    body: (await response.json()) as {
      data: Array<{ kind: string; slug: string; title: string }>
      meta: { total: number }
    },
  }
}

describe('news', () => {
  it("lists the market's articles in its locale, newest first, with date, picture and a link to the canonical page", async () => {
    const { status, text, main } = await page('/it-it/news')
    expect(status).toBe(200)
    expect(main).toContain(italian.news.title)
    // The Italian market's own article and the articles of every Italian-speaking market; not Switzerland's own.
    expect(text).toContain('href="/it-it/news/details/pedalata-solidale-bergamo-2025"')
    expect(text).toContain('href="/it-it/news/details/nuova-gravel-aurora-sterrato-gr"')
    const dates = [...text.matchAll(/<time dateTime="(\d{4}-\d{2}-\d{2})">/g)].map((m) => m[1] as string)
    expect(dates.length).toBeGreaterThan(3)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(text).not.toContain('href="/it-it/news/details/surf-coast-gran-fondo-partner"')
  })

  it("loads the first card's picture at once with high priority (the largest paint), every other lazily", async () => {
    expectFirstCardImageEager((await visit('/it-it/news')).text)
    expectFirstCardImageEager((await visit('/int-en/news')).text)
  })

  it('pages the index: a page past the end or a malformed number is "Page Not Found"', async () => {
    for (let i = 0; i < 6; i++) {
      await env.DB.prepare(
        `INSERT INTO news (slug, scope, locale, title, excerpt, published_at) VALUES (?, 'it', 'it', ?, '', '2020-01-0${i + 1}')`,
      )
        .bind(`vecchia-notizia-${i}`, `Vecchia notizia ${i}`)
        .run()
    }
    await clearCaches()
    const first = await page('/it-it/news')
    expect(first.text).toContain('href="/it-it/news?page=2"')
    const second = await page('/it-it/news?page=2')
    expect(second.status).toBe(200)
    expect(second.main).toContain('Vecchia notizia 0')
    expect(second.text).toContain('href="/it-it/news"')
    for (const bad of ['?page=3', '?page=0', '?page=x', '?page=101']) {
      const { status, words } = await page(`/it-it/news${bad}`)
      expect(status, bad).toBe(404)
      expect(words).toContain(`Page Not Found: /it-it/news${bad}`)
    }
  })

  it('shows an article with its title, date, picture and sanitised body at the canonical URL', async () => {
    const { status, text, main } = await page('/it-it/news/details/nuova-gravel-aurora-sterrato-gr')
    expect(status).toBe(200)
    expect(text).toMatch(/<h1>[^<]*Sterrato GR[^<]*<\/h1>/)
    expect(text).toContain(
      '<link rel="canonical" href="https://site.test/it-it/news/details/nuova-gravel-aurora-sterrato-gr"/>',
    )
    expect(text).toMatch(/<div class="rich-text"><(p|h2)>/)
    expect(main).toContain(italian.news.all)
  })

  it('never shows markup an article should not have', async () => {
    await env.DB.prepare(`UPDATE news SET body = ? WHERE slug = 'nuova-gravel-aurora-sterrato-gr'`)
      .bind(
        '<p onmouseover="x()">Testo</p><script>alert(1)</script><a href="javascript:alert(2)">link</a><img src=x onerror=alert(3)>',
      )
      .run()
    await clearCaches()
    const { text } = await page('/it-it/news/details/nuova-gravel-aurora-sterrato-gr')
    const body = /<div class="rich-text">([\s\S]*?)<\/div>/.exec(text)?.[1]
    expect(body).toBe('<p>Testo</p><a>link</a>')
  })

  it('answers a {slug}-{id} permalink with a permanent redirect to the canonical page', async () => {
    const { status, headers } = await visit('/it-it/news/anything-8')
    expect(status).toBe(301)
    expect(headers.get('Location')).toBe('/it-it/news/details/nuova-gravel-aurora-sterrato-gr')
  })

  it.each([
    '/it-it/news/details/no-such-article',
    '/it-it/news/details/surf-coast-gran-fondo-partner',
    '/us-en/news/details/surf-coast-gran-fondo-partner',
    '/it-it/news/no-id-here',
    '/it-it/news/wrong-1',
    '/it-it/news/x-999999',
  ])(
    'answers 404 "Page Not Found" for an unknown article, another market\'s or another language\'s: %s',
    async (path) => {
      const { status, words } = await page(path)
      expect(status).toBe(404)
      expect(words).toContain(`Page Not Found: ${path}`)
    },
  )
})

describe('pictures', () => {
  it('declare every news and product picture at its true 3:2 (the files are 1200×800 and 900×600), so nothing shifts as they load', async () => {
    const pages = [
      '/it-it/news',
      '/it-it/news/details/nuova-gravel-aurora-sterrato-gr',
      '/it-it',
      '/it-it/search/all?q=aurora',
      '/it-it/search/news?q=gravel',
    ]
    const sizes = new Set<string>()
    for (const path of pages) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(200)
      const images = [...text.matchAll(/<img [^>]*src="\/images\/(?:news|products)\/[^>]+>/g)].map(([tag]) => tag)
      expect(images.length, path).toBeGreaterThan(0)
      for (const tag of images) {
        const [, width, height] = /width="(\d+)" height="(\d+)"/.exec(tag) ?? []
        expect(Number(width) * 2, `${path}: ${tag}`).toBe(Number(height) * 3)
        sizes.add(`${width}×${height}`)
      }
    }
    // Cards, the article's picture and the search results' thumbnails.
    expect([...sizes].sort()).toEqual(['120×80', '480×320', '960×640'])
  })
})

describe('search', () => {
  it("finds products by name in the market's language, ranked by title first, and keeps the query in the box", async () => {
    const { status, text, main } = await page('/it-it/search/products?q=strada')
    expect(status).toBe(200)
    expect(text).toContain('value="strada"')
    const results = [...text.matchAll(/<h2><a href="\/it-it\/products\/([a-z0-9-]+)">/g)].map((m) => m[1])
    expect(results.slice(0, 3).sort()).toEqual(['aurora-e-strada', 'aurora-strada-5', 'aurora-strada-9'])
    expect(main).toContain(italian.search.kind_product)
  })

  it('folds diacritics and matches word beginnings', async () => {
    const { body } = await searchApi('type=products&q=citta')
    expect(body.data.map((r) => r.slug)).toContain('aurora-citta-3')
    const zurich = await searchApi('type=dealers&q=zurich', { country: 'ch', locale: 'de' })
    expect(zurich.body.data.map((r) => r.slug)).toContain('velowerk-limmat')
    const prefix = await searchApi('type=products&q=sterr')
    expect(prefix.body.data.map((r) => r.slug)).toEqual(
      expect.arrayContaining(['aurora-sterrato-gr', 'aurora-sterrato-al', 'aurora-e-sterrato']),
    )
  })

  it('searches only what the market shows: its language, its products, its news and its dealers', async () => {
    const us = await searchApi('type=products&q=cargo', { country: 'us', locale: 'en' })
    expect(us.body.data.map((r) => r.slug)).not.toContain('aurora-e-cargo')
    const italy = await searchApi('type=products&q=cargo')
    expect(italy.body.data.map((r) => r.slug)).toEqual(['aurora-e-cargo'])
    const dealers = await searchApi('type=dealers&q=bergamo', { country: 'de', locale: 'de' })
    expect(dealers.body.data).toEqual([])
    const news = await searchApi('type=news&q=surf', { country: 'us', locale: 'en' })
    expect(news.body.data.map((r) => r.slug)).not.toContain('surf-coast-gran-fondo-partner')
    expect(
      (await searchApi('type=news&q=surf', { country: 'au', locale: 'en' })).body.data.map((r) => r.slug),
    ).toContain('surf-coast-gran-fondo-partner')
  })

  it('searches everything at once and pages the results', async () => {
    const all = await searchApi('type=all&q=aurora&per_page=5')
    expect(all.body.meta.total).toBeGreaterThan(5)
    const kinds = new Set((await searchApi('type=all&q=bergamo&per_page=50')).body.data.map((r) => r.kind))
    expect([...kinds].sort()).toEqual(['dealer', 'news'])
    const second = await page('/it-it/search/all?q=aurora&page=2')
    expect(second.status).toBe(200)
    const first = await page('/it-it/search/all?q=aurora')
    expect(first.text).toContain('href="/it-it/search/all?q=aurora&amp;page=2"')
    expect((await visit('/it-it/search/all?q=aurora&page=40')).status).toBe(404)
  })

  it('shows an empty state for no results and a prompt for no query', async () => {
    const none = await page('/it-it/search/all?q=zzzyyyxxx')
    expect(none.status).toBe(200)
    expect(none.main).toContain(italian.search.empty.replace('{{q}}', 'zzzyyyxxx'))
    const empty = await page('/it-it/search/all')
    expect(empty.main).toContain(italian.search.prompt)
  })

  it('indexes the text of articles, never their markup', async () => {
    expect((await searchApi('type=news&q=h2')).body.data).toEqual([])
    const excerpts = (await searchApi('type=news&q=bergamo&per_page=50')).body.data.map(
      (r) => (r as { excerpt?: string }).excerpt ?? '',
    )
    expect(excerpts.length).toBeGreaterThan(0)
    for (const excerpt of excerpts) expect(excerpt).not.toMatch(/[<>]/)
  })

  it('answers 422, never a 500, for a type that is not one (inherited names included)', async () => {
    for (const type of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect((await searchApi(`type=${type}&q=a`)).status, type).toBe(422)
  })

  it("answers 404 for any other type, and never lets a visitor's words become FTS5 syntax", async () => {
    for (const type of ['dealer', 'pages', 'ALL', '..'])
      expect((await visit(`/it-it/search/${type}?q=x`)).status, type).toBe(404)
    expect(ftsQuery('strada" OR title:* NEAR(a b) -x')).toBe('"strada"* "OR"* "title"* "NEAR"* "a"* "b"* "x"*')
    expect(ftsQuery('  ... !!! ')).toBeNull()
    // A word by its first 8 letters, the prefixes the index keeps (decision 081), its marks with its letters.
    expect(ftsQuery('Biciclette cicloturismo')).toBe('"Biciclet"* "ciclotur"*')
    expect(ftsQuery('אוֹפַנַּיִים')).toBe('"אוֹפַנַּיִים"*')
    for (const q of ['"', '*', 'a"b', 'NOT', '(', '^title', '¿qué?']) {
      expect((await visit(`/it-it/search/all?q=${encodeURIComponent(q)}`)).status, q).toBe(200)
    }
  })

  it('disappears with the search feature: no box, and its pages are "Page Not Found"', async () => {
    await env.DB.prepare("UPDATE features SET enabled = 0 WHERE key = 'search'").run()
    try {
      await clearCaches()
      expect((await visit('/it-it/search/all?q=strada')).status).toBe(404)
      expect((await visit('/it-it')).text).not.toContain('header-search')
    } finally {
      await env.DB.prepare("UPDATE features SET enabled = 1 WHERE key = 'search'").run()
      await clearCaches()
    }
  })

  it("has a search box in the header of every market page (each live market's home, a page of each kind in it-it)", async () => {
    const kinds = [...IT_PAGE_KINDS, '/newsletter', '/whistleblower-form']
    for (const path of [...LIVE_SEGMENTS.map((market) => `/${market}`), ...kinds.map((kind) => `/it-it${kind}`)]) {
      const market = path.split('/')[1]!
      const header = /<header[\s\S]*?<\/header>/.exec((await visit(path)).text)?.[0] ?? ''
      expect(header, path).toMatch(
        new RegExp(
          `<form[^>]*action="/${market}/search/all"[^>]*method="get"|<form method="get" action="/${market}/search/all"`,
        ),
      )
    }
  })

  it('keeps only whitelisted query parameters in canonical URLs', async () => {
    const search = await visit('/it-it/search/all?q=aurora&utm_source=mail&page=2&sort=x')
    expect(search.text).toContain(
      '<link rel="canonical" href="https://site.test/it-it/search/all?page=2&amp;q=aurora"/>',
    )
    const news = await visit('/it-it/news?fbclid=1')
    expect(news.text).toContain('<link rel="canonical" href="https://site.test/it-it/news"/>')
    for (const path of [
      // A listing reads its page, but a reordered one is canonical to the listing (tests/integration/listing-pages.test.ts).
      '/it-it/products?sort=newest&page=1&utm_source=x',
      '/it-it/chi-siamo?q=x&page=7',
      '/it-it/dealers/cicli-bergamasca?page=9',
      '/it-it?page=2',
    ]) {
      const { text } = await visit(path)
      expect(text, path).toContain(`<link rel="canonical" href="https://site.test${path.split('?')[0]}"/>`)
    }
  })
})
