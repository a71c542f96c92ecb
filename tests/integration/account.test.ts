import { env } from 'cloudflare:workers'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import italian from '../../demo/messages/it.json'
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
const post = (path: string, fields: Record<string, string>, as = giulia) => visitAs(as, path, formPost(fields), limiters)

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
  it('shows the customer\'s name and e-mail, recent orders, registered bikes and the ways on, in the market\'s language', async () => {
    const { status, words, text } = await page('/it-it/my-account')
    expect(status).toBe(200)
    expect(words).toContain('Giulia Rossi')
    expect(words).toContain('customer@example.com')
    expect(words).toContain('AUR-10007')
    expect(words).toContain('Aurora Sterrato GR')
    expect(words).toContain(italian.account.recent_orders)
    for (const section of ['orders', 'bikes', 'addresses']) expect(text).toContain(`href="/it-it/my-account/${section}"`)
  })

  it('never puts the bearer token in any account page', async () => {
    const { token } = await storedSession(giulia)
    for (const path of ['/it-it/my-account', '/it-it/my-account/orders', '/it-it/my-account/orders/AUR-10001', '/it-it/my-account/bikes', '/it-it/my-account/addresses', '/it-it/my-account/addresses/1/edit', '/it-it']) {
      const { status, text, headers } = await page(path)
      expect(status, path).toBe(200)
      expect(text, path).not.toContain(token)
      expect([...headers.entries()].join(), path).not.toContain(token)
    }
  })
})

