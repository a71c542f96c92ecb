import { describe, expect, it } from 'vitest'
import { FORM_TOKEN_FIELD } from '../../src/forms/form-token'
import { CONSENT_COOKIE } from '../../src/tracking/consent'
import { formPost, logIn, nextClient, visitAs } from '../fixtures/session'
import { keptRender } from '../../src/render/kept'
import { rememberedTexts } from '../../src/render/critical-css'
import { visit } from '../fixtures/worker'

// A page rendered with its kept parts (the header's menus, the footer, the consent banner's texts, reused as bytes
// by the isolate: src/render/kept.tsx) is the very page rendered afresh (RENDER_MODE=fresh), whoever came before.

/** Every request renders (no page cache), with the kept parts (`auto`) or every part afresh (`fresh`). */
const rendered = { PAGE_CACHE: 'off', RENDER_MODE: 'auto' } as const
const fresh = { PAGE_CACHE: 'off', RENDER_MODE: 'fresh' } as const

/** What differs between two renders of one page by design: the form tokens and keys (new each time), the nonce. */
const comparable = (html: string) =>
  html
    .replaceAll(new RegExp(`name="${FORM_TOKEN_FIELD}" value="[^"]*"`, 'g'), `name="${FORM_TOKEN_FIELD}" value=""`)
    .replaceAll(/ nonce="[^"]*"/g, ' nonce=""')
    .replaceAll(/name="key" value="[^"]*"/g, 'name="key" value=""')
    .replaceAll(/&quot;formKey&quot;:&quot;[^&]*&quot;/g, '&quot;formKey&quot;:&quot;&quot;')

/** The page twice, with its kept parts and afresh, for the same visitor: the same status and bytes. */
async function sameBothWays(path: string, cookie?: string) {
  const init = cookie ? { headers: { Cookie: cookie } } : {}
  const kept = await visit(path, init, rendered)
  const plain = await visit(path, init, fresh)
  expect(kept.status).toBe(plain.status)
  const [a, b] = [comparable(kept.text), comparable(plain.text)]
  // Where they part, with a little of what comes before (a page's whole text would drown the difference).
  let at = 0
  while (at < a.length && a[at] === b[at]) at++
  expect(a.slice(Math.max(0, at - 160), at + 160), `${path} at ${at}`).toBe(b.slice(Math.max(0, at - 160), at + 160))
  expect(a.length).toBe(b.length)
  return kept.text
}

/** The demo customer logged in, with a bike in their cart (the header's count). */
async function customerWithCart(): Promise<string> {
  const session = `__Host-AuthTkn=${await logIn()}`
  const product = await visitAs(session.split('=')[1] ?? '', '/it-it/products/aurora-strada-9', {}, fresh)
  const sku = /name="sku" value="([^"]+)"/.exec(product.text)?.[1] ?? 'STR9-M-RED'
  const added = await visit(
    '/it-it/cart/items',
    formPost(
      { sku, quantity: '1', key: `kept-parts-${Date.now()}-abcdefghijk`, product: 'aurora-strada-9' },
      { Cookie: session, 'CF-Connecting-IP': nextClient() },
    ),
  )
  expect(added.status).toBe(303)
  return session
}

