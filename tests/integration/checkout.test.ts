import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import arabic from '../../demo/messages/ar.json'
import german from '../../demo/messages/de.json'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import english from '../../src/i18n/en.json'
import { issueFormToken, MAX_FORM_AGE_SECONDS } from '../../src/forms/form-token'
import { formatMoney, type MoneyMarket } from '../../src/i18n/formats'
import { DEMO, formPost, logIn, SECOND, visitAs } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

const IT = 'it-it'

/** The markets' money as the pages write it (the cart page's formatting). */
const MONEY: Record<string, MoneyMarket> = {
  'it-it': {
    tag: 'it-IT',
    dir: 'ltr',
    site: { currency: 'EUR', default_currency_token: '€', default_currency_place: 'right' },
  },
  'us-en': {
    tag: 'en-US',
    dir: 'ltr',
    site: { currency: 'USD', default_currency_token: '$', default_currency_place: 'left' },
  },
  'ch-de': {
    tag: 'de-CH',
    dir: 'ltr',
    site: { currency: 'CHF', default_currency_token: 'CHF', default_currency_place: 'left' },
  },
  'ae-ar': {
    tag: 'ar-AE',
    dir: 'rtl',
    site: { currency: 'AED', default_currency_token: 'AED', default_currency_place: 'right' },
  },
  'il-he': {
    tag: 'he-IL',
    dir: 'rtl',
    site: { currency: 'ILS', default_currency_token: '₪', default_currency_place: 'left' },
  },
}
const money = (market: string, minor: number) => formatMoney(minor, MONEY[market]!.site.currency, MONEY[market]!)

let giulia = ''
let lukas = ''
beforeAll(async () => {
  giulia = await logIn(DEMO)
  lukas = await logIn(SECOND)
})

const userIdOf = async (email: string) =>
  (await env.DB.prepare('SELECT id FROM users WHERE email = ?').bind(email).first<{ id: number }>())!.id

let keys = 0
const formKey = () => `checkout-page-${Date.now()}-${keys++}-abcdefghijk`

/**
 * The customer's cart of a market emptied (lines, choices and orders set aside), then filled through the site's own
 * "add to cart" form; answers its code.
 */
async function freshCart(
  session: string,
  email: string,
  market: string,
  lines: Array<[string, number]>,
): Promise<string> {
  const site = market.split('-')[0]!
  // Set aside rather than deleted: a deleted cart's id would be given to the next one (see the summary's note).
  await env.DB.prepare('UPDATE carts SET user_id = NULL WHERE user_id = ? AND site = ?')
    .bind(await userIdOf(email), site)
    .run()
  for (const [sku, quantity] of lines) {
    const { status } = await visitAs(
      session,
      `/${market}/cart/items`,
      formPost({ sku, quantity: String(quantity), key: formKey(), product: 'aurora-strada-9' }),
    )
    expect(status, sku).toBe(303)
  }
  const cart = await env.DB.prepare('SELECT code FROM carts WHERE user_id = ? AND site = ?')
    .bind(await userIdOf(email), site)
    .first<{ code: string }>()
  return cart!.code
}