describe('orders', () => {
  it('lists the orders newest first with date, code, status and total in each order\'s currency', async () => {
    const { words } = await page('/it-it/my-account/orders')
    expect(words.indexOf('AUR-10007')).toBeLessThan(words.indexOf('AUR-10001'))
    expect(words).toContain(italian.order_status.delivered)
    // The market's own currency with the site's token, others the market's way (it-IT): one formatter for every amount.
    expect(words).toContain('1749,00\u00a0€')
    expect(words).toContain('267,90\u00a0CHF')
    expect(words).toContain('226,00\u00a0USD')
    expect(words).not.toContain('AUR-10008')
  })

  it('pages the list and answers 404 for a page past the end or a malformed one', async () => {
    for (let i = 0; i < 5; i++) {
      await env.DB.prepare(
        `INSERT INTO orders (code, user_id, market, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
         VALUES (?, 1, 'it-it', 'paid', 'EUR', 1000, 1000, '{}', 'home', 'card', 'paid', '2024-01-0${i + 1}T10:00:00Z')`,
      ).bind(`OLD-${i}`).run()
    }
    const first = await page('/it-it/my-account/orders')
    expect(first.text).toContain('href="/it-it/my-account/orders?page=2"')
    const second = await page('/it-it/my-account/orders?page=2')
    expect(second.status).toBe(200)
    expect(second.words).toContain('OLD-0')
    for (const bad of ['?page=3', '?page=0', '?page=abc', '?page=-1']) {
      const { status, words } = await page(`/it-it/my-account/orders${bad}`)
      expect(status, bad).toBe(404)
      expect(words).toContain(`Page Not Found: /it-it/my-account/orders${bad}`)
    }
  })

  it('shows an order\'s items, totals, addresses, delivery, payment state and timeline', async () => {
    const { status, words } = await page('/it-it/my-account/orders/AUR-10004')
    expect(status).toBe(200)
    expect(words).toContain(italian.order.items)
    expect(words).toContain(italian.order.subtotal)
    expect(words).toContain(italian.order.billing_address)
    expect(words).toContain('Cicli Bergamasca')
    expect(words).toContain(italian.order.timeline)
    expect(words).toContain(italian.payment_state.paid)
  })

  it('puts each table that may scroll sideways in a named group the keyboard can reach (overview, orders, an order)', async () => {
    for (const path of ['/it-it/my-account', '/it-it/my-account/orders', '/it-it/my-account/orders/AUR-10004']) {
      const { status, text } = await page(path)
      expect(status, path).toBe(200)
      expect(expectNamedTableBoxes(text), path).toBe(1)
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
    expect(added.headers.get('Location')).toBe('/it-it/my-account/addresses?notice=address_saved')
    const id = await env.DB.prepare(`SELECT id FROM addresses WHERE label = 'Cottage' AND user_id = 1`).first<number>('id')
    expect(id).toBeTruthy()
    expect((await page('/it-it/my-account/addresses')).words).toContain('Via dei Mille 5')

    const edit = await page(`/it-it/my-account/addresses/${id}/edit`)
    expect(edit.text).toContain('value="Via dei Mille 5"')
    expect((await post(`/it-it/my-account/addresses/${id}`, { ...ADDRESS, city: 'Seriate' })).status).toBe(303)
    expect((await page('/it-it/my-account/addresses')).words).toContain('Seriate')

    expect((await post(`/it-it/my-account/addresses/${id}/default`, {})).status).toBe(303)
    const defaults = await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 AND is_default = 1').all<{ id: number }>()
    expect(defaults.results).toEqual([{ id }])

    const deleted = await post(`/it-it/my-account/addresses/${id}/delete`, {})
    expect(deleted.headers.get('Location')).toBe('/it-it/my-account/addresses?notice=address_deleted')
    expect(await env.DB.prepare('SELECT id FROM addresses WHERE id = ?').bind(id).first()).toBeNull()
    // The oldest remaining address became the default again.
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM addresses WHERE user_id = 1 AND is_default = 1').first<number>('n')).toBe(1)
  })

  it('has the edit form post to the address\'s update URL, also when it comes back with its errors', async () => {
    const id = await env.DB.prepare('SELECT id FROM addresses WHERE user_id = 1 ORDER BY id LIMIT 1').first<number>('id')
    const editForm = (html: string) => html.match(/<form[^>]*class="stacked-form account-card"[^>]*>/)?.[0] ?? ''
    const edit = await page(`/it-it/my-account/addresses/${id}/edit`)
    expect(edit.status).toBe(200)
    expect(editForm(edit.text)).toContain(`action="/it-it/my-account/addresses/${id}"`)
    const refused = await post(`/it-it/my-account/addresses/${id}`, { ...ADDRESS, city: '' })
    expect(refused.status).toBe(422)
    expect(editForm(refused.text)).toContain(`action="/it-it/my-account/addresses/${id}"`)
  })

  it('checks each field and answers with its translated message beside it, keeping what was typed', async () => {
    const { status, text } = await post('/it-it/my-account/addresses', { ...ADDRESS, first_name: '', postal_code: '!!', country_code: 'Italy', phone: 'call me', line1: 'x'.repeat(200) })
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

  it('never shows, changes, defaults or deletes another customer\'s address: each is a 404', async () => {
    const theirs = await env.DB.prepare('SELECT id, city FROM addresses WHERE user_id = 2').first<{ id: number; city: string }>()
    expect(theirs).not.toBeNull()
    const { id, city } = theirs as { id: number; city: string }
    expect((await page(`/it-it/my-account/addresses/${id}/edit`)).status).toBe(404)
    expect((await post(`/it-it/my-account/addresses/${id}`, ADDRESS)).status).toBe(404)
    expect((await post(`/it-it/my-account/addresses/${id}/default`, {})).status).toBe(404)
    expect((await post(`/it-it/my-account/addresses/${id}/delete`, {})).status).toBe(404)
    expect((await page('/it-it/my-account/addresses')).words).not.toContain(city)
    const after = await env.DB.prepare('SELECT city, is_default FROM addresses WHERE id = ?').bind(id).first()
    expect(after).toEqual({ city, is_default: 1 })
  })

  it('answers 404 for malformed address ids', async () => {
    for (const id of ['0', 'abc', '1e3', '99999999999']) expect((await page(`/it-it/my-account/addresses/${id}/edit`)).status, id).toBe(404)
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
    const registered = await post('/it-it/my-account/bikes', { serial_number: 'aur26x0000777', product_id: '9', purchased_on: '2026-06-01', dealer_name: '' })
    expect(registered.status).toBe(303)
    expect(registered.headers.get('Location')).toBe('/it-it/my-account/bikes?notice=bike_registered')
    const { words } = await page('/it-it/my-account/bikes')
    expect(words).toContain('AUR26X0000777')
    expect(words).toContain('1 giugno 2029')
  })

  it('refuses someone else\'s frame number without saying so (contact us), and one of the customer\'s own as already theirs', async () => {
    const theirs = await env.DB.prepare('SELECT serial_number FROM bikes WHERE user_id = 2').first<string>('serial_number')
    const taken = await post('/it-it/my-account/bikes', { serial_number: theirs as string, product_id: '2', purchased_on: '2025-01-01' })
    expect(taken.status).toBe(422)
    expect(textOf(taken.text)).toContain(italian.validation.serial_unavailable)
    expect(italian.validation.serial_unavailable).not.toMatch(/account/i)
    const mine = await env.DB.prepare('SELECT serial_number FROM bikes WHERE user_id = 1').first<string>('serial_number')
    const again = await post('/it-it/my-account/bikes', { serial_number: mine as string, product_id: '3', purchased_on: '2025-01-01' })
    expect(textOf(again.text)).toContain(italian.validation.serial_registered)
    expect(await env.DB.prepare('SELECT user_id FROM bikes WHERE serial_number = ?').bind(theirs).first<number>('user_id')).toBe(2)
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
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM bikes WHERE serial_number = 'AUR26X0000888'`).first<number>('n')).toBe(0)
  })

  it('counts every frame number tried against the account: the sixth within a minute is a 429, translated, and registers nothing', async () => {
    const giulias = await env.DB.prepare('SELECT serial_number FROM bikes WHERE user_id = 1').first<string>('serial_number')
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push((await post('/it-it/my-account/bikes', { serial_number: giulias as string, product_id: '9', purchased_on: '2025-01-01' }, lukas)).status)
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422])
    const limited = await post('/it-it/my-account/bikes', { serial_number: 'AUR26G0000606', product_id: '9', purchased_on: '2025-01-01' }, lukas)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toBe('60')
    expect(limited.headers.get('Cache-Control')).toBe('private, no-store')
    expect(textOf(limited.text)).toContain(italian.validation.too_many_attempts)
    expect(limited.text).toContain('value="AUR26G0000606"')
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM bikes WHERE serial_number = 'AUR26G0000606'`).first<number>('n')).toBe(0)
    // Counted per account: the other customer still registers.
    expect((await post('/it-it/my-account/bikes', { serial_number: 'AUR26G0000607', product_id: '9', purchased_on: '2025-01-01' })).status).toBe(303)
  })

  it('takes a leap day in a leap year', async () => {
    const registered = await post('/it-it/my-account/bikes', { serial_number: 'AUR24L0000229', product_id: '9', purchased_on: '2024-02-29' })
    expect(registered.status).toBe(303)
    expect((await page('/it-it/my-account/bikes')).words).toContain('29 febbraio 2024')
  })
})
