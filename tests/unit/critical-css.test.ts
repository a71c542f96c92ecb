import { describe, expect, it, vi } from 'vitest'
import { assets } from '../../src/render/assets'
import { firstPaint, pageCss, rememberedTexts } from '../../src/render/critical-css'

/** The `'sha256-…'` source of a text, as a CSP names it. */
async function hashSource(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`
}

const link = (href: string) => `<link rel="stylesheet" href="${href}"/>`
/** A page as the Document renders it: the stylesheets' links in its head, `body` in its body. */
const page = (body: string, head = link(assets.css)) =>
  `<!DOCTYPE html><html lang="it"><head><meta charSet="utf-8"/>${head}</head><body>${body}</body></html>`

describe("a page's first paint CSS, cheap on every uncached request (docs/decisions/066)", () => {
  it('keeps the CSS with its hash per token set: the next page of the kind reuses both, whatever its text', async () => {
    const first = firstPaint(page('<header class="site-header"><a id="main">Uno</a></header>'), undefined)
    const next = firstPaint(page('<header class="site-header"><a id="main">Due, tre</a></header>'), 'n0nce')
    expect(first?.css).toContain('.site-header')
    expect(await first?.cssHash).toBe(await hashSource(first?.css ?? ''))
    // The same object: neither the rules nor the hash are made again.
    expect(next?.cssHash).toBe(first?.cssHash)
    expect(next?.html).toContain('<script nonce="n0nce">')
  })

  it("remembers a shared page's text by itself, never a visitor's own page (a session's header, an order)", () => {
    const before = rememberedTexts()
    firstPaint(page('<header class="site-header"><a>Buongiorno, Giulia</a></header>'), undefined, [], false)
    firstPaint(page('<header class="site-header"><a>Ordine AUR-10007</a></header>'), 'n0nce')
    expect(rememberedTexts()).toBe(before)
    firstPaint(page('<header class="site-header"><a>Per tutti</a></header>'), undefined)
    expect(rememberedTexts()).toBe(before + 1)
  })

  it('selects the same rules whatever the order and repetition of the tokens, and adds what its islands name', () => {
    const tokens = ['site-header', 'card', 'price']
    const css = pageCss(`<div class="${tokens.join(' ')}"></div>`, [])
    expect(pageCss(`<p class="price card"></p><i class="site-header  card"></i>`, [])).toBe(css)
    const island = Object.keys(assets.islands)[0] ?? ''
    const islandTokens = assets.islands[island]?.tokens ?? []
    const withIsland = firstPaint(
      page(`<div class="${tokens.join(' ')}"></div><div data-island="${island}"></div>`),
      undefined,
    )
    const named = islandTokens.map((t) =>
      t.startsWith('#') ? `<i id="${t.slice(1)}"></i>` : `<i class="${t.slice(1)}"></i>`,
    )
    expect(islandTokens.length).toBeGreaterThan(0)
    expect(withIsland?.css).toBe(pageCss(`<div class="${tokens.join(' ')}"></div>${named.join('')}`, []))
  })

  it('defers both stylesheets of the head and leaves the body as written', () => {
    const body = `<main class="locator">${link(assets.mapCss)} as text</main>`
    const first = firstPaint(page(body, link(assets.css) + link(assets.mapCss)), undefined)
    const html = first?.html ?? ''
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain(`<link rel="stylesheet" href="${assets.mapCss}" media="print" data-swap=""/>`)
    expect(head).toContain(`<noscript>${link(assets.css)}</noscript>`)
    expect(html).toContain(`<body>${body}<script>`)
    expect(html.endsWith('</script></body></html>')).toBe(true)
  })

  it('finds the CSS of a page made of the same pieces again, and never gives one page the CSS of other pieces (decision 087)', () => {
    const part = '<nav class="site-header"><i id="part-id"></i></nav>'
    const placed = (html: string) => [{ at: html.indexOf(part), length: part.length, bytes: part }]
    const pages = [
      page(`<main class="card">Uno</main>${part}<p class="price">1</p>`),
      page(`<main class="card">Due</main>${part}<p class="price">2</p>`),
      page(`<main class="hero">Tre</main>${part}<p class="price">3</p>`),
      page(`<main class="card">Quattro</main>${part}<p class="button">4</p>`),
      page(`<main class="card">Uno</main>${part}<p class="price">1</p>`),
    ]
    const css = pages.map((html) => firstPaint(html, undefined, placed(html))?.css)
    // Each the same as reading its whole page at once, with or without a nonce.
    pages.forEach((html, i) => {
      expect(css[i]).toBe(firstPaint(html, undefined)?.css)
      expect(css[i]).toBe(firstPaint(html, 'n0nce', placed(html))?.css)
    })
    // Other pieces, other tokens: other CSS; the same pieces again: the same.
    expect(new Set(css.slice(1, 4)).size).toBe(3)
    expect(css[2]).not.toBe(css[0])
    expect(css[3]).not.toBe(css[0])
    expect(css[1]).toBe(css[0])
    expect(css[4]).toBe(css[0])
  })

  it("reads a kept part's marks once per isolate, with the same result as reading the whole page (docs/decisions/073)", () => {
    const part = '<nav class="site-header menu-only-in-the-part"><i id="part-id"></i></nav>'
    const body = (text: string) => `<main class="card">${text}</main>${part}<p class="price">${text}</p>`
    const placed = (html: string) => [{ at: html.indexOf(part), length: part.length, bytes: part }]
    const whole = page(body('Uno'))
    expect(firstPaint(whole, undefined, placed(whole))).toEqual(firstPaint(whole, undefined))
    const next = page(body('Due'))
    const reads = vi.spyOn(String.prototype, 'matchAll')
    try {
      const first = firstPaint(next, undefined, placed(next))
      expect(first?.css).toContain('.site-header')
      expect(reads.mock.contexts.some((text) => String(text).includes('menu-only-in-the-part'))).toBe(false)
    } finally {
      reads.mockRestore()
    }
  })
})

describe("a page's first paint CSS holds what its first screen can show (docs/decisions/088)", () => {
  /** The rules the stylesheet has for a class, as the first paint would inline them. */
  const rulesOf = (name: string) => assets.cssRules.filter((rule) => rule.c.startsWith(`.${name}{`))

  it("leaves the content of a closed <details> to the stylesheet; an open one's, and the listing's filters', are inlined", () => {
    expect(rulesOf('market-list').length).toBeGreaterThan(0)
    const picker = (open: string) =>
      `<details class="market-picker"${open}><summary class="globe">IT</summary><ul class="market-list"></ul></details>`
    expect(pageCss(picker(''), [])).toContain('.market-picker{')
    expect(pageCss(picker(''), [])).not.toContain('.market-list{')
    expect(pageCss(picker(' open=""'), [])).toContain('.market-list{')
    // A class also shown outside the closed one keeps its rules.
    expect(pageCss(`${picker('')}<ul class="market-list"></ul>`, [])).toContain('.market-list{')
    // Nested: the inner one ends, the outer one's content goes on being hidden.
    const nested = `<details class="size-guide"><summary>Guida</summary><details class="forgot"><summary>a</summary></details><table class="geometry"></table></details>`
    expect(pageCss(nested, [])).not.toContain('.geometry')
    // The stylesheet shows the filters' content closed on a wide screen (::details-content): inlined.
    const filters =
      '<details class="listing-filters"><summary>Filtri</summary><form class="filter-form"></form></details>'
    expect(pageCss(filters, [])).toContain('.filter-form{')
    // A part of a page that opens a <details> and does not close it is read whole.
    expect(pageCss('<details class="market-picker"><summary>IT</summary><ul class="market-list">', [])).toContain(
      '.market-list{',
    )
  })

  it('leaves print rules and rules only for pointing, focusing or pressing to the stylesheet', () => {
    const css = pageCss(
      '<a class="skip-link" href="#main">Salta</a><ul class="type-cards"><li class="type-card"></li></ul>',
      [],
    )
    expect(css).toContain('.type-card{')
    expect(css).not.toContain(':hover')
    expect(css).not.toContain('@media print')
    // `:focus` inside :not() is the state without it: the skip link stays hidden until focused.
    expect(css).toContain('.skip-link:not(:focus)')
    expect(assets.cssRules.some((rule) => /^[^{]*:hover[^{]*\{/.test(rule.c) && !rule.c.includes(','))).toBe(false)
  })
})
