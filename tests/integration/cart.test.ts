import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import arabic from '../../demo/messages/ar.json'
import hebrew from '../../demo/messages/he.json'
import spanish from '../../demo/messages/es.json'
import italian from '../../demo/messages/it.json'
import english from '../../src/i18n/en.json'
import { formatMoney } from '../../src/i18n/formats'
import { DEMO, formPost, logIn, nextClient, SECOND, sessionIdOf, visitAs } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

const cookieOf = (headers: Headers, name: string) =>
  headers.getSetCookie().find((line) => line.startsWith(`${name}=`)) ?? null
const cartCodeOf = (headers: Headers, country = 'it') =>
  cookieOf(headers, `__Host-Cart-${country}`)?.split(';')[0]?.split('=')[1] ?? null
const cartCookie = (code: string, country = 'it') => `__Host-Cart-${country}=${code}`

let keys = 0
/** A new form key, as a product page renders one. */
const formKey = () => `form-key-${Date.now()}-${keys++}-abcdefghijk`

/** The add form as the product page posts it. */
const addForm = (sku: string, quantity = 1, key = formKey(), product = 'aurora-strada-9') => ({
  sku,
  quantity: String(quantity),
  key,
  product,
})

/** Adds to the cart of a market as an anonymous visitor holding `code` (none: a new cart), and answers the visit. */
function add(
  market: string,
  fields: Record<string, string>,
  code: string | null = null,
  headers: Record<string, string> = {},
) {
  const country = market.split('-')[0]
  return visit(
    `/${market}/cart/items`,
    formPost(fields, {
      'CF-Connecting-IP': '203.0.113.7',
      ...(code ? { Cookie: cartCookie(code, country) } : {}),
      ...headers,
    }),
  )
}

/** A new anonymous cart in a market with these lines, and its code. */
async function cartWith(market: string, ...lines: Array<[string, number]>): Promise<string> {
  let code: string | null = null
  for (const [sku, quantity] of lines) {
    const { status, headers } = await add(market, addForm(sku, quantity), code)
    expect(status).toBe(303)
    code = cartCodeOf(headers, market.split('-')[0]) ?? code
  }
  return code as string
}

const page = async (path: string, code?: string, country = 'it', ...cookies: string[]) => {
  const answer = await visit(
    path,
    code ? { headers: { Cookie: [cartCookie(code, country), ...cookies].join('; ') } } : {},
  )
  return { ...answer, words: textOf(answer.text) }
}

describe("the product page's buy box", () => {
  it('offers every variant sold in a selling market (out of stock ones disabled), a quantity and "Add to cart", posting to the cart', async () => {
    const { status, text, words, headers } = await page('/it-it/products/aurora-strada-9')
    expect(status).toBe(200)
    expect(text).toContain('action="/it-it/cart/items"')
    const input = (value: string) =>
      /<input[^>]*>/g[Symbol.match](text)?.find((tag) => tag.includes(`value="${value}"`)) ?? ''
    expect(input('STR9-M-RED')).toMatch(/type="radio" name="sku-red"/)
    expect(input('STR9-M-RED')).not.toContain('disabled')
    expect(input('STR9-XL-RED')).toContain('disabled=""')
    expect(text).toMatch(/<input type="hidden" name="key" value="[A-Za-z0-9_-]{43}"/)
    expect(text).toContain('<select name="quantity"')
    expect(words).toContain(italian.cart.add)
    expect(words).toContain(italian.cart.prices_include_vat)
    expect(words).toContain('Consegna in 2–4 giorni lavorativi')
    expect(words).toContain(italian.product.find_dealer)
    // Still the same shared page for every visitor without a cart: no cookie, no count.
    expect(headers.get('Set-Cookie')).toBeNull()
    expect(headers.get('Cache-Control')).toBe('no-cache')
    // One way to be out of sight: empty (client/styles/s38a.css), never `hidden` beside `aria-hidden`.
    expect(text).toMatch(/<span class="cart-count" data-cart-count="" aria-hidden="true"><\/span>/)
  })

  it('keeps "find a dealer" only, and no cart, in a market that does not sell online', async () => {
    const { text, words } = await page('/mx-es/products/aurora-strada-9')
    expect(text).not.toContain('/cart/items')
    expect(text).not.toContain('href="/mx-es/cart"')
    expect(words).toContain(spanish.product.find_at_dealer)
    expect(words).not.toContain(spanish.cart.add)
    expect((await visit('/mx-es/cart')).status).toBe(404)
    expect((await add('mx-es', addForm('STR9-M-RED'))).status).toBe(404)
  })
})

