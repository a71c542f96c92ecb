import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../reference-api'
import { canonicalIn } from '../fixtures/head'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, textOf, visit } from '../fixtures/worker'

/** The product slugs of a listing page's cards, in their order. */
const cardsOf = (html: string): string[] =>
  [
    ...(/<section id="listing-results"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '').matchAll(
      /<li class="card"><a href="\/[a-z-]+\/products\/([a-z0-9-]+)"/g,
    ),
  ].map((match) => match[1] as string)

/** A filter choice's label as a visitor reads it ("Strada (3)") and whether it is offered. */
function choiceOf(html: string, name: string, value: string): { text: string; disabled: boolean } | null {
  for (const match of html.matchAll(/<label class="filter-choice">([\s\S]*?)<\/label>/g)) {
    const label = match[1] as string
    if (label.includes(`name="${name}"`) && label.includes(`value="${value}"`))
      return { text: textOf(label).replace(/\s+/g, ' ').trim(), disabled: /<input [^>]*disabled/.test(label) }
  }
  return null
}

/** The listing's page links: previous, "page N of M", next. */
const pagingOf = (html: string) => {
  const nav = /<nav class="pagination"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? ''
  return {
    text: textOf(nav).replace(/\s+/g, ' ').trim(),
    next: /<a href="([^"]+)" rel="next"/.exec(nav)?.[1]?.replace(/&amp;/g, '&') ?? null,
    prev: /<a href="([^"]+)" rel="prev"/.exec(nav)?.[1]?.replace(/&amp;/g, '&') ?? null,
  }
}

