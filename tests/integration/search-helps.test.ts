import { describe, expect, it } from 'vitest'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import { pageUrlOf } from '../fixtures/page-slugs'
import { textOf, visit } from '../fixtures/worker'

const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? ''
/** The product links of a search page, in their order. */
const productLinks = (html: string) =>
  [...main(html).matchAll(/<a href="\/it-it\/products\/([a-z0-9-]+)"/g)].map((m) => m[1])

describe('search that helps (docs/decisions/061)', () => {
  it('reads "stradda" as Strada and says so, with the products priced in the market\'s format', async () => {
    const { status, text } = await visit('/it-it/search/all?q=stradda')
    expect(status).toBe(200)
    const words = textOf(main(text))
    expect(words).toContain(italian.search.corrected.replace('{{q}}', 'Strada'))
    expect(productLinks(text)).toContain('aurora-strada-9')
    expect(main(text)).toMatch(/<p class="result-price">[\d.]+,\d{2}\s€<\/p>/)
  })

  it('puts the road bikes first for "bici da corsa", above a children\'s bike that only mentions "corsa"', async () => {
    const { text } = await visit('/it-it/search/all?q=bici%20da%20corsa')
    const links = productLinks(text)
    expect(links[0]).toBe('aurora-strada-9')
    const kids = links.indexOf('aurora-piccolo-20')
    const road = links.filter((slug) => /strada/.test(slug ?? '')).map((slug) => links.indexOf(slug))
    expect(road.length).toBeGreaterThan(0)
    if (kids >= 0) for (const index of road) expect(index).toBeLessThan(kids)
  })

  it('offers the bikes (the listing and a few bikes) and the dealers when nothing is found', async () => {
    const { status, text } = await visit('/it-it/search/all?q=qqxqqzzk')
    expect(status).toBe(200)
    const block = /<div class="search-empty">[\s\S]*?<\/div>/.exec(text)?.[0] ?? ''
    expect(textOf(block)).toContain(italian.search.empty_offer)
    expect(block).toContain('href="/it-it/products"')
    expect(block).toContain(`href="${pageUrlOf('it-it', 'dealer-locator')}"`)
    expect(block.match(/<a href="\/it-it\/products\/[a-z0-9-]+">/g)?.length).toBe(3)
  })
})

describe('the suggestion index', () => {
  it("is the market's JSON: products with picture and price in its currency and format, articles, dealers, pages", async () => {
    const { status, text, headers } = await visit('/it-it/search/suggestions.json')
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(headers.get('Cache-Control')).toMatch(/public/)
    const { market, entries } = JSON.parse(text) as {
      market: string
      entries: Array<{ kind: string; title: string; url: string; image: string | null; detail: string | null }>
    }
    expect(market).toBe('it-it')
    const strada = entries.find((entry) => entry.url === '/it-it/products/aurora-strada-9')
    expect(strada).toMatchObject({ kind: 'product', title: 'Aurora Strada 9' })
    expect(strada?.image).toMatch(/^\/images\//)
    expect(strada?.detail).toMatch(/^[\d.]+,\d{2}\s€$/)
    expect(new Set(entries.map((entry) => entry.kind))).toEqual(new Set(['product', 'news', 'dealer', 'page']))
    for (const entry of entries) expect(entry.url.startsWith('/it-it/'), entry.url).toBe(true)
  })

  it('is scoped to the market: Israel in shekels and Hebrew page names, no Italian address', async () => {
    const { text } = await visit('/il-he/search/suggestions.json')
    const { entries } = JSON.parse(text) as {
      entries: Array<{ kind: string; title: string; url: string; detail: string | null }>
    }
    expect(entries.every((entry) => entry.url.startsWith('/il-he/'))).toBe(true)
    const product = entries.find((entry) => entry.kind === 'product')
    expect(product?.detail).toContain('₪')
    expect(entries.filter((entry) => entry.kind === 'page').map((entry) => entry.title)).toContain(
      hebrew.pages['dealer-locator'],
    )
  })
})

describe("the dealer locator's town", () => {
  it('reads "Mlano" as Milano and says so, instead of falling back to the country\'s centre', async () => {
    const { status, text } = await visit(pageUrlOf('it-it', 'dealer-locator', '?near=Mlano'))
    expect(status).toBe(200)
    const line = /<p class="meta" role="status" id="dealer-results" data-origin="([a-z]+)">([^<]*)<\/p>/.exec(text)
    expect(line?.[1]).toBe('place')
    expect(textOf(line?.[2] ?? '')).toBe(italian.dealer.showing_for.replace('{{place}}', 'Milano'))
  })

  it('still says it found nothing for a word near no town', async () => {
    const { text } = await visit(pageUrlOf('it-it', 'dealer-locator', '?near=Xyzzyq'))
    expect(text).toContain('data-origin="centre"')
  })
})
