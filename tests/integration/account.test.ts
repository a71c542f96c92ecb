import { env } from 'cloudflare:workers'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import germanMessages from '../../demo/messages/de.json'
import hebrewMessages from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import { issueFormToken } from '../../src/forms/form-token'
import { formatMoney, type MoneyMarket } from '../../src/i18n/formats'
import { textOf } from '../fixtures/worker'
import { SECOND, formPost, logIn, steadyRateLimiters, storedSession, visitAs } from '../fixtures/session'
import { expectNamedTableBoxes } from '../fixtures/table-scroll'

let giulia = ''
let lukas = ''

beforeAll(async () => {
  giulia = await logIn()
  lukas = await logIn(SECOND)
})

const page = async (path: string, as = giulia) => {
  const answer = await visitAs(as, path)
  return { ...answer, words: textOf(answer.text) }
}
/** Rate limiters counting from zero in each test, with wrangler.toml's limits and no clock. */
let limiters: Partial<Cloudflare.Env> = {}
beforeEach(() => {
  limiters = steadyRateLimiters()
})
const post = (path: string, fields: Record<string, string>, as = giulia) =>
  visitAs(as, path, formPost(fields), limiters)

const IT_MONEY: MoneyMarket = {
  tag: 'it-IT',
  dir: 'ltr',
  site: { currency: 'EUR', default_currency_token: '€', default_currency_place: 'right' },
}

/** The token of an address's "Delete this address?" page, as its confirm button posts it. */
async function deleteToken(id: number, as = giulia): Promise<string> {
  const confirm = await page(`/it-it/my-account/addresses/${id}/delete`, as)
  expect(confirm.status).toBe(200)
  return /<input type="hidden" name="form_token" value="([^"]+)"/.exec(confirm.text)?.[1] ?? ''
}

const ADDRESS = {
  label: 'Cottage',
  first_name: 'Giulia',
  last_name: 'Rossi',
  company: '',
  line1: 'Via dei Mille 5',
  line2: '',
  postal_code: '24020',
  city: 'Gorle',
  region: 'BG',
  country_code: 'IT',
  phone: '+39 035 555 0199',
}

describe('the account overview', () => {
  it("shows the customer's name and e-mail, recent orders, registered bikes and the ways on, in the market's language", async () => {
    const { status, words, text } = await page('/it-it/my-account')
    expect(status).toBe(200)
    expect(words).toContain('Giulia Rossi')
    expect(words).toContain('customer@example.com')
    expect(words).toContain('AUR-10007')
    expect(words).toContain('Aurora Sterrato GR')
    expect(words).toContain(italian.account.recent_orders)
    for (const section of ['orders', 'bikes', 'addresses'])
      expect(text).toContain(`href="/it-it/my-account/${section}"`)
  })

  it('never puts the bearer token in any account page', async () => {
    const { token } = await storedSession(giulia)
    const pages = [
      '/it-it/my-account',
      '/it-it/my-account/orders',
      '/it-it/my-account/orders/AUR-10001',
      '/it-it/my-account/bikes',
      '/it-it/my-account/addresses',
      '/it-it/my-account/addresses/1/edit',
      '/it-it/my-account/addresses/1/delete',
      '/it-it',
    ]
    for (const path of pages) {
      const { status, text, headers } = await page(path)
      expect(status, path).toBe(200)
      expect(text, path).not.toContain(token)
      expect([...headers.entries()].join(), path).not.toContain(token)
    }
  })
})