/** Gives Italy's bikes 60 more, so that the listing has pages. */
async function growBikes() {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
     INSERT INTO products (id, type_id, slug, featured, position, discipline, frame_material, electric, released_on)
     SELECT 200000 + i, (SELECT id FROM product_types WHERE slug = 'bikes'), 'extra-' || i, 0, 1000 + i,
            CASE i % 2 WHEN 0 THEN 'road' ELSE 'city' END, 'steel', 0, NULL FROM n`,
  ).run()
  await env.DB.prepare(
    "INSERT INTO product_names (product_id, locale, name) SELECT id, 'it', 'Extra ' || (id - 200000) FROM products WHERE id > 200000",
  ).run()
  await env.DB.prepare(
    "INSERT INTO product_prices (product_id, site, amount) SELECT id, 'it', 90000 FROM products WHERE id > 200000",
  ).run()
  await clearCaches()
}

describe('a listing page shows the facet counts the API answers', () => {
  it("writes each value's count in the market's digits, and a value nothing matches disabled unless chosen", async () => {
    const { text } = await visit('/it-it/products/type/bikes?material=carbon')
    // Road and gravel bikes in carbon: counted given the material; the other materials given no discipline.
    expect(choiceOf(text, 'discipline', 'road')?.text).toMatch(/^Strada \(\d+\)$/)
    expect(choiceOf(text, 'discipline', 'kids')).toMatchObject({ text: 'Bambini (0)', disabled: true })
    expect(choiceOf(text, 'material', 'carbon')).toMatchObject({ disabled: false })
    expect(choiceOf(text, 'material', 'steel')?.text).toMatch(/^Acciaio \([1-9]\d*\)$/)
    expect(choiceOf(text, 'stock', '1')?.text).toMatch(/\(\d+\)$/)

    // Chosen, a value stays on offer with its 0.
    const chosen = await visit('/it-it/products/type/bikes?material=carbon&discipline=kids')
    expect(choiceOf(chosen.text, 'discipline', 'kids')).toMatchObject({ text: 'Bambini (0)', disabled: false })

    const hebrew = await visit('/il-he/products/type/bikes')
    expect(choiceOf(hebrew.text, 'discipline', 'road')?.text).toMatch(/^כביש \(\d+\)$/)
  })
})

describe('a listing in pages', () => {
  it('shows 24 products a page, with page links that keep the filters and the order, and 404 past the last', async () => {
    await growBikes()
    const first = await visit('/it-it/products/type/bikes?discipline=road&sort=price-desc')
    expect(cardsOf(first.text)).toHaveLength(24)
    expect(first.text).toContain('<h2 id="listing-count" class="listing-count">')
    const paging = pagingOf(first.text)
    expect(paging.text).toContain('Pagina 1 di 2')
    expect(paging.next).toBe('/it-it/products/type/bikes?discipline=road&sort=price-desc&page=2')
    expect(paging.prev).toBeNull()

    const second = await visit(paging.next ?? '')
    expect(second.status).toBe(200)
    expect(cardsOf(second.text).length).toBeGreaterThan(0)
    expect(cardsOf(second.text)).not.toContain(cardsOf(first.text)[0])
    expect(pagingOf(second.text).prev).toBe('/it-it/products/type/bikes?discipline=road&sort=price-desc')
    // Removing a filter starts again from the first page.
    expect(second.text).not.toMatch(/class="filter-chips"[\s\S]*?page=2[\s\S]*?<\/ul>/)

    expect((await visit('/it-it/products/type/bikes?discipline=road&page=9')).status).toBe(404)
    // A malformed page number is the first page.
    expect(cardsOf((await visit('/it-it/products/type/bikes?page=abc')).text)).toHaveLength(24)
  })

  it("makes the plain listing's later pages canonical to themselves, a filtered one's to the unfiltered listing", async () => {
    const plain = await visit('/it-it/products/type/bikes?page=2')
    expect(plain.status).toBe(200)
    expect(canonicalIn(plain.text)).toBe('https://site.test/it-it/products/type/bikes?page=2')
    const filtered = await visit('/it-it/products/type/bikes?discipline=road&page=2')
    expect(canonicalIn(filtered.text)).toBe('https://site.test/it-it/products/type/bikes')
    const malformed = await visit('/it-it/products/type/bikes?page=2x')
    expect(canonicalIn(malformed.text)).toBe('https://site.test/it-it/products/type/bikes')
    const sorted = await visit('/it-it/products/type/bikes?sort=newest&page=2')
    expect(canonicalIn(sorted.text)).toBe('https://site.test/it-it/products/type/bikes')
  })
})

describe('the product menu at any size of the catalogue', () => {
  it("answers at most 8 of a type's products, featured first, and the header names them", async () => {
    const request = new Request('http://embedded.invalid/api/front/menu/products?type_id=1', {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
    })
    const menu = (await (await api.fetch(request as Parameters<typeof api.fetch>[0], env)).json()) as {
      data: Array<{ slug: string }>
    }
    expect(menu.data).toHaveLength(8)
    expect(menu.data[0]?.slug).toBe('aurora-strada-9')
    const home = await visit('/it-it')
    const panel = /<div class="panel-products">[\s\S]*?<\/ul>/.exec(home.text)?.[0] ?? ''
    expect(panel.match(/<li>/g)).toHaveLength(8)
  })
})

describe('a backend that does not filter (the original answers type, page and per_page only)', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('gets the listing filtered, counted and paged by the Worker from its whole lists', async () => {
    const upstream = httpUpstream()
    // The original: every filter ignored, no facet counts.
    upstream.fail('front/products?', async (request) => {
      const url = new URL(request.url)
      const kept = new URLSearchParams()
      for (const name of ['type', 'page', 'per_page']) {
        const value = url.searchParams.get(name)
        if (value !== null) kept.set(name, value)
      }
      const answer = await api.fetch(
        new Request(`${url.origin}${url.pathname}?${kept}`, request) as Parameters<typeof api.fetch>[0],
        env,
      )
      const { data, meta } = (await answer.json()) as { data: unknown[]; meta: Record<string, unknown> }
      return Response.json({ data, meta: { page: meta.page, per_page: meta.per_page, total: meta.total } })
    })
    await clearCaches()
    // Israel's bikes: a short list (the pages above grew Italy's).
    const page = await visit('/il-he/products/type/bikes?discipline=road', {}, { UPSTREAM_URL })
    expect(page.status).toBe(200)
    const embedded = await visit('/il-he/products/type/bikes?discipline=road')
    expect(cardsOf(page.text)).toEqual(cardsOf(embedded.text))
    expect(choiceOf(page.text, 'discipline', 'gravel')).toEqual(choiceOf(embedded.text, 'discipline', 'gravel'))
    expect(choiceOf(page.text, 'material', 'steel')).toEqual(choiceOf(embedded.text, 'material', 'steel'))
  })
})
