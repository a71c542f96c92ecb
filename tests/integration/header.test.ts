import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { productTypesAnswer } from '../../contract/catalogue-schemas'
import { logIn, visitAs } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

/** The header's markup: from its opening tag to its end. */
const headerOf = (html: string) => /<header class="site-header"[\s\S]*?<\/header>/.exec(html)?.[0] ?? ''
/** The offsets of each marker in `html`, in the order given (-1: missing). */
const offsets = (html: string, markers: string[]) => markers.map((marker) => html.indexOf(marker))
/** A whole element from its opening tag with `marker` to the closing tag of the same name. */
function elementOf(html: string, marker: string): string {
  const start = html.indexOf(marker)
  if (start < 0) return ''
  const open = html.lastIndexOf('<', start)
  const name = /^<([a-z]+)/.exec(html.slice(open))?.[1] ?? ''
  let depth = 0
  const tags = new RegExp(`<(/?)${name}\\b[^>]*>`, 'g')
  tags.lastIndex = open
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[1] ? -1 : 1
    if (depth === 0) return html.slice(open, match.index + match[0].length)
  }
  return ''
}

describe('the header', () => {
  it('is one bar: the logo, the navigation (product menu, content pages, market picker), then search, account, cart and the menu button', async () => {
    const { status, text } = await visit('/it-it')
    expect(status).toBe(200)
    const header = headerOf(text)
    const bar = elementOf(header, 'class="header-bar"')
    // The bar's children: the logo, the navigation and the tools, nothing else (the panels hang inside them).
    const children = bar.replace(/^<div class="header-bar">/, '').replace(/<\/div>$/, '')
    const nav = elementOf(children, 'class="site-nav"')
    const tools = elementOf(children, 'class="header-tools"')
    expect(children.startsWith('<a class="brand" href="/it-it">')).toBe(true)
    expect(children.endsWith(tools)).toBe(true)
    expect(children.indexOf(nav)).toBeLessThan(children.indexOf(tools))
    expect(nav).toMatch(/<li><a href="\/it-it\/[a-z-]+">/)
    const inNav = offsets(nav, ['<details class="product-menu">', '<li><a href="/it-it/', 'class="nav-picker"'])
    expect(inNav.every((offset) => offset >= 0)).toBe(true)
    expect(inNav).toEqual([...inNav].sort((a, b) => a - b))
    const inTools = offsets(tools, [
      'class="header-search"',
      'class="login-link icon-button"',
      'class="cart-link icon-button"',
      'class="mobile-menu-button icon-button"',
    ])
    expect(inTools.every((offset) => offset >= 0)).toBe(true)
    expect(inTools).toEqual([...inTools].sort((a, b) => a - b))
  })

  it('names the content pages by their short names in the bar ("Händler" for "Händler finden")', async () => {
    const nav = elementOf(headerOf((await visit('/de-de')).text), 'class="nav-links"')
    const links = [...nav.matchAll(/<li><a href="\/de-de\/[a-z-]+"[^>]*>([^<]+)<\/a><\/li>/g)].map(([, name]) => name)
    expect(links).toEqual(['Händler', 'Über uns', 'Kontakt'])
  })

  it("names every icon button by a text in the page's language: search, log in, cart (with its count), menu", async () => {
    const header = headerOf((await visit('/it-it')).text)
    const search = elementOf(header, '<summary class="icon-button">')
    expect(search).toContain('<span class="visually-hidden">Cerca</span>')
    expect(search).toMatch(/<svg class="tool-icon" aria-hidden="true"/)
    const login = elementOf(header, 'class="login-link icon-button"')
    expect(login).toContain('href="/login?redirect=%2Fit-it"')
    expect(login).toContain('<span class="visually-hidden">Accedi</span>')
    const cart = elementOf(header, 'class="cart-link icon-button"')
    expect(cart).toContain('<span class="cart-link-label visually-hidden">Carrello</span>')
    expect(cart).toContain('data-cart-count=""')
    expect(header).toContain('<span class="visually-hidden">Apri il menu</span>')
    // Right to left: the same tools, in Hebrew.
    const hebrew = headerOf((await visit('/il-he')).text)
    expect(hebrew).toContain('<span class="visually-hidden">חיפוש</span>')
    expect(hebrew).toContain('<span class="visually-hidden">התחברות</span>')
    expect(hebrew).toContain('<span class="visually-hidden">פתיחת התפריט</span>')
  })

  it('gives a logged-in visitor an account button opening their name, their account and the logout form', async () => {
    const id = await logIn()
    const header = headerOf((await visitAs(id, '/it-it')).text)
    expect(header).not.toContain('class="login-link')
    const account = elementOf(header, '<details class="account-menu">')
    expect(account).toContain('<span class="visually-hidden">Il mio account</span>')
    // The name isolated (first-strong isolate … pop), so a Latin name stays whole in a right-to-left sentence.
    expect(account).toMatch(/<p class="account-panel-name">Accesso effettuato come \u2068[^<\u2069]+\u2069<\/p>/)
    expect(account).toContain('href="/it-it/my-account"')
    expect(account).toContain(
      '<form class="logout-form" action="/logout" method="post"><input type="hidden" name="redirect" value="/it-it"/><button type="submit" class="link-button">Esci</button></form>',
    )
    // The account sits between the search and the cart, in the same bar.
    const tools = elementOf(header, 'class="header-tools"')
    const order = offsets(tools, [
      'class="header-search"',
      '<details class="account-menu">',
      'class="cart-link icon-button"',
    ])
    expect(order).toEqual([...order].sort((a, b) => a - b))
  })

  it('works without JavaScript: the product menu and the search are <details>, the search a GET form to the search page, the menu button a link to the navigation', async () => {
    const header = headerOf((await visit('/de-de')).text)
    const search = elementOf(header, '<details class="header-search">')
    expect(search).toContain(
      '<form role="search" class="search-panel-form" aria-label="Website durchsuchen" action="/de-de/search/all" method="get">',
    )
    expect(search).toMatch(
      /<input id="header-q" type="text" inputMode="search" enterKeyHint="search" maxLength="100" placeholder="[^"]+" data-autofocus=""[^>]* role="combobox"[^>]* name="q"\/>/,
    )
    expect(search).toMatch(/<label for="header-q" class="visually-hidden">Website durchsuchen<\/label>/)
    expect(elementOf(header, '<details class="product-menu">')).toContain('<summary>Fahrräder')
    expect(header).toMatch(
      /<a href="#site-nav" role="button" class="mobile-menu-button icon-button" aria-controls="site-nav" aria-expanded="false"/,
    )
    expect(header).toContain('<nav id="site-nav" class="site-nav" aria-label="Hauptnavigation">')
    expect(header).toMatch(/class="panel-all" href="\/de-de\/products"/)
  })

  it('shows the market\'s product types in the product menu, each with its picture and its name, then the bikes and "all products"', async () => {
    const menu = elementOf(headerOf((await visit('/it-it')).text), '<details class="product-menu">')
    const cards = [
      ...menu.matchAll(
        /<a class="type-card" href="([^"]+)"><span class="type-card-picture"><img src="([^"]+)" alt=""[^>]*loading="lazy"[^>]*\/><\/span><span class="type-card-name">([^<]+)<\/span><\/a>/g,
      ),
    ]
    expect(cards.map(([, href, src, name]) => [href, src, name])).toEqual([
      ['/it-it/products/type/bikes', '/images/products/aurora-strada-9.svg', 'Biciclette'],
      ['/it-it/products/type/e-bikes', '/images/products/aurora-e-sterrato.svg', 'E-bike'],
      ['/it-it/products/type/accessories', '/images/products/aurora-aria-helmet.svg', 'Accessori'],
    ])
    expect(menu).toContain('href="/it-it/products/aurora-strada-9"')
    expect(menu).toContain('>Tutti i prodotti<')
  })

  it('leaves out the search and the cart where their pages are switched off, and keeps the bar', async () => {
    await env.DB.prepare("UPDATE features SET enabled = 0 WHERE key IN ('search', 'checkout')").run()
    try {
      await clearCaches()
      const { text } = await visit('/it-it')
      const header = headerOf(text)
      expect(header).toContain('class="header-bar"')
      expect(header).not.toContain('header-search')
      expect(header).not.toContain('cart-link')
      expect(header).toContain('class="mobile-menu-button icon-button"')
    } finally {
      await env.DB.prepare("UPDATE features SET enabled = 1 WHERE key IN ('search', 'checkout')").run()
      await clearCaches()
    }
  })
})

