import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import italian from '../../demo/messages/it.json'
import { cardImagesOf, expectFirstCardImageEager } from '../fixtures/card-images'
import { expectNamedTableBoxes } from '../fixtures/table-scroll'
import { textOf, visit } from '../fixtures/worker'

const words = async (path: string) => {
  const answer = await visit(path)
  return { ...answer, words: textOf(answer.text), main: textOf(/<main[\s\S]*<\/main>/.exec(answer.text)?.[0] ?? '') }
}

describe('product pages', () => {
  it("show the product in the market's language: gallery, price, description, variants and specifications", async () => {
    const { status, text, words: page } = await words('/it-it/products/aurora-strada-9')
    expect(status).toBe(200)
    expect(text).toContain('<h1>Aurora Strada 9</h1>')
    expect(page).toContain('Bici da corsa in carbonio')
    // The gallery: sized images, the first at once, the others lazily.
    expect(text).toMatch(
      /<img src="\/images\/products\/aurora-strada-9.svg" alt="Aurora Strada 9, Rosso" width="960" height="640" fetchPriority="high"\/>/,
    )
    expect(text).toMatch(
      /<img src="\/images\/products\/aurora-strada-9-detail.svg" alt="[^"]+" width="960" height="640" loading="lazy"/,
    )
    expect(page).toContain(italian.product.colour)
    expect(page).toContain(italian.product.size)
    expect(page).toContain(italian.colour.red)
    expect(page).toContain(italian.availability.low_stock)
    expect(page).toContain(italian.spec.frame)
    expect(page).toContain('Carbonio, fibra T800')
    expect(text).toContain('<link rel="canonical" href="https://site.test/it-it/products/aurora-strada-9"/>')
  })

  it("put the size guide's geometry in a named group the keyboard can reach, for phones where they scroll sideways", async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    expect(expectNamedTableBoxes(text)).toBe(1)
    expect(text).toContain('aria-labelledby="size-guide-geometry"')
  })

  it.each([
    ['/it-it', '4290,00\u00a0€'],
    ['/de-de', '4.290,00\u00a0€'],
    ['/int-en', '€4,290.00'],
    ['/us-en', '$4,699.99'],
    ['/ch-de', "CHF\u00a04'390.00"],
    ['/ae-en', '17,999.00\u00a0AED'],
    ['/il-he', '₪18,390.00'],
  ])('price the product per market, in its currency, the token on its side (%s)', async (market, price) => {
    const { status, words: page } = await words(`${market}/products/aurora-strada-9`)
    expect(status).toBe(200)
    expect(page).toContain(price)
  })

  it('say "from" and show each variant\'s price where variants cost differently, and neither where they do not', async () => {
    const varied = await words('/it-it/products/aurora-strada-9')
    expect(varied.main).toContain(italian.product.from_price.replace('{{price}}', '4290,00\u00a0€'))
    // Each colour's sizes say the colour's price: the white costs more than the red.
    const group = (text: string, colour: string) =>
      textOf(
        new RegExp(`<fieldset class="size-group" data-colour="${colour}"[\\s\\S]*?</fieldset>`).exec(text)?.[0] ?? '',
      )
    expect(group(varied.text, 'white')).toContain('4490,00\u00a0€')
    expect(group(varied.text, 'red')).toContain('4290,00\u00a0€')
    const same = await visit('/it-it/products/aurora-strada-5')
    expect(group(same.text, 'blue')).not.toBe('')
    expect(same.text).not.toContain('size-group-price')
    expect(textOf(same.text)).not.toContain('A partire da')
  })

  it('isolate amounts right to left on Hebrew and Arabic pages', async () => {
    expect((await visit('/il-he/products/aurora-strada-5')).text).toContain('\u2067₪7,290.00\u2069')
    expect((await visit('/ae-ar/products/aurora-strada-5')).text).toContain('\u20677,099.00\u00a0AED\u2069')
    expect((await visit('/ae-en/products/aurora-strada-5')).text).toContain('>7,099.00\u00a0AED<')
  })

  it('offer a test ride with the model pre-filled only where test rides are on, and the dealer locator', async () => {
    const italy = await visit('/it-it/products/aurora-strada-9')
    expect(italy.text).toContain('href="/it-it/prova-su-strada?model=aurora-strada-9"')
    expect(italy.text).toContain('href="/it-it/rivenditori"')
    const germany = await visit('/de-de/products/aurora-strada-9')
    expect(germany.text).not.toContain('probefahrt')
    expect(germany.text).toContain('href="/de-de/haendler"')
  })

  it.each([
    '/it-it/products/aurora-strada-99',
    '/it-it/products/Aurora-Strada-9',
    '/it-it/products/strada_9',
    '/us-en/products/aurora-e-cargo',
    '/ae-ar/products/aurora-piccolo-20',
  ])('answer 404 "Page Not Found" for an unknown slug or a product the market does not sell: %s', async (path) => {
    const { status, words: page } = await words(path)
    expect(status).toBe(404)
    expect(page).toContain(`Page Not Found: ${path}`)
  })
})

