import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { URLS_PER_SITEMAP } from '../../src/seo/sitemap'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { alternatesIn } from '../fixtures/head'
import { clearCaches, ORIGIN, visit } from '../fixtures/worker'
import { sitemapIndexEntries, sitemapUrls } from '../fixtures/xml'

beforeEach(clearCaches)

const W3C_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/

type Url = ReturnType<typeof sitemapUrls>[number]

/**
 * A URL's page kind in its market: the home, a listing, a product, the news, an article, a dealer, or a page (a
 * content page, the locator): `it-it products/*`.
 */
function pageKindOf(loc: string): string {
  const [market, ...segments] = new URL(loc).pathname.split('/').filter(Boolean)
  const [first, second] = segments
  const kind = !first
    ? 'home'
    : first === 'products' || first === 'news'
      ? [first, second === 'type' || second === 'details' ? second : second && '*'].filter(Boolean).join('/')
      : first === 'dealers'
        ? 'dealers/*'
        : 'page'
  return `${market} ${kind}`
}

/**
 * The URLs whose pages are rendered: one per page kind and market (rendering is proven per kind; every URL's
 * alternates are still checked in the sitemaps themselves), or every URL with `FULL_SITEMAP_WALK=1`.
 */
function pagesToRender(urls: Map<string, Url>): [string, Url][] {
  if (env.TEST_FULL_SITEMAP_WALK === '1') return [...urls]
  const byKind = new Map<string, [string, Url]>()
  for (const entry of urls) if (!byKind.has(pageKindOf(entry[0]))) byKind.set(pageKindOf(entry[0]), entry)
  return [...byKind.values()]
}

/** Every URL of every live market's sitemap parts, by loc, read through the index. */
async function everyUrl(): Promise<Map<string, Url>> {
  const index = await visit('/sitemap.xml')
  const urls = new Map<string, Url>()
  for (const { loc } of sitemapIndexEntries(index.text)) {
    const part = await visit(loc)
    expect(part.status, loc).toBe(200)
    for (const url of sitemapUrls(part.text)) {
      expect(urls.has(url.loc), `${url.loc} listed twice`).toBe(false)
      urls.set(url.loc, url)
    }
  }
  return urls
}

describe('the sitemap index', () => {
  it("is valid XML listing each live market's sitemap and its products', articles' and dealers' parts, never one under maintenance", async () => {
    const { status, text, headers } = await visit('/sitemap.xml')
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toBe('application/xml; charset=utf-8')
    expect(headers.get('Cache-Control')).toBe('no-cache')
    const entries = sitemapIndexEntries(text)
    // Every demo market sells products and shows articles and has dealers, all with ids below 1,000: one part each.
    expect(entries.map((entry) => entry.loc)).toEqual(
      LIVE_SEGMENTS.flatMap((market) => [
        `${ORIGIN}/${market}/sitemap.xml`,
        `${ORIGIN}/${market}/sitemap-products-0.xml`,
        `${ORIGIN}/${market}/sitemap-news-0.xml`,
        `${ORIGIN}/${market}/sitemap-dealers-0.xml`,
      ]),
    )
    expect(entries.every((entry) => entry.lastmod && W3C_TIME.test(entry.lastmod))).toBe(true)
    expect((await visit('/nl-nl/sitemap.xml')).status).toBe(503)
  })
})