describe('adding to the cart', () => {
  it('answers 303 back to the product with a notice, and sets the cart cookie (HttpOnly, Secure, SameSite=Lax, the code only)', async () => {
    const { status, headers } = await add('it-it', addForm('STR9-M-RED'))
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/it-it/products/aurora-strada-9')
    const cookie = cookieOf(headers, '__Host-Cart-it')
    expect(cookie).toMatch(
      /^__Host-Cart-it=[A-Za-z0-9_-]{32}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    )
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    // The notice rides a one-time cookie (docs/decisions/060), never the address.
    expect(headers.getSetCookie().join()).toMatch(
      /__Host-Notice=cart_added; Max-Age=60; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    )
    const back = await page(
      '/it-it/products/aurora-strada-9',
      cartCodeOf(headers) as string,
      'it',
      '__Host-Notice=cart_added',
    )
    expect(back.text).toMatch(/<p class="toast" role="status" data-notice="cart_added">Aggiunto al carrello\.<\/p>/)
  })

  it('never sets a cart cookie on an ordinary page view', async () => {
    for (const path of [
      '/it-it',
      '/it-it/products/aurora-strada-9',
      '/it-it/products',
      '/it-it/cart',
      '/us-en/products/aurora-strada-9',
    ]) {
      const { headers } = await visit(path)
      expect(
        headers.getSetCookie().filter((line) => line.startsWith('__Host-Cart')),
        path,
      ).toEqual([])
    }
  })

  it('adds once when a browser holding a cart sends the same form twice (a double click), at once or one after the other', async () => {
    const code = await cartWith('it-it', ['LUCE-OS-BLK', 1])
    const fields = addForm('STR9-M-RED', 2)
    const island = { Accept: 'application/json' }
    const together = await Promise.all([add('it-it', fields, code, island), add('it-it', fields, code, island)])
    const after = await add('it-it', fields, code, island)
    expect([...together, after].map(({ text }) => JSON.parse(text).count)).toEqual([3, 3, 3])
    expect((await page('/it-it/cart', code)).text).toMatch(/<span class="cart-count"[^>]*>3<\/span>/)
  })

  it('adds once when a logged-in visitor sends the same form twice, and again from another of their sessions', async () => {
    const fields = addForm('POMP-OS-GRY', 1)
    const post = async (session: string) =>
      JSON.parse((await visitAs(session, '/it-it/cart/items', formPost(fields, { Accept: 'application/json' }))).text)
        .count as number
    const phone = await logIn(SECOND)
    const first = await post(phone)
    expect(await post(phone)).toBe(first)
    // The same page on their laptop is another add.
    expect(await post(await logIn(SECOND))).toBe(first + 1)
  })

  it('refuses a variant out of stock, or more than is left, with a notice and no cookie', async () => {
    const soldOut = await add('it-it', addForm('STR9-XL-RED'))
    expect(soldOut.status).toBe(303)
    expect(soldOut.headers.get('Location')).toBe('/it-it/products/aurora-strada-9')
    expect(cookieOf(soldOut.headers, '__Host-Cart-it')).toBeNull()
    const tooMany = await add('it-it', addForm('STR9-XS-RED', 4))
    expect(tooMany.headers.get('Location')).toBe('/it-it/products/aurora-strada-9')
    const notSold = await add('il-he', addForm('ECRG-OS-SND', 1, formKey(), 'aurora-e-cargo'))
    expect(notSold.headers.get('Location')).toBe('/il-he/products/aurora-e-cargo')
  })

  it("answers JSON to the island: the new count, the message in the market's language and the mini-cart's line", async () => {
    const { status, text, headers } = await add('it-it', addForm('STR9-M-RED', 3), null, { Accept: 'application/json' })
    expect(status).toBe(200)
    expect(JSON.parse(text)).toEqual({
      ok: true,
      count: 3,
      message: italian.cart.added,
      added: expect.objectContaining({ line: expect.objectContaining({ size: 'M', quantity: 3 }) }),
    })
    expect(cookieOf(headers, '__Host-Cart-it')).not.toBeNull()
    const refused = await add('it-it', addForm('STR9-XL-RED'), null, { Accept: 'application/json' })
    expect(refused.status).toBe(422)
    expect(JSON.parse(refused.text)).toEqual({ ok: false, count: null, message: italian.cart.unavailable, added: null })
  })

  it("starts a new cart when the cookie's cart is gone", async () => {
    const { status, headers } = await add('it-it', addForm('STR9-M-RED'), 'A'.repeat(32))
    expect(status).toBe(303)
    expect(cartCodeOf(headers)).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(cartCodeOf(headers)).not.toBe('A'.repeat(32))
  })

  it('refuses a cross-site post with 403, and a malformed form with 400, never 5xx for fuzzed bodies', async () => {
    const crossSite = await visit(
      '/it-it/cart/items',
      formPost(addForm('STR9-M-RED'), { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
    )
    expect(crossSite.status).toBe(403)
    expect(cookieOf(crossSite.headers, '__Host-Cart-it')).toBeNull()
    expect((await add('it-it', { sku: 'STR9-M-RED', quantity: '0', key: formKey() })).status).toBe(400)
    expect((await add('it-it', { sku: 'STR9-M-RED', quantity: '1', key: 'short' })).status).toBe(400)
    const code = await cartWith('it-it', ['STR9-M-RED', 1])
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('sku', 'quantity', 'key', 'product', 'x'), fc.string({ maxLength: 80 })),
        fc.string({ maxLength: 30 }),
        async (fields, sku) => {
          for (const path of [
            '/it-it/cart/items',
            `/it-it/cart/items/${encodeURIComponent(sku) || 'x'}`,
            `/it-it/cart/items/${encodeURIComponent(sku) || 'x'}/remove`,
          ]) {
            const { status } = await visit(path, formPost(fields, { Cookie: cartCookie(code) }))
            expect(status, path).toBeLessThan(500)
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('two browsers given the same kept product page', () => {
  /** One office behind one address, every browser the same make and version. */
  const office = {
    'CF-Connecting-IP': '203.0.113.80',
    'User-Agent':
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  }
  const keyOf = (html: string) => /<input type="hidden" name="key" value="([A-Za-z0-9_-]+)"/.exec(html)?.[1] ?? ''

  /** The add form's key of the product page, as the page cache gives it to every visitor. */
  async function keptKey(): Promise<string> {
    const first = await visit('/it-it/products/aurora-strada-9', { headers: office })
    const second = await visit('/it-it/products/aurora-strada-9', { headers: office })
    expect(keyOf(first.text)).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(keyOf(second.text)).toBe(keyOf(first.text))
    return keyOf(first.text)
  }

  it('never joins them, from one address and one User-Agent: each gets a cart of its own with only its own line', async () => {
    const key = await keptKey()
    const first = await add('it-it', addForm('STR9-M-RED', 1, key), null, office)
    const second = await add('it-it', addForm('STR9-L-RED', 2, key), null, office)
    for (const answer of [first, second]) expect(answer.headers.get('Location')).toBe('/it-it/products/aurora-strada-9')
    const [mine, theirs] = [cartCodeOf(first.headers) as string, cartCodeOf(second.headers) as string]
    expect(mine).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(theirs).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(theirs).not.toBe(mine)
    const [myCart, theirCart] = [(await page('/it-it/cart', mine)).text, (await page('/it-it/cart', theirs)).text]
    expect(myCart).toContain('/it-it/cart/items/STR9-M-RED')
    expect(myCart).not.toContain('STR9-L-RED')
    expect(myCart).toMatch(/<span class="cart-count"[^>]*>1<\/span>/)
    expect(theirCart).toContain('/it-it/cart/items/STR9-L-RED')
    expect(theirCart).not.toContain('STR9-M-RED')
    expect(theirCart).toMatch(/<span class="cart-count"[^>]*>2<\/span>/)
  })

  it('adds every size one browser picks from that page, each once', async () => {
    const key = await keptKey()
    const code = cartCodeOf((await add('it-it', addForm('STR9-M-RED', 1, key), null, office)).headers) as string
    await add('it-it', addForm('STR9-L-RED', 1, key), code, office)
    await add('it-it', addForm('STR9-L-RED', 1, key), code, office)
    const cart = (await page('/it-it/cart', code)).text
    expect(cart).toContain('/it-it/cart/items/STR9-M-RED')
    expect(cart).toContain('/it-it/cart/items/STR9-L-RED')
    expect(cart).toMatch(/<span class="cart-count"[^>]*>2<\/span>/)
  })
})

describe("the header's cart count", () => {
  it('shows the number of items to a visitor with a cart, on a page only their browser keeps', async () => {
    const code = await cartWith('it-it', ['STR9-M-RED', 2], ['LUCE-OS-BLK', 1])
    const { text, headers } = await page('/it-it', code)
    expect(text).toMatch(/<span class="cart-count" data-cart-count="" aria-hidden="true">3<\/span>/)
    expect(textOf(text)).toContain('Articoli nel carrello: 3')
    // The count read from the API is given to the browser (src/cart/cart-count.ts): setting a cookie, the page is not
    // kept; with the copy, their browser may keep the next.
    const copy = headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-CartCount-it=3.'))
      ?.split(';')[0] as string
    expect(copy).toBeTruthy()
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    const again = await page('/it-it', code, 'it', copy)
    expect(again.text).toMatch(/data-cart-count="" aria-hidden="true">3</)
    expect(again.headers.get('Cache-Control')).toBe('private, no-cache')
  })

  it("leaves another market's pages shared for a visitor with a cart in this one", async () => {
    const code = await cartWith('it-it', ['STR9-M-RED', 1])
    const { text, headers } = await page('/ch-de', code, 'it')
    expect(headers.get('Cache-Control')).toBe('no-cache')
    expect(text).toMatch(/data-cart-count="" aria-hidden="true"><\/span>/)
  })
})

describe('the cart page', () => {
  it('shows each line with its image, variant, unit price, quantity and total, the summary with VAT and delivery, and checkout; private and no-store', async () => {
    const code = await cartWith('it-it', ['STR9-M-RED', 1], ['POMP-OS-GRY', 2])
    const { status, text, words, headers } = await page('/it-it/cart', code)
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    expect(headers.get('Set-Cookie')).toBeNull()
    expect(text).toContain('<meta name="robots" content="noindex"')
    expect(text).toMatch(/<img src="\/images\/[^"]+"/)
    expect(words).toContain('Aurora Strada 9')
    expect(words).toContain('\u2068M\u2069 · Rosso')
    expect(words).toContain('4290,00\u00a0€ cad.')
    expect(words).toContain('59,80\u00a0€')
    expect(words).toContain('4349,80\u00a0€')
    expect(words).toContain(italian.cart.delivery_free)
    expect(words).toContain(
      `Include ${formatMoney(Math.round((434980 * 2200) / 12200), 'EUR', { tag: 'it-IT', dir: 'ltr', site: { currency: 'EUR', default_currency_token: '€', default_currency_place: 'right' } })} di IVA (22%)`,
    )
    expect(words).toContain('Consegna in 2–4 giorni lavorativi')
    expect(text).toContain(`href="/it-it/checkout/${code}"`)
    expect(text).toContain('action="/it-it/cart/items/STR9-M-RED"')
    expect(text).toContain('action="/it-it/cart/items/STR9-M-RED/remove"')
  })

  it('shows the delivery price below the free-delivery threshold', async () => {
    const code = await cartWith('it-it', ['POMP-OS-GRY', 1])
    const { words } = await page('/it-it/cart', code)
    expect(words).toContain('9,90\u00a0€')
    expect(words).toContain('Consegna gratuita da 150,00\u00a0€')
    expect(words).toContain('39,80\u00a0€')
  })

  it("writes each market's currency its way: USD on the left with tax at checkout, CHF, AED and ILS", async () => {
    const us = await page('/us-en/cart', await cartWith('us-en', ['STR9-M-RED', 1]), 'us')
    expect(us.words).toContain('$4,699.99')
    expect(us.words).toContain(english.cart.calculated_at_checkout)
    const ch = await page('/ch-fr/cart', await cartWith('ch-fr', ['STR9-M-RED', 1]), 'ch')
    expect(ch.words).toContain(
      formatMoney(439000, 'CHF', {
        tag: 'fr-CH',
        dir: 'ltr',
        site: { currency: 'CHF', default_currency_token: 'CHF', default_currency_place: 'left' },
      }),
    )
    expect(ch.words).toContain('CHF\u00a0')
    expect(ch.words).toContain('\u2068M\u2069 · Rouge')
    const ae = await page('/ae-ar/cart', await cartWith('ae-ar', ['STR9-M-RED', 1]), 'ae')
    expect(ae.words).toContain(
      formatMoney(1799900, 'AED', {
        tag: 'ar-AE',
        dir: 'rtl',
        site: { currency: 'AED', default_currency_token: 'AED', default_currency_place: 'right' },
      }),
    )
    expect(ae.words).toContain(arabic.cart.summary)
    const il = await page('/il-he/cart', await cartWith('il-he', ['STR9-M-RED', 1]), 'il')
    expect(il.words).toContain(
      formatMoney(1839000, 'ILS', {
        tag: 'he-IL',
        dir: 'rtl',
        site: { currency: 'ILS', default_currency_token: '₪', default_currency_place: 'left' },
      }),
    )
    expect(il.words).toContain(hebrew.cart.checkout)
  })

  it('changes a quantity and removes a line with plain posts, back to the cart with a notice', async () => {
    const code = await cartWith('it-it', ['STR9-M-RED', 1], ['LUCE-OS-BLK', 1])
    const changed = await visit(
      '/it-it/cart/items/STR9-M-RED',
      formPost({ quantity: '3' }, { Cookie: cartCookie(code) }),
    )
    expect(changed.status).toBe(303)
    expect(changed.headers.get('Location')).toBe('/it-it/cart')
    expect((await page('/it-it/cart', code)).text).toMatch(/data-cart-count="" aria-hidden="true">4</)
    const tooMany = await visit(
      '/it-it/cart/items/STR9-M-RED',
      formPost({ quantity: '10' }, { Cookie: cartCookie(code) }),
    )
    expect(tooMany.headers.get('Location')).toBe('/it-it/cart')
    const removed = await visit('/it-it/cart/items/LUCE-OS-BLK/remove', formPost({}, { Cookie: cartCookie(code) }))
    expect(removed.headers.get('Location')).toBe('/it-it/cart')
    const after = await page('/it-it/cart', code)
    expect(after.text).not.toContain('LUCE-OS-BLK')
    expect(after.text).toMatch(/data-cart-count="" aria-hidden="true">10</)
  })

  it('shows the empty state to a visitor without a cart, and never reads a code of another market', async () => {
    const empty = await page('/it-it/cart')
    expect(empty.words).toContain(italian.cart.empty)
    const italianCode = await cartWith('it-it', ['STR9-M-RED', 1])
    const elsewhere = await page('/ch-de/cart', italianCode, 'ch')
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.text).not.toContain('STR9-M-RED')
    const removal = await visit(
      '/ch-de/cart/items/STR9-M-RED/remove',
      formPost({}, { Cookie: cartCookie(italianCode, 'ch') }),
    )
    expect(removal.status).toBe(404)
    expect((await page('/it-it/cart', italianCode)).text).toContain('STR9-M-RED')
  })
})

describe('merging at login', () => {
  it("folds the anonymous cart into the customer's, clears the cookie, and the customer sees it in their cart", async () => {
    const code = await cartWith('it-it', ['BORS-OS-BLU', 2])
    const login = await visit('/login', formPost(DEMO, { 'CF-Connecting-IP': nextClient(), Cookie: cartCookie(code) }))
    expect(login.status).toBe(303)
    expect(cookieOf(login.headers, '__Host-Cart-it')).toMatch(
      /^__Host-Cart-it=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    )
    const session = sessionIdOf(login.headers) as string
    const cart = await visitAs(session, '/it-it/cart')
    expect(cart.headers.get('Cache-Control')).toBe('private, no-store')
    expect(cart.text).toContain('BORS-OS-BLU')
    expect(cart.text).toContain(`href="/it-it/checkout/${code}"`)
    // Logged in, adding goes to the customer's own cart and sets no cookie.
    const added = await visitAs(session, '/it-it/cart/items', formPost(addForm('BORS-OS-BLK')))
    expect(added.status).toBe(303)
    expect(cookieOf(added.headers, '__Host-Cart-it')).toBeNull()
    expect((await visitAs(session, '/it-it/cart')).text).toContain('BORS-OS-BLK')
  })

  it('logs in even when the held cart is gone, and forgets its cookie', async () => {
    const session = await logIn(DEMO, {})
    expect(session).toBeTruthy()
    const login = await visit(
      '/login',
      formPost(DEMO, { 'CF-Connecting-IP': nextClient(), Cookie: cartCookie('B'.repeat(32)) }),
    )
    expect(login.status).toBe(303)
    expect(cookieOf(login.headers, '__Host-Cart-it')).toMatch(/^__Host-Cart-it=; Max-Age=0/)
  })
})
