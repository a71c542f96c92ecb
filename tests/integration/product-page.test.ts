import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import hebrew from '../../demo/messages/he.json'
import spanish from '../../demo/messages/es.json'
import italian from '../../demo/messages/it.json'
import { api } from '../../reference-api'
import type { Product } from '../../contract/catalogue-schemas'
import { formPost } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

/** Every tag of a kind in a page, as written. */
const tags = (html: string, name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? []
const inputOf = (html: string, value: string) =>
  tags(html, 'input').find((tag) => tag.includes(`value="${value}"`)) ?? ''
const sizeGroup = (html: string, colour: string) =>
  new RegExp(`<fieldset class="size-group" data-colour="${colour}"[\\s\\S]*?</fieldset>`).exec(html)?.[0] ?? ''
const section = (html: string, className: string) =>
  new RegExp(`<(section|nav) class="${className}"[\\s\\S]*?</\\1>`).exec(html)?.[0] ?? ''

let keys = 0
/** The product page's form as a browser without JavaScript posts it: the colour chosen and each colour's size. */
const productForm = (fields: Record<string, string>) => ({
  product: 'aurora-strada-9',
  key: `form-key-${Date.now()}-${keys++}-abcdefghijk`,
  quantity: '1',
  ...fields,
})
const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  visit('/it-it/cart/items', formPost(fields, { 'CF-Connecting-IP': '203.0.113.41', ...headers }))
const cartCodeOf = (headers: Headers) => /__Host-Cart-it=([^;]+)/.exec(headers.getSetCookie().join('\n'))?.[1] ?? null

describe("the product page's colours and sizes", () => {
  it('offers the colours as round radios with their names, the first chosen, instead of the variants table', async () => {
    const { status, text } = await visit('/it-it/products/aurora-strada-9')
    expect(status).toBe(200)
    expect(text).not.toContain('<table class="variants"')
    const colours = tags(text, 'input').filter((tag) => tag.includes('name="colour"'))
    expect(colours.map((tag) => /value="([a-z]+)"/.exec(tag)?.[1])).toEqual(['red', 'black', 'white'])
    expect(colours[0]).toContain('checked=""')
    expect(colours.slice(1).join('')).not.toContain('checked')
    const swatches = textOf(/<fieldset class="pick-colours">[\s\S]*?<\/fieldset>/.exec(text)?.[0] ?? '')
    expect(swatches).toContain(italian.product.colour)
    for (const name of [italian.colour.red, italian.colour.black, italian.colour.white])
      expect(swatches).toContain(name)
  })

  it("offers each colour's sizes as a radio group of their own, sold out ones struck and disabled, few left marked", async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    expect(inputOf(text, 'STR9-M-RED')).toMatch(/type="radio" name="sku-red"/)
    expect(inputOf(text, 'STR9-M-RED')).not.toContain('disabled')
    expect(inputOf(text, 'STR9-S-BLK')).toMatch(/name="sku-black"/)
    expect(inputOf(text, 'STR9-XL-RED')).toContain('disabled=""')
    const red = sizeGroup(text, 'red')
    expect(red).toMatch(
      /<label class="buy-size disabled"><input type="radio" disabled="" name="sku-red" value="STR9-XL-RED"/,
    )
    expect(textOf(red)).toContain(`XL, ${italian.colour.red}, 4290,00\u00a0€, ${italian.availability.out_of_stock}`)
    expect(red).toMatch(/<label class="buy-size low"><input type="radio" name="sku-red" value="STR9-XS-RED"/)
    expect(textOf(text)).toContain(italian.availability.low_stock)
    // No size is chosen for the visitor, and "Choose a size" says so in the bar kept in view on phones.
    expect(tags(red, 'input').join('')).not.toContain('checked')
    expect(text).toMatch(
      /<div class="buy-bar" data-away=""><p class="buy-bar-price">[^<]*4290,00\u00a0€<\/p><a class="button buy-bar-action" href="#sizes">Scegli una taglia<\/a>/,
    )
  })

  it('chooses the one size of a one-size product for the visitor', async () => {
    const { text } = await visit('/it-it/products/aurora-pompa-mini')
    expect(inputOf(text, 'POMP-OS-GRY')).toContain('checked=""')
  })

  it("adds, without JavaScript, the size chosen in the colour chosen (another colour's earlier choice ignored)", async () => {
    const added = await post(productForm({ colour: 'black', 'sku-red': 'STR9-M-RED', 'sku-black': 'STR9-S-BLK' }))
    expect(added.status).toBe(303)
    expect(added.headers.get('Location')).toBe('/it-it/products/aurora-strada-9')
    const code = cartCodeOf(added.headers)
    expect(code).toBeTruthy()
    const cart = textOf((await visit('/it-it/cart', { headers: { Cookie: `__Host-Cart-it=${code}` } })).text)
    // The size comes isolated (U+2068…U+2069) in the cart's line.
    expect(cart).toContain(`\u2068S\u2069 · ${italian.colour.black}`)
    expect(cart).not.toContain(`\u2068M\u2069 · ${italian.colour.red}`)
  })

  it('sends a colour without a size back to the product asking for one (303 with a notice, 422 in JSON), adding nothing', async () => {
    const plain = await post(productForm({ colour: 'white', 'sku-red': 'STR9-M-RED' }))
    expect(plain.status).toBe(303)
    expect(plain.headers.get('Location')).toBe('/it-it/products/aurora-strada-9')
    expect(cartCodeOf(plain.headers)).toBeNull()
    const page = await visit('/it-it/products/aurora-strada-9', {
      headers: { Cookie: '__Host-Notice=cart_choose_size' },
    })
    expect(textOf(page.text)).toContain(italian.cart.choose_size)
    const json = await post(productForm({ colour: 'white' }), { Accept: 'application/json' })
    expect(json.status).toBe(422)
    expect(JSON.parse(json.text)).toEqual({ ok: false, count: null, message: italian.cart.choose_size, added: null })
    // A malformed colour is a bad request, never a 500.
    expect((await post(productForm({ colour: 'Red!' }))).status).toBe(400)
  })

  it('shows, where the market does not sell online, the colours for their pictures and the nearest dealers that sell, no sizes or stock', async () => {
    const { text } = await visit('/mx-es/products/aurora-strada-9')
    expect(text).not.toContain('<form class="buy-box"')
    expect(text).not.toContain('class="buy-bar')
    expect(tags(text, 'input').filter((tag) => tag.includes('name="colour"'))).toHaveLength(3)
    expect(text).not.toContain('class="size-group"')
    const main = textOf(/<main[\s\S]*<\/main>/.exec(text)?.[0] ?? '')
    for (const stock of Object.values(spanish.availability)) expect(main).not.toContain(stock)
    expect(main).not.toContain(spanish.cart.add)
    // The price once, under the name.
    expect(text.match(/<p class="price[ "]/g) ?? []).toHaveLength(1)
    expect(/<header class="product-head">[\s\S]*?<\/header>/.exec(text)?.[0]).toContain('<p class="price">')
    const block = /<section class="find-at-dealer"[\s\S]*?<\/section>/.exec(text)?.[0] ?? ''
    expect(textOf(block)).toContain(spanish.product.find_at_dealer)
    expect(textOf(block)).toContain(spanish.product.find_at_dealer_lead.replace('{{name}}', 'Aurora Strada 9'))
    // Mexico's two selling dealers, nearest to the country's centre first (Guadalajara, then Mexico City), each linked.
    const links = [...block.matchAll(/<a href="(\/mx-es\/dealers\/[a-z0-9-]+)">/g)].map((m) => m[1])
    expect(links).toHaveLength(2)
    expect(textOf(block).indexOf('Guadalajara')).toBeLessThan(textOf(block).indexOf('Ciudad de México'))
    expect(block).toMatch(/<a class="button" href="\/mx-es\/[a-z-]+">/)
    for (const link of links) expect((await visit(link ?? '')).status).toBe(200)
    expect(text).toContain('<div class="actions actions-prominent">')
    expect(tags(section(text, 'product-gallery'), 'a')).toHaveLength(6)
  })

  it("shows the price once where the market sells online: the buy box's, one line per colour, none under the name", async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    expect(/<header class="product-head">[\s\S]*?<\/header>/.exec(text)?.[0]).not.toContain('class="price"')
    const lines = text.match(/<p class="price buy-price" data-colour="([a-z]+)">[\s\S]*?<\/p>/g) ?? []
    expect(lines.map((line) => /data-colour="([a-z]+)"/.exec(line)?.[1])).toEqual(['red', 'black', 'white'])
    expect(lines.map((line) => textOf(line).replace(/\s+/g, ' ').trim())).toEqual([
      `${italian.product.price} : 4290,00 €`,
      `${italian.product.price} : 4290,00 €`,
      `${italian.product.price} : 4490,00 €`,
    ])
    expect(text).not.toContain('size-group-price')
    // A product whose colours cost the same has one line without a colour.
    const pump = await visit('/it-it/products/aurora-pompa-mini')
    expect(pump.text.match(/<p class="price buy-price">/g) ?? []).toHaveLength(1)
  })

  it('says "only a few left" only in the colour that has a size with few left, and the chosen size\'s own availability', async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    // Red has XS with few left; black and white have none.
    expect(textOf(sizeGroup(text, 'red'))).toContain(italian.availability.low_stock.replace(/\s+/g, ' '))
    expect(sizeGroup(text, 'red')).toContain('class="buy-low-note"')
    expect(sizeGroup(text, 'black')).not.toContain('buy-low-note')
    expect(sizeGroup(text, 'white')).not.toContain('buy-low-note')
    // No size chosen: no stock note for one.
    expect(text).toMatch(/<p class="buy-stock" aria-live="polite"><\/p>/)
    // A one-size product has its size chosen: its availability is said.
    const pump = await visit('/it-it/products/aurora-pompa-mini')
    expect(textOf(/<p class="buy-stock[^"]*"[\s\S]*?<\/p>/.exec(pump.text)?.[0] ?? '')).toMatch(
      new RegExp(
        `${italian.order.one_size}\\s+·\\s+(${italian.availability.in_stock}|${italian.availability.low_stock})`,
      ),
    )
  })

  it("answers the island the mini-cart's line and the cart's subtotal after an add, and its checkout", async () => {
    const json = await post(productForm({ colour: 'white', 'sku-white': 'STR9-M-WHT' }), { Accept: 'application/json' })
    expect(json.status).toBe(200)
    const answer = JSON.parse(json.text)
    expect(answer.added).toEqual({
      line: {
        name: 'Aurora Strada 9',
        image: expect.stringMatching(/^\/images\/products\/aurora-strada-9/),
        size: 'M',
        colour: italian.colour.white,
        quantity: 1,
        price: '4490,00\u00a0€',
      },
      subtotal: '4490,00\u00a0€',
      checkoutUrl: expect.stringMatching(/^\/it-it\/checkout\/[A-Za-z0-9_-]+$/),
    })
  })
})