describe('what visitors type', () => {
  it('never becomes a KV entry: an unknown product, article or permalink id stays out of the cache', async () => {
    for (const path of [
      '/it-it/products/no-such-bike-1',
      '/it-it/news/details/no-such-article-2',
      '/it-it/news/x-123456',
      '/it-it/dealers/no-such-dealer',
    ]) {
      expect((await visit(path)).status, path).toBe(404)
    }
    const { keys } = await env.CACHE.list()
    expect(keys.map((key) => key.name).filter((name) => /no-such|123456/.test(name))).toEqual([])
  })
})

describe('product listings', () => {
  it('list every type the market sells, with prices, and link each type', async () => {
    const { status, text, words: page } = await words('/it-it/products')
    expect(status).toBe(200)
    for (const type of ['bikes', 'e-bikes', 'accessories'])
      expect(text).toContain(`href="/it-it/products/type/${type}"`)
    expect(page).toContain('Aurora Strada 9')
    expect(page).toContain('Aurora e-Cargo')
    expect(page).toContain('4290,00\u00a0€')
  })

  it('list one type, and only what the market sells', async () => {
    const eBikes = await words('/it-it/products/type/e-bikes')
    expect(eBikes.main).toContain('Aurora e-Cargo')
    expect(eBikes.main).not.toContain('Aurora Strada 9')
    const us = await words('/us-en/products/type/e-bikes')
    expect(us.status).toBe(200)
    expect(us.main).toContain('Aurora e-Strada')
    expect(us.main).not.toContain('Aurora e-Cargo')
    expect((await visit('/it-it/products/type/scooters')).status).toBe(404)
  })

  it("load the first card's picture at once with high priority (the largest paint), every other lazily", async () => {
    for (const path of ['/it-it/products', '/it-it/products/type/e-bikes', '/il-he/products']) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(200)
      expectFirstCardImageEager(text)
    }
  })

  it("are reachable from the header's product menu, which lists the bikes and the types", async () => {
    const { text } = await visit('/it-it')
    const menu = /<details class="product-menu">[\s\S]*?<\/details>/.exec(text)?.[0] ?? ''
    expect(menu).toContain('href="/it-it/products/aurora-strada-9"')
    expect(menu).toContain('href="/it-it/products/type/e-bikes"')
    expect(menu).toContain('href="/it-it/products"')
    // The menu is the market's: a product not sold there is not in it.
    const ae = await visit('/ae-en')
    expect(/<details class="product-menu">[\s\S]*?<\/details>/.exec(ae.text)?.[0]).not.toContain('aurora-piccolo-20')
  })
})

describe('the home page', () => {
  it('loads the hero at once and keeps every card picture below it lazy', async () => {
    const { text } = await visit('/it-it')
    expect(text).toContain('<img src="/images/hero.svg" alt="" width="1600" height="700" fetchPriority="high"/>')
    const cards = cardImagesOf(text)
    expect(cards.length).toBeGreaterThan(3)
    for (const image of cards) expect(image).toContain('loading="lazy"')
    expect(cards.join()).not.toContain('fetchPriority')
  })

  it('has the hero, featured products, latest news, the dealer finder and, where on, the test ride, all translated', async () => {
    const italy = await words('/it-it')
    for (const key of [
      'hero_title',
      'featured_products',
      'latest_news',
      'dealer_finder_title',
      'test_ride_title',
    ] as const) {
      expect(italy.words).toContain(italian.home[key])
    }
    expect(italy.text).toContain('href="/it-it/news"')
    const germany = await visit('/de-de')
    expect(germany.text).not.toContain('test-ride-title')
    expect(germany.text).toContain('dealer-title')
  })
})