describe('the kept parts of a page', () => {
  it('give the bytes of a fresh render, for a logged-in visitor with a cart and for anonymous visitors after them', async () => {
    const customer = await customerWithCart()
    // The customer first: their greeting and their cart's count are in their page, and only in theirs.
    const theirs = await sameBothWays('/it-it/products/aurora-strada-9', customer)
    expect(theirs).toContain('class="account-menu"')
    expect(theirs).toMatch(/<span class="cart-count" data-cart-count="" aria-hidden="true">1<\/span>/)
    const anonymous = await sameBothWays('/it-it/products/aurora-strada-9')
    expect(anonymous).not.toContain('class="account-menu"')
    expect(anonymous).toContain('href="/login?redirect=%2Fit-it%2Fproducts%2Faurora-strada-9"')
    // Another page of the market: the picker's path and the current link are this page's.
    const home = await sameBothWays('/it-it')
    expect(home).toContain('name="from" value="/it-it"')
    // The account overview, never kept by the page cache.
    await sameBothWays('/it-it/my-account', customer)
  })

  it("leave nothing of a logged-in visitor's page in the isolate's memory of pages' texts (their name, their cart)", async () => {
    const customer = await customerWithCart()
    await visit('/it-it/products/aurora-strada-5', {}, rendered)
    const before = rememberedTexts()
    for (const path of [
      '/it-it/products/aurora-strada-5',
      '/it-it/my-account',
      '/it-it/products',
      '/it-it/my-account/orders/AUR-10007',
    ])
      expect((await visit(path, { headers: { Cookie: customer } }, rendered)).status).toBe(200)
    expect(rememberedTexts()).toBe(before)
    // Nor is an order's head (its title names the order) kept as bytes for the next renders.
    expect([...keptRender().store.values()].some((bytes) => bytes.includes('AUR-10007'))).toBe(false)
    // An anonymous visitor's page of another kind is remembered: the count is the worker's own.
    await visit('/it-it/news', {}, rendered)
    expect(rememberedTexts()).toBeGreaterThan(before)
  })

  it('give the bytes of a fresh render in each market and language, and for each consent choice', async () => {
    for (const path of ['/it-it', '/il-he', '/ae-ar/products/aurora-strada-9', '/ch-fr', '/it-it/dealers']) {
      await sameBothWays(path)
    }
    for (const choice of ['v1.a1.m1.f1', 'v1.a0.m0.f0', 'v1.a1.m0.f0']) {
      const page = await sameBothWays('/it-it', `${CONSENT_COOKIE}=${choice}`)
      expect(page).toContain('class="consent consent-closed"')
    }
    await sameBothWays('/it-it', undefined)
  })

  it("keep the home's sections (the latest news once there) and the product's body as bytes, each product page with its own form key", async () => {
    const keys = () => [...keptRender().store.keys()].map((key) => key.split('\u0001')[0])
    const first = await visit('/it-it/products/aurora-strada-9', {}, rendered)
    const second = await visit('/it-it/products/aurora-strada-9', {}, rendered)
    await visit('/it-it', {}, rendered)
    expect(keys()).toEqual(
      expect.arrayContaining(['product-body', 'home-hero-featured', 'home-latest-news', 'home-calls-to-action']),
    )
    const formKey = (html: string) => /name="key" value="([^"]+)"/.exec(html)?.[1]
    expect(formKey(first.text)).toMatch(/^[\w-]{43}$/)
    expect(formKey(second.text)).toMatch(/^[\w-]{43}$/)
    expect(formKey(second.text)).not.toBe(formKey(first.text))
    expect(second.text).toContain(`&quot;formKey&quot;:&quot;${formKey(second.text)}&quot;`)
  })

  it("keep the head's hoisted elements, the tools of a visitor without a session or a cart and the footer's sign-up as bytes, each page with its own head, way back and form token, each market its own", async () => {
    const keys = () => [...keptRender().store.keys()].map((key) => key.split('\u0001')[0])
    const token = (html: string) => new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(html)?.[1]
    const first = await sameBothWays('/it-it')
    const second = await visit('/it-it', {}, rendered)
    expect(keys()).toEqual(expect.arrayContaining(['header-tools-anonymous', 'footer-newsletter', 'document-head']))
    // The newsletter form's token is new on every answer, written into the kept bytes.
    expect(token(first)).toMatch(/^[\w-]{43}\.\d+\.[\w-]{43}$/)
    expect(token(second.text)).toMatch(/^[\w-]{43}\.\d+\.[\w-]{43}$/)
    expect(token(second.text)).not.toBe(token(first))
    // The login link comes back to the page it is on; the cart link is the current page's on the cart.
    expect(first).toContain('href="/login?redirect=%2Fit-it"')
    const product = await sameBothWays('/it-it/products/aurora-strada-9')
    expect(product).toContain('href="/login?redirect=%2Fit-it%2Fproducts%2Faurora-strada-9"')
    // Each page its own head: title, canonical URL (written in), alternates, Open Graph.
    const other = await sameBothWays('/it-it/products/aurora-e-cargo')
    expect(other).toContain('<link rel="canonical" href="https://site.test/it-it/products/aurora-e-cargo"/>')
    expect(await sameBothWays('/it-it/products/aurora-strada-9?utm_source=x')).toContain(
      '<meta property="og:url" content="https://site.test/it-it/products/aurora-strada-9"/>',
    )
    // The header's link of the page the visitor is on is the current one, and only there.
    expect(await sameBothWays('/it-it/chi-siamo')).toContain('<a href="/it-it/chi-siamo" aria-current="page">')
    expect(first).not.toContain('aria-current="page"')
    const cart = await sameBothWays('/it-it/cart')
    expect(cart).toMatch(/<a class="cart-link icon-button" href="\/it-it\/cart" aria-current="page"/)
    // Another market in the same language: its own links and form.
    const swiss = await sameBothWays('/ch-it')
    expect(swiss).toContain('action="/ch-it/newsletter"')
    expect(swiss).toContain('href="/login?redirect=%2Fch-it"')
  })
})
