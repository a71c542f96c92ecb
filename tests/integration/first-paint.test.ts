import { beforeEach, describe, expect, it } from 'vitest'
import { assets } from '../../src/render/assets'
import { STYLESHEET_SWAP } from '../../src/render/critical-css'
import { cookieHeader, logIn } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

beforeEach(clearCaches)

/** The `'sha256-…'` source of a text, as a CSP names it. */
async function hashSource(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`
}

/** A CSP's sources of one directive. */
const directive = (policy: string, name: string) =>
  (policy.split(';').find((part) => part.trim().startsWith(`${name} `)) ?? '').trim().split(/\s+/).slice(1)

/** The page's head, up to its body. */
const headOf = (html: string) => html.slice(0, html.indexOf('<body'))

/** The modules a page preloads. */
const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map(([, href]) => href)

describe('first paint without a blocking stylesheet (docs/decisions/065-first-paint.md)', () => {
  it.each([
    ['a page the page cache keeps (home)', '/it-it', false],
    ['a product page in an RTL market', '/il-he/products/aurora-strada-9', false],
    ["a logged-in visitor's page (its nonce)", '/it-it/my-account', true],
  ])(
    '%s: its own CSS inlined and allowed by its hash, the stylesheet as print swapped in by an allowed script',
    async (_, path, loggedIn) => {
      const init = loggedIn ? { headers: cookieHeader(await logIn()) } : {}
      const { status, text, headers } = await visit(path, init)
      expect(status).toBe(200)
      const head = headOf(text)
      const css = /<style>([^<]+)<\/style>/.exec(head)?.[1]
      expect(css).toBeTruthy()
      const policy = headers.get('Content-Security-Policy') ?? ''
      expect(directive(policy, 'style-src')).toEqual(["'self'", await hashSource(css ?? '')])
      // No stylesheet blocks the first paint: the site's is print until swapped, and as it was only without script.
      const blocking = [...head.replaceAll(/<noscript>.*?<\/noscript>/g, '').matchAll(/<link rel="stylesheet"[^>]*>/g)]
      expect(blocking.map(([link]) => link)).toEqual([
        `<link rel="stylesheet" href="${assets.css}" media="print" data-swap=""/>`,
      ])
      expect(head).toContain(`<noscript><link rel="stylesheet" href="${assets.css}"/></noscript>`)
      const swap = text.slice(text.lastIndexOf('<script'), text.indexOf('</body>'))
      expect(swap).toContain(STYLESHEET_SWAP)
      const scripts = directive(policy, 'script-src')
      if (loggedIn) expect(swap).toMatch(/^<script nonce="[^"]+">/)
      else expect(scripts).toContain(await hashSource(STYLESHEET_SWAP))
    },
  )

  it("inlines the rules the page's HTML can match, not the others, with the fonts read from /assets", async () => {
    const { text } = await visit('/it-it')
    const css = /<style>([^<]+)<\/style>/.exec(text)?.[1] ?? ''
    expect(css).toContain('.site-header')
    expect(css).toMatch(/@font-face\{[^}]*src:url\("\/assets\/inter-latin-wght-normal-[A-Z0-9]+\.woff2"\)/)
    // The buy box's and the locator's rules are not the home page's.
    expect(text).not.toContain('class="buy-box')
    expect(css).not.toContain('.buy-box')
    expect(css).not.toContain('.locator-views')
    expect(css.length).toBeLessThan(40_000)
  })

  it("a product page inlines its first screen's rules, not those of its closed menus, size guide or hover states (decision 088)", async () => {
    for (const market of ['it-it', 'il-he']) {
      const { text } = await visit(`/${market}/products/aurora-strada-9`)
      const css = /<style>([^<]+)<\/style>/.exec(text)?.[1] ?? ''
      for (const shown of ['.buy-box{', '.swatches{', '.gallery-list{', '.header-bar{', '.consent-form{']) {
        expect(css, `${market} ${shown}`).toContain(shown)
      }
      // In the page, inside closed <details>: the market picker's list, the size guide's geometry table.
      expect(text).toContain('class="market-list"')
      expect(text).toContain('class="geometry"')
      const later = [
        '.market-list{',
        '.geometry',
        '.product-panel-inner{',
        '.button:hover{',
        '.swatch-option:hover',
        '@media print',
      ]
      for (const rule of later) {
        expect(css, `${market} ${rule}`).not.toContain(rule)
      }
      expect(css.length, market).toBeLessThan(30_000)
    }
  })

  it("keeps the dealer map's stylesheet off the first paint too, and the error page's (no script) as it was", async () => {
    const { text } = await visit('/it-it/rivenditori')
    expect(text).toContain(`<link rel="stylesheet" href="${assets.mapCss}" media="print" data-swap=""/>`)
    const missing = await visit('/it-it/no-such-page-here')
    expect(missing.status).toBe(404)
    expect(missing.text).toContain(`<link rel="stylesheet" href="${assets.css}"/>`)
    expect(missing.text).not.toContain('<style>')
  })
})

describe("only the JavaScript a page's islands use", () => {
  const runtime = assets.islands['add-to-cart']?.modules[0] ?? ''

  it('a page without islands preloads the entry alone: no hydration runtime, no island', async () => {
    const { text } = await visit('/it-it')
    expect(text).not.toContain('data-island=')
    expect(preloads(text)).toEqual([assets.entry, ...assets.preload])
  })

  it("the listing preloads its filters' plain chunk and no runtime; the product page the runtime and its buy box", async () => {
    const listing = preloads((await visit('/it-it/products')).text)
    expect(listing).toEqual([assets.entry, ...assets.preload, ...(assets.islands['listing-updates']?.modules ?? [])])
    expect(listing).not.toContain(runtime)
    const product = preloads((await visit('/it-it/products/aurora-strada-9')).text)
    expect(product).toEqual([assets.entry, ...assets.preload, ...(assets.islands['add-to-cart']?.modules ?? [])])
    expect(product[assets.preload.length + 1]).toBe(runtime)
    expect(runtime).toMatch(/\/assets\/hydrate-/)
  })

  it("the locator preloads the runtime and its locate button, not the dealer map's Leaflet chunk (docs/decisions/080)", async () => {
    const { text } = await visit('/it-it/rivenditori')
    expect(text).toContain('data-island="dealer-map"')
    const map = assets.islands['dealer-map']?.modules.at(-1) ?? ''
    expect(map).toMatch(/\/assets\/dealer-map-/)
    const preloaded = preloads(text)
    expect(preloaded).not.toContain(map)
    expect(preloaded).toEqual(
      expect.arrayContaining([...assets.runtime, ...(assets.islands['locate-button']?.modules ?? [])]),
    )
  })
})