describe("the product page's gallery", () => {
  it('links every picture to its file (opened in full without JavaScript, in the viewer with it), the first at once', async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    const gallery = section(text, 'product-gallery')
    const links = tags(gallery, 'a')
    expect(links).toHaveLength(6)
    for (const link of links)
      expect(link).toMatch(
        /^<a class="gallery-link" href="\/images\/products\/aurora-strada-9[a-z-]*\.svg" data-viewer="">$/,
      )
    expect(gallery).toMatch(
      /<a class="gallery-link" href="\/images\/products\/aurora-strada-9.svg" data-viewer=""><img src="\/images\/products\/aurora-strada-9.svg" alt="Aurora Strada 9, Rosso" width="960" height="640" fetchPriority="high"\/>/,
    )
    expect(
      tags(gallery, 'img')
        .slice(1)
        .every((img) => img.includes('loading="lazy"')),
    ).toBe(true)
    // The viewer's texts in the market's language, for the chunk that opens on the first click.
    expect(gallery).toContain(
      'data-viewer-texts="{&quot;label&quot;:&quot;Immagini di Aurora Strada 9 a schermo intero&quot;,&quot;close&quot;:&quot;Chiudi&quot;',
    )
  })

  it('marks the pictures of each colour with it, in the order of the colours offered (any shared ones last)', async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    const items = tags(section(text, 'product-gallery'), 'li')
    expect(items).toEqual(
      ['red', 'red', 'black', 'black', 'white', 'white'].map(
        (colour) => `<li class="gallery-item" data-colour="${colour}">`,
      ),
    )
    // Each picture named apart: the colour's first by the colour, the next by its number too.
    expect(tags(section(text, 'product-gallery'), 'img').map((img) => /alt="([^"]+)"/.exec(img)?.[1])).toEqual([
      'Aurora Strada 9, Rosso',
      'Immagine 2 di Aurora Strada 9, Rosso',
      'Aurora Strada 9, Nero',
      'Immagine 2 di Aurora Strada 9, Nero',
      'Aurora Strada 9, Bianco',
      'Immagine 2 di Aurora Strada 9, Bianco',
    ])
    expect(
      tags(text, 'input')
        .filter((tag) => tag.includes('name="colour"'))
        .every((tag) => tag.includes('data-pictures=""')),
    ).toBe(true)
  })

  it("answers each colour's own pictures in the product's contract (colour_gallery), among the gallery's", async () => {
    const request = new Request('http://embedded.invalid/api/front/products/aurora-strada-9', {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
    })
    const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
    const { data } = (await response.json()) as { data: Product }
    const path = (name: string) => `/images/products/aurora-strada-9${name}.svg`
    expect(data.gallery).toEqual(['', '-detail', '-colour', '-detail-black', '-white', '-detail-white'].map(path))
    expect(data.colour_gallery).toEqual({
      red: [path(''), path('-detail')],
      black: [path('-colour'), path('-detail-black')],
      white: [path('-white'), path('-detail-white')],
    })
  })
})