/** An element's opening tag by its id (`<input id="delivery-home" … checked="">`), whatever the attributes' order. */
const tagOf = (html: string, id: string) =>
  new RegExp(`<(?:input|select|p)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0] ?? ''
const isChecked = (html: string, id: string) => tagOf(html, id).includes('checked=""')

/** A hidden field's value in a page (`form_token`, `review_key`). */
const hidden = (html: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? ''

/** The form as a customer sends it: home delivery to the saved default address, billing the same, by card. */
const HOME_SAVED = { delivery: 'home', ship_choice: '1', billing_same: 'on', payment_method: 'card' }

/** A new address of the market's country, as the form's `{prefix}_…` fields. */
const newAddress = (prefix: 'ship' | 'bill', country: string, postal = '24121', city = 'Bergamo') => ({
  [`${prefix}_choice`]: 'new',
  [`${prefix}_first_name`]: 'Giulia',
  [`${prefix}_last_name`]: 'Rossi',
  [`${prefix}_line1`]: 'Via Tasso 8',
  [`${prefix}_postal_code`]: postal,
  [`${prefix}_city`]: city,
  [`${prefix}_country_code`]: country,
  [`${prefix}_phone`]: '+39 035 555 0199',
})

/** Opens the form and sends it with `fields` (the page's own token added). */
async function sendChoices(session: string, market: string, code: string, fields: Record<string, string>) {
  const page = await visitAs(session, `/${market}/checkout/${code}`)
  expect(page.status).toBe(200)
  return visitAs(
    session,
    `/${market}/checkout/${code}`,
    formPost({ ...fields, form_token: hidden(page.text, 'form_token') }),
  )
}

/** Makes the choices and opens the review: its page, and what placing posts. */
async function review(session: string, market: string, code: string, fields: Record<string, string> = HOME_SAVED) {
  const sent = await sendChoices(session, market, code, fields)
  expect(sent.status, sent.text.slice(0, 300)).toBe(303)
  expect(sent.headers.get('Location')).toBe(`/${market}/checkout/${code}/review`)
  const page = await visitAs(session, `/${market}/checkout/${code}/review`)
  expect(page.status).toBe(200)
  return {
    page,
    words: textOf(page.text),
    place: { review_key: hidden(page.text, 'review_key'), form_token: hidden(page.text, 'form_token') },
  }
}

const place = (session: string, market: string, code: string, fields: Record<string, string>) =>
  visitAs(session, `/${market}/checkout/${code}/review`, formPost(fields))

/** Presses a button of the test provider's page; answers where it sends the buyer. */
async function pay(location: string, action: 'succeed' | 'fail' | 'pending') {
  const path = new URL(location).pathname
  const { status, headers } = await visit(path, formPost({ action }))
  expect(status).toBe(303)
  return headers.get('Location')!
}

describe('checkout: who may open it', () => {
  it('sends an anonymous visitor to log in, coming back to the checkout', async () => {
    const code = 'A'.repeat(32)
    const { status, headers } = await visit(`/${IT}/checkout/${code}`)
    expect(status).toBe(302)
    expect(headers.get('Location')).toBe(`/login?redirect=${encodeURIComponent(`/${IT}/checkout/${code}`)}`)
  })

  it('answers 404 in a market that does not sell online, before asking anyone to log in', async () => {
    for (const path of [
      `/mx-es/checkout/${'A'.repeat(32)}`,
      `/mx-es/checkout/${'A'.repeat(32)}/review`,
      `/int-en/checkout/${'A'.repeat(32)}/result`,
    ]) {
      expect((await visit(path)).status, path).toBe(404)
      expect((await visitAs(giulia, path)).status, path).toBe(404)
    }
  })

  it("answers 404 for a malformed code, another customer's cart and an anonymous cart's code", async () => {
    expect((await visitAs(giulia, `/${IT}/checkout/not-a-code`)).status).toBe(404)
    expect((await visitAs(giulia, `/${IT}/checkout/${'A'.repeat(31)}!`)).status).toBe(404)
    const lukasCode = await freshCart(lukas, SECOND.email, IT, [['POMP-OS-GRY', 1]])
    for (const path of ['', '/review', '/result']) {
      const { status, text } = await visitAs(giulia, `/${IT}/checkout/${lukasCode}${path}`)
      expect(status, path).toBe(404)
      expect(text).not.toContain('POMP-OS-GRY')
    }
    const anonymous = await visit(
      `/${IT}/cart/items`,
      formPost({ sku: 'POMP-OS-GRY', quantity: '1', key: formKey(), product: 'aurora-strada-9' }),
    )
    const anonymousCode = /__Host-Cart-it=([A-Za-z0-9_-]{32})/.exec(anonymous.headers.getSetCookie().join('\n'))![1]!
    expect((await visitAs(giulia, `/${IT}/checkout/${anonymousCode}`)).status).toBe(404)
  })

  it('lets a customer whose address is not confirmed yet buy (decision 057); a backend that refuses them (?confirm=email) has the page say why, with "send the link again" coming back here, and no form', async () => {
    const code = await freshCart(lukas, SECOND.email, IT, [['POMP-OS-GRY', 1]])
    await env.DB.prepare('UPDATE users SET email_confirmed_at = NULL WHERE email = ?').bind(SECOND.email).run()
    try {
      const form = await visitAs(lukas, `/${IT}/checkout/${code}`)
      expect(form.status).toBe(200)
      expect(form.text).toContain('name="delivery"')
      expect(textOf(form.text)).not.toContain(italian.checkout.unconfirmed_title)
      const { status, text } = await visitAs(lukas, `/${IT}/checkout/${code}?confirm=email`)
      expect(status).toBe(200)
      expect(textOf(text)).toContain(italian.checkout.unconfirmed_title)
      expect(text).toContain(`action="/${IT}/my-account/confirm-email"`)
      expect(text).toContain(`<input type="hidden" name="redirect" value="/${IT}/checkout/${code}"/>`)
      expect(text).not.toContain('name="delivery"')
      const resent = await visitAs(
        lukas,
        `/${IT}/my-account/confirm-email`,
        formPost({ redirect: `/${IT}/checkout/${code}` }),
      )
      expect(resent.status).toBe(303)
      expect(resent.headers.get('Location')).toBe(`/${IT}/checkout/${code}`)
      const mail = await env.DB.prepare(
        `SELECT body FROM outbox WHERE kind = 'email_confirmation' ORDER BY id DESC LIMIT 1`,
      ).first<{ body: string }>()
      expect(mail!.body).toContain(`?redirect=${encodeURIComponent(`/${IT}/checkout/${code}`)}`)
    } finally {
      await env.DB.prepare(`UPDATE users SET email_confirmed_at = '2026-01-01T00:00:00Z' WHERE email = ?`)
        .bind(SECOND.email)
        .run()
    }
  })

  it('sends a customer with an empty cart back to the cart', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['POMP-OS-GRY', 1]])
    await visitAs(giulia, `/${IT}/cart/items/POMP-OS-GRY/remove`, formPost({}))
    const { status, headers } = await visitAs(giulia, `/${IT}/checkout/${code}`)
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(`/${IT}/cart`)
  })
})

describe('checkout: the form', () => {
  it('shows three numbered sections, the default address chosen, the dealers that sell nearest first, card chosen; private, never indexed, no script', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { status, text, headers } = await visitAs(giulia, `/${IT}/checkout/${code}`)
    expect(status).toBe(200)
    expect(headers.get('Cache-Control')).toBe('private, no-store')
    expect(headers.get('X-Robots-Tag')).toBe('noindex, nofollow')
    expect(text).toContain('<meta name="robots" content="noindex"')
    expect(text).not.toContain('<script type="module"')
    expect(text).not.toContain('googletagmanager')
    const words = textOf(text)
    for (const heading of [
      italian.checkout.delivery_title,
      italian.checkout.addresses_title,
      italian.checkout.payment_title,
    ])
      expect(words).toContain(heading)
    expect(text).toContain(`action="/${IT}/checkout/${code}"`)
    expect(isChecked(text, 'delivery-home')).toBe(true)
    expect(isChecked(text, 'field-ship_choice-1')).toBe(true)
    // The office in Lugano is not in Italy: it may be billed, not delivered to.
    expect(text).not.toContain('id="field-ship_choice-2"')
    expect(text).toContain('id="field-bill_choice-2"')
    expect(isChecked(text, 'payment-card')).toBe(true)
    // Measured from the default address in Bergamo: Bergamo, Milano, Bologna, Roma; Firenze does not sell.
    const order = ['cicli-bergamasca', 'officina-navigli', 'bici-felsinea', 'ruota-capitolina'].map((slug) =>
      text.indexOf(`value="${slug}"`),
    )
    expect(order.every((at) => at > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(text).not.toContain('value="ciclofficina-del-giglio"')
    expect(words).toContain(italian.dealer.nearest_to.replace('{{place}}', 'Bergamo'))
    expect(words).toMatch(/\d+ km/)
    expect(words).toContain('4290,00\u00a0€')
  })

  it('comes back with 422, every value kept and each message beside its field', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { status, text } = await sendChoices(giulia, IT, code, {
      delivery: 'home',
      ...newAddress('ship', 'IT', '!!', 'Bergamo'),
      ship_first_name: 'Giuliana',
      ship_line1: '',
      ship_save: 'on',
      billing_same: 'on',
    })
    expect(status).toBe(422)
    expect(isChecked(text, 'field-ship_choice-new')).toBe(true)
    expect(tagOf(text, 'field-ship_first_name')).toContain('value="Giuliana"')
    const postal = tagOf(text, 'field-ship_postal_code')
    expect(postal).toContain('aria-invalid="true"')
    expect(postal).toContain('aria-describedby="field-ship_postal_code-hint field-ship_postal_code-error"')
    expect(postal).toContain('value="!!"')
    expect(text).toContain(
      `<p class="field-error" id="field-ship_postal_code-error">${italian.validation.postal_code}</p>`,
    )
    expect(text).toContain(`<p class="field-error" id="field-ship_line1-error">${italian.validation.required}</p>`)
    expect(text).toContain(
      `<p class="field-error" id="field-payment_method-error">${italian.checkout.error.payment_method}</p>`,
    )
    expect(isChecked(text, 'field-ship_save')).toBe(true)
    expect(text).toContain(`<p class="form-error" role="alert">${italian.validation.summary}</p>`)
  })

  it('asks for a dealer when pick-up has none, and lists the dealers nearest to the billing address first', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { status, text } = await sendChoices(giulia, IT, code, {
      delivery: 'pickup',
      ...newAddress('bill', 'IT', '00184', 'Roma'),
      payment_method: 'paypal',
    })
    expect(status).toBe(422)
    expect(text).toContain(`<p class="field-error" id="field-dealer-error">${italian.checkout.error.dealer}</p>`)
    expect(text.indexOf('value="ruota-capitolina"')).toBeLessThan(text.indexOf('value="bici-felsinea"'))
    expect(text.indexOf('value="bici-felsinea"')).toBeLessThan(text.indexOf('value="cicli-bergamasca"'))
    expect(textOf(text)).toContain(italian.dealer.nearest_to.replace('{{place}}', 'Roma'))
    expect(isChecked(text, 'payment-paypal')).toBe(true)
  })

  it("refuses a form without this customer's token for this cart with 400", async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    expect((await visitAs(giulia, `/${IT}/checkout/${code}`, formPost(HOME_SAVED))).status).toBe(400)
    const otherCart = await freshCart(lukas, SECOND.email, IT, [['POMP-OS-GRY', 1]])
    const lukasToken = hidden((await visitAs(lukas, `/${IT}/checkout/${otherCart}`)).text, 'form_token')
    expect(
      (await visitAs(giulia, `/${IT}/checkout/${code}`, formPost({ ...HOME_SAVED, form_token: lukasToken }))).status,
    ).toBe(400)
  })
})

describe('checkout: the review', () => {
  it('shows the lines, delivery, billing, payment method and every amount, with change links and "place order and pay"', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [
      ['STR9-M-RED', 1],
      ['POMP-OS-GRY', 2],
    ])
    const { page, words, place: fields } = await review(giulia, IT, code)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    expect(page.text).toContain('<meta name="robots" content="noindex"')
    expect(words).toContain('Aurora Strada 9')
    expect(words).toContain('\u2068M\u2069 · Rosso')
    expect(words).toContain('4290,00\u00a0€ cad.')
    expect(words).toContain('4349,80\u00a0€')
    expect(words).toContain(italian.checkout.home)
    expect(words).toContain("Via Sant'Alessandro 42")
    expect(page.text).toContain('<span class="address-line"><bdi dir="ltr">+39 035 555 0101</bdi></span>')
    expect(words).toContain(italian.checkout.billing_same)
    expect(words).toContain(italian.payment_method.card)
    expect(words).toContain(`Include ${money(IT, Math.round((434980 * 2200) / 12200))} di IVA (22%)`)
    expect(page.text).toContain(`href="/${IT}/checkout/${code}#checkout-delivery-title"`)
    expect(page.text).toContain(`action="/${IT}/checkout/${code}/review"`)
    expect(fields.review_key).toMatch(/^[A-Za-z0-9_-]{16,64}$/)
    expect(words).toContain(italian.checkout.place)
  })

  it('shows pick-up at the chosen dealer, free, with the billing address only', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['POMP-OS-GRY', 1]])
    const { words } = await review(giulia, IT, code, {
      delivery: 'pickup',
      dealer: 'officina-navigli',
      bill_choice: '2',
      payment_method: 'paypal',
    })
    expect(words).toContain(italian.order.delivery_pickup.replace('{{dealer}}', 'Officina Ciclistica Navigli'))
    expect(words).toContain(italian.checkout.pickup_amount)
    expect(words).toContain('Via Pretorio 9')
    expect(words).toContain('29,90\u00a0€')
    expect(words).toContain(italian.payment_method.paypal)
  })

  it("writes each market's amounts its way: EUR on the right, USD on the left, CHF, AED and ILS", async () => {
    const markets: Array<[string, string, string]> = [
      ['us-en', 'US', english.checkout.review_title],
      ['ch-de', 'CH', german.checkout.review_title],
      ['ae-ar', 'AE', arabic.checkout.review_title],
      ['il-he', 'IL', hebrew.checkout.review_title],
    ]
    // Each country's own address (contract/address-formats.ts): the UAE has no postcode but an emirate.
    const addresses: Record<string, [string, string, Record<string, string>]> = {
      US: ['80302', 'Boulder', { ship_region: 'CO' }],
      CH: ['8001', 'Zürich', {}],
      AE: ['', 'Dubai', { ship_region: 'Dubai' }],
      IL: ['6100000', 'Tel Aviv', {}],
    }
    for (const [market, country, title] of markets) {
      const code = await freshCart(giulia, DEMO.email, market, [['STR9-M-RED', 1]])
      const [postal, city, state] = addresses[country]!
      const { words, page } = await review(giulia, market, code, {
        delivery: 'home',
        ...newAddress('ship', country, postal, city),
        ...state,
        billing_same: 'on',
        payment_method: 'card',
      })
      const unit = (await env.DB.prepare('SELECT amount FROM product_variant_prices WHERE sku = ? AND site = ?')
        .bind('STR9-M-RED', country.toLowerCase())
        .first<{ amount: number }>())!.amount
      expect(words, market).toContain(title)
      expect(words, market).toContain(money(market, unit))
      if (country === 'IL') expect(page.text, market).toContain('<bdi dir="ltr">6100000</bdi>')
    }
    const us = await review(giulia, 'us-en', await freshCart(giulia, DEMO.email, 'us-en', [['STR9-M-RED', 1]]), {
      delivery: 'home',
      ...newAddress('ship', 'US', '80302', 'Boulder'),
      ship_region: 'CO',
      billing_same: 'on',
      payment_method: 'card',
    })
    // Colorado's sales tax (2.9 %) added on top of the price, delivery free from $300.
    expect(us.words).toMatch(/\$4,699\.99/)
    expect(us.words).toMatch(/\$136\.30/)
    expect(us.words).toMatch(/\$4,836\.29/)
  })

  it('asks a US delivery address for its state code, which decides the sales tax', async () => {
    const code = await freshCart(giulia, DEMO.email, 'us-en', [['STR9-M-RED', 1]])
    const { status, text } = await sendChoices(giulia, 'us-en', code, {
      delivery: 'home',
      ...newAddress('ship', 'US', '80302', 'Boulder'),
      ship_region: 'Colorado',
      billing_same: 'on',
      payment_method: 'card',
    })
    expect(status).toBe(422)
    expect(textOf(text)).toContain(english.validation.region)
    expect(text).toContain('value="Colorado"')
  })

  it('sends a customer without every choice back to the form', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { status, headers } = await visitAs(giulia, `/${IT}/checkout/${code}/review`)
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(`/${IT}/checkout/${code}`)
  })

  it('sends the customer to the cart, saying so, when a line can no longer be bought as it stands (review or placement)', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['LUCE-OS-BLK', 2]])
    const { place: fields } = await review(giulia, IT, code)
    const { stock } = (await env.DB.prepare(`SELECT stock FROM product_variants WHERE sku = 'LUCE-OS-BLK'`).first<{
      stock: number
    }>())!
    await env.DB.prepare(`UPDATE product_variants SET stock = 1 WHERE sku = 'LUCE-OS-BLK'`).run()
    try {
      // Placing the review shown before: refused by the API, nothing placed.
      const refused = await place(giulia, IT, code, fields)
      expect(refused.status).toBe(303)
      expect(refused.headers.get('Location')).toBe(`/${IT}/cart`)
      const { status, headers } = await visitAs(giulia, `/${IT}/checkout/${code}/review`)
      expect(status).toBe(303)
      expect(headers.get('Location')).toBe(`/${IT}/cart`)
      expect(headers.getSetCookie().join()).toMatch(/__Host-Notice=cart_changed/)
      const cart = await visitAs(giulia, headers.get('Location')!, {
        headers: { Cookie: '__Host-Notice=cart_changed' },
      })
      expect(cart.text).toContain('<p class="toast" role="status" data-notice="cart_changed">')
      expect(textOf(cart.text)).toContain(italian.cart.changed)
    } finally {
      await env.DB.prepare(`UPDATE product_variants SET stock = ? WHERE sku = 'LUCE-OS-BLK'`).bind(stock).run()
    }
  })

  it('shows the review again, saying that prices changed and with the new amounts, when a price changed before placing', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['POMP-OS-GRY', 1]])
    const { place: fields } = await review(giulia, IT, code)
    await env.DB.prepare(
      `UPDATE product_variant_prices SET amount = 3490 WHERE sku = 'POMP-OS-GRY' AND site = 'it'`,
    ).run()
    try {
      const refused = await place(giulia, IT, code, fields)
      expect(refused.status).toBe(303)
      expect(refused.headers.get('Location')).toBe(`/${IT}/checkout/${code}/review?changed=prices`)
      const again = await visitAs(giulia, refused.headers.get('Location')!)
      const words = textOf(again.text)
      expect(again.text).toContain('<div class="checkout-alert" role="alert">')
      expect(words).toContain(italian.checkout.changed_prices_title)
      expect(words).toContain('34,90\u00a0€')
      expect(
        await env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)')
          .bind(code)
          .first('n'),
      ).toBe(0)
    } finally {
      await env.DB.prepare(
        `UPDATE product_variant_prices SET amount = 2990 WHERE sku = 'POMP-OS-GRY' AND site = 'it'`,
      ).run()
    }
  })

  it("refuses a placement without the review's token or key with 400, and a cross-site one with 403", async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    expect((await place(giulia, IT, code, { review_key: fields.review_key })).status).toBe(400)
    expect((await place(giulia, IT, code, { form_token: fields.form_token, review_key: 'short' })).status).toBe(400)
    const crossSite = await visitAs(
      giulia,
      `/${IT}/checkout/${code}/review`,
      formPost(fields, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
    )
    expect(crossSite.status).toBe(403)
    for (const path of ['', '/result']) {
      expect(
        (
          await visitAs(
            giulia,
            `/${IT}/checkout/${code}${path}`,
            formPost({}, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
          )
        ).status,
      ).toBe(403)
    }
  })
})

describe('checkout: placing, paying and the result', () => {
  it('places the order and sends the buyer to the provider; the same placement twice is one order and one payment', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    const first = await place(giulia, IT, code, fields)
    expect(first.status).toBe(303)
    const location = first.headers.get('Location')!
    expect(location).toMatch(new RegExp(`^${ORIGIN}/_test-payments/tp_[0-9a-f]{24}$`))
    const second = await place(giulia, IT, code, fields)
    expect(second.headers.get('Location')).toBe(location)
    const orders = await env.DB.prepare(
      'SELECT code, total, payment_id FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)',
    )
      .bind(code)
      .all<{ code: string; total: number; payment_id: string }>()
    expect(orders.results).toHaveLength(1)
    expect(orders.results[0]!.payment_id).toBe(location.split('/').pop())
    const payment = await env.DB.prepare(
      'SELECT amount, currency, market, return_url, description, method FROM payments WHERE id = ?',
    )
      .bind(orders.results[0]!.payment_id)
      .first()
    expect(payment).toEqual({
      amount: 429000,
      currency: 'EUR',
      market: IT,
      return_url: `${ORIGIN}/${IT}/checkout/${code}/result`,
      description: `Aurora Cycles order ${orders.results[0]!.code}`,
      method: 'card',
    })
  })

  it('shows a pending result that looks again by itself, without script, with "pay" going back to the same payment', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    const location = (await place(giulia, IT, code, fields)).headers.get('Location')!
    const result = await visitAs(giulia, `/${IT}/checkout/${code}/result`)
    expect(result.status).toBe(200)
    expect(result.headers.get('Refresh')).toBe('5')
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(result.text).toContain('<meta http-equiv="refresh" content="5"/>')
    expect(result.text).toContain('<meta name="robots" content="noindex"')
    expect(textOf(result.text)).toContain(italian.checkout.result_pending_title)
    const retry = await issueFormToken(env.SESSION_SECRET!, `checkout:${await userIdOf(DEMO.email)}:${code}:retry`)
    const again = await visitAs(giulia, `/${IT}/checkout/${code}/result`, formPost({ form_token: retry }))
    if (again.status !== 303) console.log('DBG', retry, textOf(again.text).slice(0, 2000))
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toBe(location)
  })

  it('places a bank-transfer order without any provider: the result says how to pay (account, amount, the order code as reference) and never looks again by itself', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const form = await visitAs(giulia, `/${IT}/checkout/${code}`)
    expect(form.text).toContain('id="payment-bank_transfer"')
    expect(textOf(form.text)).toContain(italian.checkout.payment_bank_transfer)
    const { place: fields, words } = await review(giulia, IT, code, { ...HOME_SAVED, payment_method: 'bank_transfer' })
    expect(words).toContain(italian.payment_method.bank_transfer)
    const placed = await place(giulia, IT, code, fields)
    expect(placed.status).toBe(303)
    expect(placed.headers.get('Location')).toBe(`/${IT}/checkout/${code}/result`)
    const order = await env.DB.prepare(
      'SELECT code, total, status, payment_state, payment_method, payment_id FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)',
    )
      .bind(code)
      .first<{
        code: string
        total: number
        status: string
        payment_state: string
        payment_method: string
        payment_id: string | null
      }>()
    expect(order).toMatchObject({
      status: 'pending_payment',
      payment_state: 'pending',
      payment_method: 'bank_transfer',
      payment_id: null,
    })
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE order_code = ?')
        .bind(order!.code)
        .first<number>('n'),
    ).toBe(0)
    const result = await visitAs(giulia, `/${IT}/checkout/${code}/result`)
    expect(result.status).toBe(200)
    expect(result.headers.get('Refresh')).toBeNull()
    expect(result.text).not.toContain('http-equiv="refresh"')
    const said = textOf(result.text)
    expect(said).toContain(italian.checkout.result_transfer_title)
    expect(said).toContain(italian.bank.title)
    expect(said).toContain('Aurora Cycles S.r.l.')
    expect(result.text).toContain('<bdi dir="ltr">IT60 X054 2811 1010 0000 0123 456</bdi>')
    expect(result.text).toContain(`<dd class="bank-code"><bdi dir="ltr">${order!.code}</bdi></dd>`)
    expect(result.text).toContain(`<dd class="bank-amount"><bdi>${money(IT, order!.total)}</bdi></dd>`)
    // The same details wait in the account, in Hebrew too, isolated.
    const account = await visitAs(giulia, `/il-he/my-account/orders/${order!.code}`)
    expect(textOf(account.text)).toContain(hebrew.bank.title)
    expect(account.text).toContain(`<dd class="bank-code"><bdi dir="ltr">${order!.code}</bdi></dd>`)
    // "Pay" posted again (a second tab): still no provider, back to the same result.
    const retry = await issueFormToken(env.SESSION_SECRET!, `checkout:${await userIdOf(DEMO.email)}:${code}:retry`)
    const again = await visitAs(giulia, `/${IT}/checkout/${code}/result`, formPost({ form_token: retry }))
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toBe(`/${IT}/checkout/${code}/result`)
  })

  it('stops looking again by itself ten minutes after placing, offering "look again" instead', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    await place(giulia, IT, code, fields)
    const placedAt = new Date(Date.now() - 11 * 60 * 1000).toISOString()
    await env.DB.prepare('UPDATE orders SET placed_at = ? WHERE cart_id = (SELECT id FROM carts WHERE code = ?)')
      .bind(placedAt, code)
      .run()
    const result = await visitAs(giulia, `/${IT}/checkout/${code}/result`)
    expect(result.status).toBe(200)
    expect(result.headers.get('Refresh')).toBeNull()
    expect(result.text).not.toContain('http-equiv="refresh"')
    expect(textOf(result.text)).toContain(italian.checkout.result_pending_stopped)
    expect(result.text).toContain(`<a href="/${IT}/checkout/${code}/result">${italian.checkout.result_look_again}</a>`)
  })

  it('shows a paid result with the order code, its summary and where the confirmation went, and the order in the account', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    const back = await pay((await place(giulia, IT, code, fields)).headers.get('Location')!, 'succeed')
    expect(back).toBe(`${ORIGIN}/${IT}/checkout/${code}/result`)
    // The browser's copy of the header's cart count (src/cart/cart-count.ts) is taken back: paying emptied the cart.
    const result = await visitAs(giulia, `/${IT}/checkout/${code}/result`, {
      headers: { Cookie: '__Host-CartCount-it=1.abc' },
    })
    expect(result.status).toBe(200)
    expect(result.headers.getSetCookie()).toEqual([expect.stringMatching(/^__Host-CartCount-it=; Max-Age=0/)])
    expect(result.headers.get('Refresh')).toBeNull()
    const words = textOf(result.text)
    const orderCode = /<bdi dir="ltr">(AUR-[0-9A-Z]{6})<\/bdi>/.exec(result.text)?.[1]
    expect(orderCode).toBeTruthy()
    expect(words).toContain(italian.checkout.result_paid_title)
    expect(words).toContain(italian.checkout.result_paid_mail)
    expect(result.text).toContain(`<bdi dir="ltr">${DEMO.email}</bdi>`)
    expect(words).toContain('4290,00\u00a0€')
    expect(result.text).toContain(`href="/${IT}/my-account/orders/${orderCode}"`)
    const account = await visitAs(giulia, `/${IT}/my-account/orders/${orderCode}`)
    expect(account.status).toBe(200)
    expect(textOf(account.text)).toContain(italian.order_status.paid)
  })

  it('shows a failed result with "try again", which starts a new payment with the cart intact', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    const firstPayment = (await place(giulia, IT, code, fields)).headers.get('Location')!
    await pay(firstPayment, 'fail')
    const result = await visitAs(giulia, `/${IT}/checkout/${code}/result`)
    const words = textOf(result.text)
    expect(words).toContain(italian.checkout.result_failed_title)
    expect(words).toContain(italian.checkout.try_again)
    expect(result.headers.get('Refresh')).toBeNull()
    const retry = await visitAs(
      giulia,
      `/${IT}/checkout/${code}/result`,
      formPost({ form_token: hidden(result.text, 'form_token') }),
    )
    expect(retry.status).toBe(303)
    const secondPayment = retry.headers.get('Location')!
    expect(secondPayment).toMatch(/\/_test-payments\/tp_[0-9a-f]{24}$/)
    expect(secondPayment).not.toBe(firstPayment)
    expect(textOf((await visitAs(giulia, `/${IT}/cart`)).text)).toContain('Aurora Strada 9')
    await pay(secondPayment, 'succeed')
    expect(textOf((await visitAs(giulia, `/${IT}/checkout/${code}/result`)).text)).toContain(
      italian.checkout.result_paid_title,
    )
  })

  it('sends a customer without an order to the checkout from the result page', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { status, headers } = await visitAs(giulia, `/${IT}/checkout/${code}/result`)
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(`/${IT}/checkout/${code}`)
  })

  it('answers 503 with the way back when the payment provider is unavailable, keeping the order', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    const { status, text } = await visitAs(giulia, `/${IT}/checkout/${code}/review`, formPost(fields), {
      PAYMENT_WEBHOOK_SECRET: undefined,
    } as unknown as Partial<Cloudflare.Env>)
    expect(status).toBe(503)
    expect(textOf(text)).toContain(italian.checkout.unavailable_title)
    expect(text).toContain(`href="/${IT}/checkout/${code}/result"`)
    const order = await env.DB.prepare(
      `SELECT status, payment_state FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)`,
    )
      .bind(code)
      .first()
    expect(order).toEqual({ status: 'pending_payment', payment_state: 'pending' })
    // No payment was started: the result says so and offers to pay, without looking again by itself.
    const result = await visitAs(giulia, `/${IT}/checkout/${code}/result`)
    expect(result.status).toBe(200)
    expect(result.headers.get('Refresh')).toBeNull()
    expect(textOf(result.text)).toContain(italian.checkout.result_unpaid_title)
    expect(textOf(result.text)).not.toContain(italian.checkout.result_pending_title)
    const paying = await visitAs(
      giulia,
      `/${IT}/checkout/${code}/result`,
      formPost({ form_token: hidden(result.text, 'form_token') }),
    )
    expect(paying.status).toBe(303)
    expect(paying.headers.get('Location')).toMatch(/\/_test-payments\/tp_[0-9a-f]{24}$/)
  })

  it("sends a customer who places a changed cart while its earlier order is being paid to that order's result", async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    expect((await place(giulia, IT, code, fields)).headers.get('Location')).toMatch(/\/_test-payments\//)
    // Another tab adds a pump and places the new review while the first payment is still open at the provider.
    expect(
      (
        await visitAs(
          giulia,
          `/${IT}/cart/items`,
          formPost({ sku: 'POMP-OS-GRY', quantity: '1', key: formKey(), product: 'aurora-pompa-mini' }),
        )
      ).status,
    ).toBe(303)
    const { place: changed } = await review(giulia, IT, code)
    const { status, headers } = await place(giulia, IT, code, changed)
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(`/${IT}/checkout/${code}/result`)
    const orders = await env.DB.prepare(
      'SELECT status FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)',
    )
      .bind(code)
      .all<{ status: string }>()
    expect(orders.results).toEqual([{ status: 'pending_payment' }])
  })

  it('shows a review left open for more than a day again instead of placing it', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    const scope = `checkout:${await userIdOf(DEMO.email)}:${code}:place`
    const stale = await issueFormToken(env.SESSION_SECRET!, scope, Date.now() - (MAX_FORM_AGE_SECONDS + 60) * 1000)
    const { status, headers } = await place(giulia, IT, code, { ...fields, form_token: stale })
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe(`/${IT}/checkout/${code}/review`)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)')
        .bind(code)
        .first('n'),
    ).toBe(0)
  })

  it('lists VAT included in an Italian order after its total, and no VAT line where none was charged', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { place: fields } = await review(giulia, IT, code)
    await pay((await place(giulia, IT, code, fields)).headers.get('Location')!, 'succeed')
    const words = textOf((await visitAs(giulia, `/${IT}/checkout/${code}/result`)).text).replace(/[ \n\t]+/g, ' ')
    expect(words).toContain(`${italian.order.tax} ${money(IT, 77361)}`)
    expect(words.indexOf(italian.order.tax)).toBeGreaterThan(words.indexOf(italian.cart.total))
    expect(words).not.toContain(italian.mail.order_tax_added)
  })
})

describe('checkout: fuzzed forms', () => {
  it('never answers 5xx to fuzzed form bodies on the form, the review and the result', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const page = await visitAs(giulia, `/${IT}/checkout/${code}`)
    const token = hidden(page.text, 'form_token')
    const field = fc.constantFrom(
      'delivery',
      'dealer',
      'ship_choice',
      'bill_choice',
      'billing_same',
      'payment_method',
      'ship_postal_code',
      'ship_country_code',
      'bill_first_name',
      'review_key',
      'x',
    )
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          field,
          fc.oneof(
            fc.string({ maxLength: 60 }),
            fc.constantFrom('home', 'pickup', 'new', '1', '999999999', 'card', 'paypal', 'on'),
          ),
        ),
        async (fields) => {
          for (const path of ['', '/review', '/result']) {
            const { status } = await visitAs(
              giulia,
              `/${IT}/checkout/${code}${path}`,
              formPost({ ...fields, form_token: token }),
            )
            expect(status, path).toBeLessThan(500)
          }
        },
      ),
      { numRuns: 20 },
    )
  })
})

describe('checkout without friction and addresses per country (issue 30: decisions 057 and 058)', () => {
  const lastMailTo = (email: string, kind: string) =>
    env.DB.prepare('SELECT body FROM outbox WHERE recipient = ? AND kind = ? ORDER BY id DESC LIMIT 1')
      .bind(email, kind)
      .first<{ body: string }>()

  it('shows the focused layout: the logo home, help, the legal links; no picker, search, navigation or newsletter; the summary first, closed, its total in its line', async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { text } = await visitAs(giulia, `/${IT}/checkout/${code}`)
    expect(text).toContain('<header class="checkout-header"><a class="checkout-home" href="/it-it">')
    expect(text).toMatch(/<a class="checkout-help" href="\/it-it\/[a-z-]+">/)
    expect(text).toContain(`>${italian.pages['terms-of-sale']}</a>`)
    for (const away of ['class="site-header"', 'class="site-footer"', 'name="q"', 'footer-newsletter'])
      expect(text, away).not.toContain(away)
    const toggle = /<details class="checkout-summary-toggle">\s*<summary>(.*?)<\/summary>/s.exec(text)?.[1] ?? ''
    expect(textOf(toggle)).toContain('4290,00\u00a0€')
    expect(text.indexOf('checkout-summary-toggle')).toBeLessThan(text.indexOf('name="delivery"'))
  })

  it("asks each country for its own fields: the UAE's form has no postcode but the emirate; the billing country changed shows its fields, nothing stored", async () => {
    const ae = await visitAs(
      giulia,
      `/ae-ar/checkout/${await freshCart(giulia, DEMO.email, 'ae-ar', [['STR9-M-RED', 1]])}`,
    )
    expect(ae.text).not.toContain('name="ship_postal_code"')
    expect(ae.text).toContain('name="ship_region"')
    expect(textOf(ae.text)).toContain(arabic.address.emirate)
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const shown = await sendChoices(giulia, IT, code, {
      delivery: 'home',
      ship_choice: '1',
      bill_choice: 'new',
      bill_country_code: 'US',
      bill_city: 'Boulder',
      intent: 'country',
    })
    expect(shown.status).toBe(200)
    expect(shown.text).not.toContain('aria-invalid="true"')
    expect(shown.text).toContain('value="Boulder"')
    expect(shown.text.indexOf('name="bill_region"')).toBeGreaterThan(0)
    expect(shown.text.indexOf('name="bill_region"')).toBeLessThan(shown.text.indexOf('name="bill_postal_code"'))
    expect(textOf(shown.text)).toContain(italian.address.state)
  })

  it('checks each address by its country on the server: the UAE without a postcode passes, "9o100" and a bad US ZIP are refused, and home delivery needs a phone', async () => {
    await review(giulia, 'ae-ar', await freshCart(giulia, DEMO.email, 'ae-ar', [['STR9-M-RED', 1]]), {
      delivery: 'home',
      ...newAddress('ship', 'AE', '', 'Dubai'),
      ship_region: 'دبي',
      billing_same: 'on',
      payment_method: 'card',
    })
    const refused = async (market: string, fields: Record<string, string>, field: string, message: string) => {
      const code = await freshCart(giulia, DEMO.email, market, [['STR9-M-RED', 1]])
      const { status, text } = await sendChoices(giulia, market, code, {
        delivery: 'home',
        billing_same: 'on',
        payment_method: 'card',
        ...fields,
      })
      expect(status, field).toBe(422)
      expect(tagOf(text, `field-${field}`), field).toContain('aria-invalid="true"')
      expect(text).toContain(`<p class="field-error" id="field-${field}-error">${message}</p>`)
    }
    await refused(IT, newAddress('ship', 'IT', '9o100'), 'ship_postal_code', italian.validation.postal_code)
    await refused(
      'us-en',
      { ...newAddress('ship', 'US', '9410', 'Boulder'), ship_region: 'CO' },
      'ship_postal_code',
      english.validation.postal_code,
    )
    await refused(IT, { ...newAddress('ship', 'IT'), ship_phone: '' }, 'ship_phone', italian.validation.phone_delivery)
  })

  it("prints an address one way: the review and the confirmation mail write it in its country's order, the country in the page's language", async () => {
    const code = await freshCart(giulia, DEMO.email, IT, [['STR9-M-RED', 1]])
    const { page, place: fields } = await review(giulia, IT, code)
    expect(page.text).toContain('<bdi dir="ltr">24122</bdi> Bergamo (BG)')
    expect(textOf(page.text)).toContain('Italia')
    await pay((await place(giulia, IT, code, fields)).headers.get('Location')!, 'succeed')
    const mail = await lastMailTo(DEMO.email, 'order_confirmation')
    expect(mail?.body).toContain('24122 Bergamo (BG)\nItalia')
  })

  it("names the pick-up dealer's address in the page's language: the Hebrew review in Hebrew", async () => {
    const code = await freshCart(giulia, DEMO.email, 'il-he', [['STR9-M-RED', 1]])
    const { words } = await review(giulia, 'il-he', code, {
      delivery: 'pickup',
      dealer: 'ofanei-hahar',
      ...newAddress('bill', 'IL', '6100000', 'תל אביב'),
      payment_method: 'card',
    })
    expect(words).toContain('עמק רפאים 30')
    expect(words).not.toMatch(/Emek Refaim|Jerusalem/)
  })

  it('lets a customer whose address is not confirmed pay; the paid result and the confirmation mail ask for the confirmation', async () => {
    await env.DB.prepare('UPDATE users SET email_confirmed_at = NULL WHERE email = ?').bind(SECOND.email).run()
    try {
      const code = await freshCart(lukas, SECOND.email, IT, [['POMP-OS-GRY', 1]])
      const { place: fields } = await review(lukas, IT, code, {
        delivery: 'home',
        ...newAddress('ship', 'IT'),
        billing_same: 'on',
        payment_method: 'card',
      })
      await pay((await place(lukas, IT, code, fields)).headers.get('Location')!, 'succeed')
      const result = await visitAs(lukas, `/${IT}/checkout/${code}/result`)
      expect(textOf(result.text)).toContain(italian.checkout.result_paid_title)
      expect(textOf(result.text)).toContain(italian.checkout.result_confirm_email)
      expect(result.text).toContain(`action="/${IT}/my-account/confirm-email"`)
      const mail = await lastMailTo(SECOND.email, 'order_confirmation')
      expect(mail?.body).toContain(italian.mail.order_confirm_email.replace('{{email}}', SECOND.email))
    } finally {
      await env.DB.prepare(`UPDATE users SET email_confirmed_at = '2026-01-01T00:00:00Z' WHERE email = ?`)
        .bind(SECOND.email)
        .run()
    }
  })
})