describe("the markets' sitemaps", () => {
  it('list only indexable pages of live markets, with lastmod and alternates that are reciprocal, and a URL of every page kind and market answers 200 with the same alternates', async () => {
    const urls = await everyUrl()
    expect(urls.size).toBeGreaterThan(500)
    for (const [loc, url] of urls) {
      expect(loc.startsWith(`${ORIGIN}/`), loc).toBe(true)
      expect(loc, 'no market under maintenance').not.toMatch(/\/nl-nl(\/|$)/)
      expect(loc, 'no page that is not indexed').not.toMatch(
        /\/(search|my-account|checkout|cart|update-password|whistleblower-form)(\/|$)/,
      )
      expect(url.lastmod === null || W3C_TIME.test(url.lastmod), loc).toBe(true)
      // Self-referencing, one x-default to the landing page, and reciprocal: each alternate lists the same set.
      expect(Object.values(url.alternates), loc).toContain(loc)
      expect(url.alternates['x-default'], loc).toBe(`${ORIGIN}/`)
      for (const [hreflang, href] of Object.entries(url.alternates)) {
        if (hreflang === 'x-default') continue
        expect(urls.get(href)?.alternates, `${href}, alternate of ${loc}`).toEqual(url.alternates)
      }
    }
    // Switched-off pages are nowhere.
    for (const off of [
      '/de-de/probefahrt',
      '/pt-pt/trabalhe-connosco',
      '/fr-fr/devenir-revendeur',
      '/fr-fr/devenir-distributeur',
    ]) {
      expect(urls.has(`${ORIGIN}${off}`), off).toBe(false)
    }
    // A URL of each page kind in each market (every URL with FULL_SITEMAP_WALK=1) answers 200 and carries, in its
    // head, the very alternates its sitemap gives it.
    const rendered = pagesToRender(urls)
    expect(new Set(rendered.map(([loc]) => pageKindOf(loc).split(' ')[1]))).toEqual(
      new Set(['home', 'products', 'products/type', 'products/*', 'news', 'news/details', 'dealers/*', 'page']),
    )
    for (const [loc, url] of rendered) {
      const page = await visit(loc)
      expect(page.status, loc).toBe(200)
      expect(alternatesIn(page.text).links, loc).toEqual(url.alternates)
    }
  }, 180_000)

  it('give each product, article and dealer the time it last changed', async () => {
    await env.DB.prepare("UPDATE products SET updated_at = '2026-11-20T10:30:00Z' WHERE slug = 'aurora-e-cargo'").run()
    const urls = (
      await Promise.all(
        ['sitemap.xml', 'sitemap-products-0.xml', 'sitemap-news-0.xml'].map(async (name) =>
          sitemapUrls((await visit(`/it-it/${name}`)).text),
        ),
      )
    ).flat()
    const at = (path: string) => urls.find((url) => url.loc === `${ORIGIN}/it-it${path}`)
    expect(at('/products/aurora-e-cargo')?.lastmod).toBe('2026-11-20T10:30:00Z')
    // The listing of its type, the listing of every product and the home changed with it.
    expect(at('/products/type/e-bikes')?.lastmod).toBe('2026-11-20T10:30:00Z')
    expect(at('')?.lastmod).toBe('2026-11-20T10:30:00Z')
    expect(at('/news/details/report-sostenibilita-2025')?.lastmod).toMatch(/^\d{4}-\d{2}-\d{2}T08:00:00Z$/)
    const dealers = sitemapUrls((await visit('/it-it/sitemap-dealers-0.xml')).text)
    expect(dealers.find((url) => url.loc === `${ORIGIN}/it-it/dealers/cicli-bergamasca`)?.lastmod).toBe(
      '2026-11-02T08:00:00Z',
    )
  })

  it('drop a section the brand switched off (dealer pages and the locator)', async () => {
    await env.DB.prepare("UPDATE features SET enabled = 0 WHERE key = 'dealer_locator'").run()
    try {
      const urls = sitemapUrls((await visit('/it-it/sitemap.xml')).text).map((url) => url.loc)
      expect(urls.some((loc) => loc.includes('/dealers/'))).toBe(false)
      expect(urls).not.toContain(`${ORIGIN}/it-it/rivenditori`)
      expect(urls).toContain(`${ORIGIN}/it-it/chi-siamo`)
    } finally {
      await env.DB.prepare("UPDATE features SET enabled = 1 WHERE key = 'dealer_locator'").run()
    }
  })

  it("list a market's products, articles and dealers by their ids' thousands, each part listed in the index and every URL once", async () => {
    const articles = Array.from({ length: URLS_PER_SITEMAP + 50 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO news (slug, scope, locale, title, excerpt, published_at) VALUES (?, 'za', 'en', ?, '', '2025-01-01')",
      ).bind(`durban-story-${i}`, `Durban story ${i}`),
    )
    const dealers = Array.from({ length: URLS_PER_SITEMAP + 50 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO dealers (slug, site, name, address, city, country_code, lat, lng) VALUES (?, 'za', ?, 'Main Road 1', 'Durban', 'ZA', -29.8, 31.0)",
      ).bind(`durban-cycles-${i}`, `Durban Cycles ${i}`),
    )
    // A product sold in South Africa with an id in the second thousand.
    const product = [
      env.DB.prepare(
        "INSERT INTO products (id, slug, type_id, image) SELECT 1500, 'durban-cruiser', id, NULL FROM product_types WHERE slug = 'accessories'",
      ),
      env.DB.prepare("INSERT INTO product_prices (product_id, site, amount) VALUES (1500, 'za', 99900)"),
    ]
    for (let i = 0; i < articles.length; i += 500) await env.DB.batch(articles.slice(i, i + 500))
    for (let i = 0; i < dealers.length; i += 500) await env.DB.batch(dealers.slice(i, i + 500))
    await env.DB.batch(product)
    const index = sitemapIndexEntries((await visit('/sitemap.xml')).text).map((entry) => entry.loc)
    const za = index.filter((loc) => loc.startsWith(`${ORIGIN}/za-en/`))
    expect(za).toEqual([
      `${ORIGIN}/za-en/sitemap.xml`,
      `${ORIGIN}/za-en/sitemap-products-0.xml`,
      `${ORIGIN}/za-en/sitemap-products-1.xml`,
      `${ORIGIN}/za-en/sitemap-news-0.xml`,
      `${ORIGIN}/za-en/sitemap-news-1.xml`,
      `${ORIGIN}/za-en/sitemap-dealers-0.xml`,
      `${ORIGIN}/za-en/sitemap-dealers-1.xml`,
    ])
    const parts = await Promise.all(za.map(async (loc) => sitemapUrls((await visit(loc)).text)))
    // Every URL exactly once across the parts: every product, article and dealer of the market among them.
    const locs = parts.flat().map((url) => url.loc)
    expect(new Set(locs).size).toBe(locs.length)
    const { results } = await env.DB.prepare("SELECT slug FROM dealers WHERE site = 'za'").all<{ slug: string }>()
    for (const { slug } of results) expect(locs).toContain(`${ORIGIN}/za-en/dealers/${slug}`)
    for (let i = 0; i < URLS_PER_SITEMAP + 50; i++)
      expect(locs).toContain(`${ORIGIN}/za-en/news/details/durban-story-${i}`)
    const sold = await env.DB.prepare(
      "SELECT p.slug FROM products p JOIN product_prices pr ON pr.product_id = p.id WHERE pr.site = 'za'",
    ).all<{ slug: string }>()
    for (const { slug } of sold.results) expect(locs).toContain(`${ORIGIN}/za-en/products/${slug}`)
    const shown = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM news WHERE locale = 'en' AND scope IN ('*', 'za') AND slug LIKE 'durban-story-%'",
    ).first<{ n: number }>()
    expect(locs.filter((loc) => loc.includes('/news/details/durban-story-'))).toHaveLength(shown?.n ?? -1)
    expect((await visit('/za-en/sitemap-2.xml')).status).toBe(404)
    expect((await visit('/za-en/sitemap-news-2.xml')).status).toBe(404)
    expect((await visit('/za-en/sitemap-products-2.xml')).status).toBe(404)
    expect((await visit('/za-en/sitemap-dealers-2.xml')).status).toBe(404)
    expect((await visit('/it-it/sitemap-2.xml')).status).toBe(404)
    expect((await visit('/it-it/sitemap-dealers-01.xml')).status).toBe(404)
    expect((await visit('/it-it/sitemap-news-01.xml')).status).toBe(404)
  })

  it("keep the products' and articles' parts as they come, change, move and go (the count and the newest change)", async () => {
    const recount = async () => ({
      kept: (
        await env.DB.prepare(
          "SELECT site, part, count FROM product_sitemap_parts WHERE count > 0 AND site IN ('za', 'zz') ORDER BY 1, 2",
        ).all()
      ).results,
      counted: (
        await env.DB.prepare(
          "SELECT site, product_id / 1000 AS part, COUNT(*) AS count FROM product_prices WHERE site IN ('za', 'zz') GROUP BY 1, 2 ORDER BY 1, 2",
        ).all()
      ).results,
      keptNews: (
        await env.DB.prepare(
          "SELECT locale, scope, part, count FROM news_sitemap_parts WHERE count > 0 AND locale = 'en' ORDER BY 1, 2, 3",
        ).all()
      ).results,
      countedNews: (
        await env.DB.prepare(
          "SELECT locale, scope, id / 1000 AS part, COUNT(*) AS count FROM news WHERE locale = 'en' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        ).all()
      ).results,
    })
    const same = async () => {
      const { kept, counted, keptNews, countedNews } = await recount()
      expect(kept).toEqual(counted)
      expect(keptNews).toEqual(countedNews)
    }
    await same()
    const { id } = (await env.DB.prepare(
      "SELECT product_id AS id FROM product_prices WHERE site = 'za' LIMIT 1",
    ).first<{ id: number }>()) ?? { id: 0 }
    await env.DB.prepare("UPDATE products SET updated_at = '2030-01-01T00:00:00Z' WHERE id = ?").bind(id).run()
    const lastmod = await env.DB.prepare("SELECT lastmod FROM product_sitemap_parts WHERE site = 'za' AND part = ? ")
      .bind(Math.floor(id / 1000))
      .first<{ lastmod: string }>()
    expect(lastmod?.lastmod).toBe('2030-01-01T00:00:00Z')
    await env.DB.prepare("UPDATE product_prices SET site = 'zz' WHERE product_id = ? AND site = 'za'").bind(id).run()
    await same()
    await env.DB.prepare("DELETE FROM product_prices WHERE product_id = ? AND site = 'zz'").bind(id).run()
    await same()
    await env.DB.prepare(
      "INSERT INTO news (slug, scope, locale, title, excerpt, published_at) VALUES ('perth-story', 'au', 'en', 'Perth', '', '2025-02-01')",
    ).run()
    await same()
    await env.DB.prepare("UPDATE news SET scope = '*' WHERE slug = 'perth-story'").run()
    await same()
    await env.DB.prepare("DELETE FROM news WHERE slug = 'perth-story'").run()
    await same()
  })

  it("keep the dealers' parts as dealers come, change, move and go (the count and the newest change)", async () => {
    const parts = async () =>
      (
        await env.DB.prepare(
          "SELECT site, part, count, lastmod FROM dealer_sitemap_parts WHERE site IN ('za', 'au') ORDER BY site, part",
        ).all<{ site: string; part: number; count: number; lastmod: string }>()
      ).results
    const recounted = async () =>
      (
        await env.DB.prepare(
          "SELECT site, id / 1000 AS part, COUNT(*) AS count FROM dealers WHERE site IN ('za', 'au') GROUP BY 1, 2 ORDER BY 1, 2",
        ).all<{ site: string; part: number; count: number }>()
      ).results
    const counts = async () =>
      (await parts()).filter((p) => p.count > 0).map(({ site, part, count }) => ({ site, part, count }))
    expect(await counts()).toEqual(await recounted())
    const slug = (await env.DB.prepare("SELECT slug FROM dealers WHERE site = 'za' LIMIT 1").first<{ slug: string }>())
      ?.slug
    await env.DB.prepare("UPDATE dealers SET name = 'Renamed', updated_at = '2030-01-01T00:00:00Z' WHERE slug = ?")
      .bind(slug)
      .run()
    expect((await parts()).find((p) => p.site === 'za')?.lastmod).toBe('2030-01-01T00:00:00Z')
    await env.DB.prepare("UPDATE dealers SET site = 'au' WHERE slug = ?").bind(slug).run()
    expect(await counts()).toEqual(await recounted())
    await env.DB.prepare('DELETE FROM dealers WHERE slug = ?').bind(slug).run()
    expect(await counts()).toEqual(await recounted())
  })
})