describe('orders', () => {
  it("lists the orders newest first with date, code, status and total in each order's currency", async () => {
    const { words } = await page('/it-it/my-account/orders')
    expect(words.indexOf('AUR-10007')).toBeLessThan(words.indexOf('AUR-10001'))
    expect(words).toContain(italian.order_status.delivered)
    // The market's own currency with the site's token, others the market's way (it-IT): one formatter for every amount.
    expect(words).toContain('1749,00\u00a0€')
    expect(words).toContain('267,90\u00a0CHF')
    expect(words).toContain('226,00\u00a0USD')
    expect(words).not.toContain('AUR-10008')
  })

  it('pages the list by keyset: older orders by the cursor the API gave, back to the newest; a forged cursor a 400, a page number past the end a 404', async () => {
    for (let i = 0; i < 5; i++) {
      await env.DB.prepare(
        `INSERT INTO orders (code, user_id, market, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
         VALUES (?, 1, 'it-it', 'paid', 'EUR', 1000, 1000, '{}', 'home', 'card', 'paid', '2024-01-0${i + 1}T10:00:00Z')`,
      )
        .bind(`OLD-${i}`)
        .run()
    }
    const first = await page('/it-it/my-account/orders')
    const older = /href="(\/it-it\/my-account\/orders\?after=[A-Za-z0-9_-]+)" rel="next">([^<]+)</.exec(first.text)
    expect(older?.[2]).toBe(italian.orders.older)
    expect(first.text).not.toContain(italian.orders.newest)
    expect(first.text).not.toContain('?page=2')
    const second = await page(older?.[1] ?? '')
    expect(second.status).toBe(200)
    expect(second.words).toContain('OLD-0')
    expect(second.text).toContain(`<a href="/it-it/my-account/orders">${italian.orders.newest}</a>`)
    expect(second.text).not.toContain('rel="next"')
    const forged = await page('/it-it/my-account/orders?after=bm90LWEtY3Vyc29y')
    expect(forged.status).toBe(400)
    for (const bad of ['?page=3', '?page=0', '?page=abc', '?page=-1', '?after=']) {
      const { status, words } = await page(`/it-it/my-account/orders${bad}`)
      expect(status, bad).toBe(404)
      expect(words).toContain(`Page Not Found: /it-it/my-account/orders${bad}`)
    }
  })

  it("shows an order's items, totals, addresses, delivery, payment state and timeline", async () => {
    const { status, words } = await page('/it-it/my-account/orders/AUR-10004')
    expect(status).toBe(200)
    expect(words).toContain(italian.order.items)
    expect(words).toContain(italian.order.subtotal)
    expect(words).toContain(italian.order.billing_address)
    expect(words).toContain('Cicli Bergamasca')
    expect(words).toContain(italian.order.timeline)
    expect(words).toContain(italian.payment_state.paid)
  })

  it('names each table by its heading and labels every value, so a phone shows each row as a card, never a sideways scroll', async () => {
    for (const [path, columns] of [
      ['/it-it/my-account', [italian.orders.date, italian.orders.status, italian.orders.total]],
      ['/it-it/my-account/orders', [italian.orders.date, italian.orders.status, italian.orders.total]],
      [
        '/it-it/my-account/orders/AUR-10001',
        [italian.order.quantity, italian.order.unit_price, italian.order.line_total],
      ],
    ] as const) {
      const { status, text } = await page(path)
      expect(status, path).toBe(200)
      expect(expectNamedTableBoxes(text), path).toBe(0)
      const table = /<table[^>]*class="[^"]*stack-table[^"]*"[^>]*>/.exec(text)?.[0] ?? ''
      expect(table, path).toContain('role="table"')
      const name = /aria-labelledby="([^"]+)"/.exec(table)?.[1]
      expect(text, path).toContain(`id="${name}"`)
      const body = text.slice(text.indexOf('<tbody'), text.indexOf('</tbody>'))
      const cells = [...body.matchAll(/<td[^>]*>/g)].map((match) => match[0])
      expect(cells.length, path).toBeGreaterThanOrEqual(3)
      // Every value cell carries its column's name, in the column order.
      for (const [index, cell] of cells.entries()) expect(cell, path).toContain(`data-label="${columns[index % 3]}"`)
    }
  })

  it("names the variants of order lines in the market's language, from the catalogue's size and colour", async () => {
    const { status, words, text } = await page('/it-it/my-account/orders/AUR-10001')
    expect(status).toBe(200)
    expect(words).toContain(`\u2068M\u2069 · ${italian.colour.sage}`)
    expect(words).toContain(`\u2068M\u2069 · ${italian.colour.white}`)
    expect(words).toMatch(new RegExp(`${italian.order.sku}\\s+STGR-M-SAG`))
    expect(words).not.toContain('Sage green')
    expect(text).toContain('<bdi dir="ltr">STGR-M-SAG</bdi>')
    // German for the same order, in the market Lukas does not shop in: the names follow the page, not the purchase.
    const german = await page('/de-de/my-account/orders/AUR-10001')
    expect(german.words).toContain(`\u2068M\u2069 · ${germanMessages.colour.sage}`)
    // A one-size article says so in the page's language too.
    await env.DB.prepare(`UPDATE order_items SET sku = 'LUCE-OS-WHT' WHERE order_id = 1 AND position = 2`).run()
    expect((await page('/it-it/my-account/orders/AUR-10001')).words).toContain(
      `\u2068${italian.order.one_size}\u2069 · ${italian.colour.white}`,
    )
    await env.DB.prepare(`UPDATE order_items SET sku = NULL WHERE order_id = 1 AND position = 2`).run()
    // A line placed without a SKU keeps the text it was placed with.
    await env.DB.prepare(
      `UPDATE order_items SET sku = NULL, variant = 'Taglia M · Verde oliva' WHERE order_id = 1 AND position = 1`,
    ).run()
    expect((await page('/it-it/my-account/orders/AUR-10001')).words).toContain('Taglia M · Verde oliva')
    await env.DB.prepare(
      `UPDATE order_items SET sku = 'ARIA-M-WHT', variant = 'M · White' WHERE order_id = 1 AND position = 1`,
    ).run()
  })

  it('shows a pending bank-transfer order how to pay: beneficiary, IBAN, BIC, the amount and the order code as reference', async () => {
    const { status, words, text } = await page('/it-it/my-account/orders/AUR-10007')
    expect(status).toBe(200)
    expect(words).toContain(italian.bank.title)
    expect(words).toContain(italian.bank.reference)
    expect(words).toContain('Aurora Cycles S.r.l.')
    expect(text).toContain('<bdi dir="ltr">IT60 X054 2811 1010 0000 0123 456</bdi>')
    expect(text).toContain('<bdi dir="ltr">DEMOITMMXXX</bdi>')
    expect(text).toMatch(/<dd class="bank-code"><bdi dir="ltr">AUR-10007<\/bdi><\/dd>/)
    const total = await env.DB.prepare(`SELECT total FROM orders WHERE code = 'AUR-10007'`).first<number>('total')
    expect(text).toContain(`<dd class="bank-amount"><bdi>${formatMoney(total!, 'EUR', IT_MONEY)}</bdi></dd>`)
    // Paid by transfer already, or paid by card: nothing to pay.
    for (const code of ['AUR-10004', 'AUR-10001'])
      expect((await page(`/it-it/my-account/orders/${code}`)).words, code).not.toContain(italian.bank.title)
  })

  it('isolates the bank details in a right-to-left page, and says to ask when the market names no account', async () => {
    const hebrew = await page('/il-he/my-account/orders/AUR-10007')
    expect(hebrew.status).toBe(200)
    expect(hebrew.words).toContain(hebrewMessages.bank.title)
    // The order was placed in Italy: its account is the Italian one, whatever market shows it.
    expect(hebrew.text).toContain('<bdi dir="ltr">IT60 X054 2811 1010 0000 0123 456</bdi>')
    await env.DB.prepare(`UPDATE orders SET market = 'es-es' WHERE code = 'AUR-10007'`).run()
    try {
      const none = await page('/it-it/my-account/orders/AUR-10007')
      expect(none.words).toContain(italian.bank.unavailable)
      expect(none.text).not.toContain('IT60')
    } finally {
      await env.DB.prepare(`UPDATE orders SET market = 'it-it' WHERE code = 'AUR-10007'`).run()
    }
  })

  it('answers 404 "Page Not Found" for another customer\'s order, by its code, exactly as for an unknown code', async () => {
    for (const code of ['AUR-10008', 'AUR-99999', 'aur-10008', '..%2F..%2Fapi']) {
      const { status, words } = await page(`/it-it/my-account/orders/${code}`)
      expect(status, code).toBe(404)
      expect(words).toContain(`Page Not Found: /it-it/my-account/orders/${code}`)
    }
    expect((await page('/it-it/my-account/orders/AUR-10008', lukas)).status).toBe(200)
  })
})