describe("the product page's breadcrumbs and related products", () => {
  it('shows the breadcrumbs home › type › product, as the BreadcrumbList says, the product the current page', async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    const crumbs = section(text, 'breadcrumbs')
    expect(crumbs).toContain(`aria-label="${italian.product.breadcrumbs}"`)
    expect(crumbs).toContain('<a href="/it-it">Home</a>')
    expect(crumbs).toContain('<a href="/it-it/products/type/bikes">Biciclette</a>')
    expect(crumbs).toContain('<span aria-current="page">Aurora Strada 9</span>')
    const graph = JSON.parse(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(text)?.[1] ?? '{}')[
      '@graph'
    ] as Array<Record<string, unknown>>
    const list = graph.find((thing) => thing['@type'] === 'BreadcrumbList') as {
      itemListElement: Array<{ name: string; item: string }>
    }
    expect(list.itemListElement.map(({ name, item }) => [name, item])).toEqual([
      ['Home', 'https://site.test/it-it'],
      ['Biciclette', 'https://site.test/it-it/products/type/bikes'],
      ['Aurora Strada 9', 'https://site.test/it-it/products/aurora-strada-9'],
    ])
  })

  it("isolates the breadcrumbs' direction on a Hebrew page and names them in Hebrew", async () => {
    const { text } = await visit('/il-he/products/aurora-strada-9')
    expect(text).toContain('<html lang="he" dir="rtl"')
    expect(section(text, 'breadcrumbs')).toContain(`aria-label="${hebrew.product.breadcrumbs}"`)
  })

  it('shows up to four other products of the same type, priced in the market, never the product itself', async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    const related = section(text, 'product-section product-related')
    expect(textOf(related)).toContain(italian.product.related)
    const links = tags(related, 'a').map((tag) => /href="([^"]+)"/.exec(tag)?.[1])
    expect(links.length).toBeGreaterThanOrEqual(3)
    expect(links.length).toBeLessThanOrEqual(4)
    expect(links).not.toContain('/it-it/products/aurora-strada-9')
    expect(links).toContain('/it-it/products/aurora-strada-5')
    expect(links.every((href) => href?.startsWith('/it-it/products/aurora-'))).toBe(true)
    expect(related.match(/<p class="card-price">[^<]+€<\/p>/g)).toHaveLength(links.length)
  })
})