describe('GET api/front/product-types', () => {
  it('answers each type with its picture for the menu: its first product sold in the market, featured first', async () => {
    const request = new Request('http://embedded.invalid/api/front/product-types', {
      headers: { 'X-Tenant': 'it', 'X-Locale': 'it' },
    })
    const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env)
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: Array<{ slug: string; image: string | null }> }
    expect(data.map(({ slug, image }) => [slug, image])).toEqual([
      ['bikes', '/images/products/aurora-strada-9.svg'],
      ['e-bikes', '/images/products/aurora-e-sterrato.svg'],
      ['accessories', '/images/products/aurora-aria-helmet.svg'],
    ])
  })

  it("reads a brand's answer without pictures, or with one that is not a path on the site, as types without a picture", () => {
    const { data } = productTypesAnswer.parse({
      data: [
        { id: 1, slug: 'bikes', name: 'Bikes', registrable: true },
        { id: 2, slug: 'e-bikes', name: 'E-bikes', image: 'https://elsewhere.example/e.jpg' },
        { id: 3, slug: 'parts', name: 'Parts', image: '/images/parts.jpg' },
      ],
    })
    expect(data.map(({ slug, image }) => [slug, image])).toEqual([
      ['bikes', null],
      ['e-bikes', null],
      ['parts', '/images/parts.jpg'],
    ])
  })
})