describe('addresses', () => {
  it('adds an address, shows it, edits it, makes it the default and deletes it', async () => {
    const added = await post('/it-it/my-account/addresses', ADDRESS)
    expect(added.status).toBe(303)
    expect(added.headers.get('Location')).toBe('/it-it/my-account/addresses')
    const id = await env.DB.prepare(`SELECT id FROM addresses WHERE label = 'Cottage' AND user_id = 1`).first<number>(
      'id',
    )
    expect(id).toBeTruthy()
    expect((await page('/it-it/my-account/addresses')).words).toContain('Via dei Mille 5')

    const edit = await page(`/it-it/my-account/addresses/${id}/edit`)
    expect(edit.text).toContain('value="Via dei Mille 5"')
    expect((await post(`/it-it/my-account/addresses/${id}`, { ...ADDRESS, city: 'Seriate' })).status).toBe(303)
    expect((await page('/it-it/my-account/addresses')).words).toContain('Seriate')

    expect((await post(`/it-it/my-account/addresses/${id}/default`, {})).status).toBe(303)
    const defaults = await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 AND is_default = 1').all<{
      id: number
    }>()
    expect(defaults.results).toEqual([{ id }])

    const deleted = await post(`/it-it/my-account/addresses/${id}/delete`, { form_token: await deleteToken(id!) })
    expect(deleted.headers.get('Location')).toBe('/it-it/my-account/addresses')
    expect(await env.DB.prepare('SELECT id FROM addresses WHERE id = ?').bind(id).first()).toBeNull()
    // The oldest remaining address became the default again.
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses WHERE user_id = 1 AND is_default = 1').first<number>(
        'n',
      ),
    ).toBe(1)
  })

  it("has the edit form post to the address's update URL, also when it comes back with its errors", async () => {
    const id = await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 ORDER BY id LIMIT 1').first<number>(
      'id',
    )
    const editForm = (html: string) => html.match(/<form[^>]*class="stacked-form account-card"[^>]*>/)?.[0] ?? ''
    const edit = await page(`/it-it/my-account/addresses/${id}/edit`)
    expect(edit.status).toBe(200)
    expect(editForm(edit.text)).toContain(`action="/it-it/my-account/addresses/${id}"`)
    const refused = await post(`/it-it/my-account/addresses/${id}`, { ...ADDRESS, city: '' })
    expect(refused.status).toBe(422)
    expect(editForm(refused.text)).toContain(`action="/it-it/my-account/addresses/${id}"`)
  })

  it('checks each field and answers with its translated message beside it, keeping what was typed', async () => {
    const { status, text } = await post('/it-it/my-account/addresses', {
      ...ADDRESS,
      first_name: '',
      postal_code: '!!',
      country_code: 'Italy',
      phone: 'call me',
      line1: 'x'.repeat(200),
    })
    expect(status).toBe(422)
    const words = textOf(text)
    expect(words).toContain(italian.validation.summary)
    expect(words).toContain(italian.validation.required)
    expect(words).toContain(italian.validation.postal_code)
    expect(words).toContain(italian.validation.country)
    expect(words).toContain(italian.validation.phone)
    expect(words).toContain(italian.validation.too_long)
    expect(text).toContain('value="Gorle"')
    expect(text).toMatch(/id="field-first_name" aria-invalid="true" aria-describedby="field-first_name-error"/)
  })

  it('checks an address by its country (decision 058): the UAE\'s without a postcode is saved, an Italian CAP "9o100" refused beside its field', async () => {
    const uae = await post('/ae-ar/my-account/addresses', {
      first_name: 'Giulia',
      last_name: 'Rossi',
      line1: 'Al Wasl Road 12',
      city: 'Dubai',
      region: 'Dubai',
      country_code: 'AE',
    })
    expect(uae.status).toBe(303)
    const saved = await env.DB.prepare(
      "SELECT id, postal_code FROM addresses WHERE user_id = 1 AND line1 = 'Al Wasl Road 12'",
    ).first<{ id: number; postal_code: string }>()
    expect(saved?.postal_code).toBe('')
    await env.DB.prepare('DELETE FROM addresses WHERE id = ?').bind(saved?.id).run()
    const form = await visitAs(giulia, '/ae-ar/my-account/addresses')
    expect(form.text).not.toContain('name="postal_code"')
    const wrong = await post('/it-it/my-account/addresses', { ...ADDRESS, postal_code: '9o100' })
    expect(wrong.status).toBe(422)
    expect(wrong.text).toContain(
      `<p class="field-error" id="field-postal_code-error">${italian.validation.postal_code}</p>`,
    )
  })

  it("never shows, changes, defaults or deletes another customer's address: each is a 404", async () => {
    const theirs = await env.DB.prepare('SELECT id, city FROM addresses WHERE user_id = 2').first<{
      id: number
      city: string
    }>()
    expect(theirs).not.toBeNull()
    const { id, city } = theirs as { id: number; city: string }
    expect((await page(`/it-it/my-account/addresses/${id}/edit`)).status).toBe(404)
    expect((await post(`/it-it/my-account/addresses/${id}`, ADDRESS)).status).toBe(404)
    expect((await post(`/it-it/my-account/addresses/${id}/default`, {})).status).toBe(404)
    expect((await post(`/it-it/my-account/addresses/${id}/delete`, {})).status).toBe(404)
    expect((await page(`/it-it/my-account/addresses/${id}/delete`)).status).toBe(404)
    // Not even with a token signed for this customer and that id.
    const token = await issueFormToken(env.SESSION_SECRET!, `address-delete:1:${id}`)
    expect((await post(`/it-it/my-account/addresses/${id}/delete`, { form_token: token })).status).toBe(404)
    expect((await page('/it-it/my-account/addresses')).words).not.toContain(city)
    const after = await env.DB.prepare('SELECT city, is_default FROM addresses WHERE id = ?').bind(id).first()
    expect(after).toEqual({ city, is_default: 1 })
  })

  it('asks first: the list\'s delete is a link to "Delete this address?", with the address, a confirm button posting the form\'s token and the way back', async () => {
    const id = await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 ORDER BY id LIMIT 1').first<number>(
      'id',
    )
    const list = await page('/it-it/my-account/addresses')
    expect(list.text).toMatch(new RegExp(`<a class="button danger" href="/it-it/my-account/addresses/${id}/delete"`))
    expect(list.text).not.toContain(`action="/it-it/my-account/addresses/${id}/delete"`)
    const confirm = await page(`/it-it/my-account/addresses/${id}/delete`)
    expect(confirm.status).toBe(200)
    expect(confirm.headers.get('Cache-Control')).toBe('private, no-store')
    expect(confirm.words).toContain(italian.address.delete_title)
    expect(confirm.words).toContain("Via Sant'Alessandro 42")
    const main = confirm.text.slice(confirm.text.indexOf('<main'), confirm.text.indexOf('</main>'))
    const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/.exec(main)
    expect(form?.[1]).toContain(`action="/it-it/my-account/addresses/${id}/delete"`)
    expect(form?.[1]).toContain('method="post"')
    expect(form?.[2]).toMatch(/<input type="hidden" name="form_token" value="[^"]+"/)
    expect(form?.[2]).toMatch(/<button type="submit" class="button danger">/)
    expect(textOf(form?.[2] ?? '')).toContain(italian.address.delete_confirm)
    expect(form?.[2]).toContain(
      `<a class="button secondary" href="/it-it/my-account/addresses">${italian.address.delete_cancel}</a>`,
    )
    // Looking is not deleting.
    expect(await env.DB.prepare('SELECT id FROM addresses WHERE id = ?').bind(id).first()).not.toBeNull()
  })

  it("never deletes on the first click: without the confirmation's token, with a forged one, another address's or a day-old one, it asks again with 400", async () => {
    const [mine, other] = (
      await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 ORDER BY id LIMIT 2').all<{ id: number }>()
    ).results.map((row) => row.id)
    const dayOld = await issueFormToken(env.SESSION_SECRET!, `address-delete:1:${mine}`, Date.now() - 25 * 3600 * 1000)
    const asLukas = await issueFormToken(env.SESSION_SECRET!, `address-delete:2:${mine}`)
    for (const fields of [
      {} as Record<string, string>,
      { form_token: 'forged' },
      { form_token: await deleteToken(other!) },
      { form_token: dayOld },
      { form_token: asLukas },
    ]) {
      const answer = await post(`/it-it/my-account/addresses/${mine}/delete`, fields)
      expect(answer.status, JSON.stringify(fields)).toBe(400)
      expect(textOf(answer.text)).toContain(italian.address.delete_title)
      expect(answer.text).toMatch(/<input type="hidden" name="form_token" value="[^"]+"/)
    }
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses WHERE id IN (?, ?)')
        .bind(mine, other)
        .first<number>('n'),
    ).toBe(2)
  })

  it('keeps phone numbers, postcodes, codes, e-mail addresses and SKUs left to right in a right-to-left page (il-he)', async () => {
    const overview = await page('/il-he/my-account')
    expect(overview.text).toContain('<html lang="he" dir="rtl"')
    expect(overview.text).toContain('<bdi dir="ltr">customer@example.com</bdi>')
    expect(overview.text).toMatch(/<bdi dir="ltr">AUR-10007<\/bdi>/)
    const orders = await page('/il-he/my-account/orders')
    expect(orders.text).toMatch(/<bdi dir="ltr">AUR-10001<\/bdi>/)
    const order = await page('/il-he/my-account/orders/AUR-10001')
    expect(order.text).toMatch(/<h1><bdi dir="ltr">AUR-10001<\/bdi>|<h1>[^<]*<bdi dir="ltr">AUR-10001<\/bdi>/)
    expect(order.text).toContain('<bdi dir="ltr">STGR-M-SAG</bdi>')
    expect(order.text).toContain('<bdi dir="ltr">BRT0824519307</bdi>')
    expect(order.text).toContain('<bdi dir="ltr">24122</bdi> Bergamo (BG)')
    expect(order.text).toContain('<bdi dir="ltr">+39 035 555 0101</bdi>')
    const addresses = await page('/il-he/my-account/addresses')
    expect(addresses.text).toContain('<bdi dir="ltr">+39 035 555 0101</bdi>')
    const id = await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 ORDER BY id LIMIT 1').first<number>(
      'id',
    )
    const edit = await page(`/il-he/my-account/addresses/${id}/edit`)
    expect(edit.text).toMatch(/<input[^>]*id="field-phone"[^>]*dir="ltr"/)
    expect(edit.text).toMatch(/<input[^>]*id="field-postal_code"[^>]*dir="ltr"/)
    const bikes = await page('/il-he/my-account/bikes')
    expect(bikes.text).toMatch(/<code><bdi dir="ltr">[A-Z0-9]+<\/bdi><\/code>/)
  })

  it('answers 404 for malformed address ids', async () => {
    for (const id of ['0', 'abc', '1e3', '99999999999']) {
      expect((await page(`/it-it/my-account/addresses/${id}/edit`)).status, id).toBe(404)
      expect((await page(`/it-it/my-account/addresses/${id}/delete`)).status, id).toBe(404)
    }
  })
})

describe('bikes', () => {
  it('lists the registered bikes with the warranty end date', async () => {
    const { words } = await page('/it-it/my-account/bikes')
    expect(words).toContain('Aurora Sterrato GR')
    // A bike bought on 16 May 2025 keeps its five-year frame warranty until 16 May 2030.
    expect(words).toContain('16 maggio 2030')
  })

  it('registers a bike by frame number, model and purchase date, with an optional dealer', async () => {
    const registered = await post('/it-it/my-account/bikes', {
      serial_number: 'aur26x0000777',
      product_id: '9',
      purchased_on: '2026-06-01',
      dealer_name: '',
    })
    expect(registered.status).toBe(303)
    expect(registered.headers.get('Location')).toBe('/it-it/my-account/bikes')
    const { words } = await page('/it-it/my-account/bikes')
    expect(words).toContain('AUR26X0000777')
    expect(words).toContain('1 giugno 2029')
  })

  it("refuses someone else's frame number without saying so (contact us), and one of the customer's own as already theirs", async () => {
    const theirs = await env.DB.prepare('SELECT serial_number FROM bikes WHERE user_id = 2').first<string>(
      'serial_number',
    )
    const taken = await post('/it-it/my-account/bikes', {
      serial_number: theirs as string,
      product_id: '2',
      purchased_on: '2025-01-01',
    })
    expect(taken.status).toBe(422)
    expect(textOf(taken.text)).toContain(italian.validation.serial_unavailable)
    expect(italian.validation.serial_unavailable).not.toMatch(/account/i)
    const mine = await env.DB.prepare('SELECT serial_number FROM bikes WHERE user_id = 1').first<string>(
      'serial_number',
    )
    const again = await post('/it-it/my-account/bikes', {
      serial_number: mine as string,
      product_id: '3',
      purchased_on: '2025-01-01',
    })
    expect(textOf(again.text)).toContain(italian.validation.serial_registered)
    expect(
      await env.DB.prepare('SELECT user_id FROM bikes WHERE serial_number = ?').bind(theirs).first<number>('user_id'),
    ).toBe(2)
  })

  it('checks the frame number, the model and the date', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const cases: Array<[Record<string, string>, string]> = [
      [{ serial_number: 'ab', product_id: '9', purchased_on: '2025-01-01' }, italian.validation.serial],
      [{ serial_number: 'AUR26X0000888', product_id: '15', purchased_on: '2025-01-01' }, italian.validation.model],
      [{ serial_number: 'AUR26X0000888', product_id: '', purchased_on: '2025-01-01' }, italian.validation.model],
      [{ serial_number: 'AUR26X0000888', product_id: '9', purchased_on: tomorrow }, italian.validation.date_future],
      [{ serial_number: 'AUR26X0000888', product_id: '9', purchased_on: '2025-02-31x' }, italian.validation.date],
    ]
    // Days the calendar does not have (a date parser would roll them into the next month).
    for (const day of ['2025-02-31', '2025-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-06-00']) {
      cases.push([{ serial_number: 'AUR26X0000888', product_id: '9', purchased_on: day }, italian.validation.date])
    }
    for (const [fields, message] of cases) {
      const { status, text } = await post('/it-it/my-account/bikes', fields)
      expect(status, JSON.stringify(fields)).toBe(422)
      expect(textOf(text)).toContain(message)
    }
    expect(
      await env.DB.prepare(`SELECT COUNT(*) AS n FROM bikes WHERE serial_number = 'AUR26X0000888'`).first<number>('n'),
    ).toBe(0)
  })

  it('counts every frame number tried against the account: the sixth within a minute is a 429, translated, and registers nothing', async () => {
    const giulias = await env.DB.prepare('SELECT serial_number FROM bikes WHERE user_id = 1').first<string>(
      'serial_number',
    )
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (
          await post(
            '/it-it/my-account/bikes',
            { serial_number: giulias as string, product_id: '9', purchased_on: '2025-01-01' },
            lukas,
          )
        ).status,
      )
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422])
    const limited = await post(
      '/it-it/my-account/bikes',
      { serial_number: 'AUR26G0000606', product_id: '9', purchased_on: '2025-01-01' },
      lukas,
    )
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toBe('60')
    expect(limited.headers.get('Cache-Control')).toBe('private, no-store')
    expect(textOf(limited.text)).toContain(italian.validation.too_many_attempts)
    expect(limited.text).toContain('value="AUR26G0000606"')
    expect(
      await env.DB.prepare(`SELECT COUNT(*) AS n FROM bikes WHERE serial_number = 'AUR26G0000606'`).first<number>('n'),
    ).toBe(0)
    // Counted per account: the other customer still registers.
    expect(
      (
        await post('/it-it/my-account/bikes', {
          serial_number: 'AUR26G0000607',
          product_id: '9',
          purchased_on: '2025-01-01',
        })
      ).status,
    ).toBe(303)
  })

  it('takes a leap day in a leap year', async () => {
    const registered = await post('/it-it/my-account/bikes', {
      serial_number: 'AUR24L0000229',
      product_id: '9',
      purchased_on: '2024-02-29',
    })
    expect(registered.status).toBe(303)
    expect((await page('/it-it/my-account/bikes')).words).toContain('29 febbraio 2024')
  })
})
