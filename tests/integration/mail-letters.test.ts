import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import { mailArriving, standInAnswers } from '../fixtures/mail'
import { sendForm } from '../fixtures/lead-forms'
import { formPost } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

afterEach(() => standInAnswers(0))

const LINK = 'https://site.test/{market}/my-account/orders/{code}'
let orders = 0

/** An order of the demo customer as placement leaves it, two of one bike, in a market's currency and language. */
async function placeOrder(market: string, locale: string, currency: string, delivery: 'home' | 'pickup') {
  const code = `AUR-HTML${++orders}-${Date.now() % 100000}`
  const address = JSON.stringify({
    first_name: 'Giulia',
    last_name: 'Verdi',
    line1: 'Via Roma 12',
    postal_code: '24121',
    city: 'Bergamo',
    country_code: 'IT',
  })
  await env.DB.prepare(
    `INSERT INTO orders (code, user_id, market, locale, status, currency, subtotal, shipping, tax, total, billing_address,
                         shipping_address, delivery_method, delivery_dealer, payment_method, payment_state, payment_attempt, placed_at)
     VALUES (?1, 1, ?2, ?3, 'pending_payment', ?4, 259800, 4900, 46850, 264700, '{}', ?5, ?6, ?7, 'card', 'pending', 1, '2026-11-23T09:00:00Z')`,
  )
    .bind(
      code,
      market,
      locale,
      currency,
      delivery === 'home' ? address : null,
      delivery,
      delivery === 'pickup' ? 'Ofanei Tel Aviv' : null,
    )
    .run()
  await env.DB.prepare(
    `INSERT INTO order_items (order_id, position, sku, name, variant, quantity, unit_price) SELECT id, 1, 'ARIA-S-WHT', 'Aurora Aria', 'S', 2, 129900 FROM orders WHERE code = ?`,
  )
    .bind(code)
    .run()
  return code
}

/** Settles the order paid through the embedded API, as the Worker does; answers the confirmation's row. */
async function paid(code: string, currency: string) {
  const event = {
    id: `evt_${crypto.randomUUID().replace(/-/g, '')}`,
    type: 'payment.succeeded',
    created: 1763890000,
    data: { payment_id: 'tp_aaaaaaaaaaaaaaaaaaaaaaaa', order_code: code, amount: 264700, currency, state: 'paid' },
  }
  const ctx = createExecutionContext()
  const response = await api.fetch(
    new Request('http://embedded.invalid/api/payments/events', {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ event, link_template: LINK }),
    }) as Parameters<typeof api.fetch>[0],
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  expect(response.status).toBe(200)
  return env.DB.prepare(
    `SELECT body, html, headers FROM outbox WHERE kind = 'order_confirmation' AND subject LIKE ? ORDER BY id DESC LIMIT 1`,
  )
    .bind(`%${code}%`)
    .first<{ body: string; html: string; headers: string | null }>()
}

/** What every HTML part must be: no image or style from anywhere, no "we have sent you an e-mail" in its language. */
function expectSelfContained(html: string, messages: typeof italian) {
  expect(html).not.toMatch(/<img|url\(|@import|<link|<script/i)
  for (const form of Object.values(messages.forms))
    if (typeof form === 'object' && 'mail_sent' in form) expect(html).not.toContain(form.mail_sent)
}

describe("the order confirmation's HTML part", () => {
  it("is written in Italian, left to right, with the order's lines, amounts as the market writes them, the address and the account link", async () => {
    const code = await placeOrder('it-it', 'it', 'EUR', 'home')
    const row = await paid(code, 'EUR')
    const html = row?.html ?? ''
    expect(html).toMatch(/<html lang="it" dir="ltr">/)
    expect(html).toContain('<meta name="color-scheme" content="light dark">')
    expect(html).toContain('2 × Aurora Aria, S')
    // The market's format: a comma before the cents, the euro after the amount (Italian groups from five digits).
    expect(html).toMatch(/<bdi>2598,00\s€<\/bdi>/)
    expect(html).toMatch(/<bdi>2647,00\s€<\/bdi>/)
    expect(html).toContain(`${italian.order.tax}</td>`)
    expect(html).toContain('Via Roma 12')
    expect(html).toContain(`href="https://site.test/it-it/my-account/orders/${code}"`)
    expect(html).toContain(italian.mail.open_link)
    expectSelfContained(html, italian)
    // The plain-text part is as it was, and what the console's outbox shows.
    expect(row?.body).toContain(`2 × Aurora Aria, S: `)
    expect(row?.headers).toBeNull()
  })

  it('is written in Hebrew, right to left, amounts in shekels isolated, the pick-up dealer in Hebrew words', async () => {
    const code = await placeOrder('il-he', 'he', 'ILS', 'pickup')
    const html = (await paid(code, 'ILS'))?.html ?? ''
    expect(html).toMatch(/<html lang="he" dir="rtl">/)
    expect(html).toMatch(/<table[^>]+dir="rtl"/)
    expect(html).toMatch(/<bdi>\u2067₪2,647\.00\u2069<\/bdi>/)
    expect(html).toContain(hebrew.order.delivery_pickup.replace('{{dealer}}', '<bdi dir="ltr">Ofanei Tel Aviv</bdi>'))
    // The order's code inside Hebrew stays one left-to-right run.
    expect(html).toContain(`<bdi dir="ltr">${code}</bdi>`)
    expect(html).toContain(hebrew.mail.open_link)
    expect(html).toContain('text-align:right')
    expectSelfContained(html, hebrew)
  })
})

const newAddress = () => `letters-${++orders}-${Date.now()}@example.com`
const leaving = { MAIL_QUEUE: env.TEST_MAIL_QUEUE }
const subscriberOf = (email: string) =>
  env.DB.prepare('SELECT email FROM newsletter_subscribers WHERE site = ? AND email = ?')
    .bind('il', email)
    .first<string>('email')
const unsubscribeLinkIn = (header: string | undefined) => /^<(https:\/\/[^>]+)>$/.exec(header ?? '')?.[1] ?? ''
const oneClick = (headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  // As a mail program sends it: from elsewhere, no cookie, the body RFC 8058 names.
  headers: {
    'Content-Type': 'application/x-www-form-urlencoded',
    'Sec-Fetch-Site': 'cross-site',
    Origin: 'https://mail.example',
    ...headers,
  },
  body: 'List-Unsubscribe=One-Click',
})

describe("the newsletter's mail and its one-click unsubscribe", () => {
  it('leaves for the mail service with its HTML and text parts and the List-Unsubscribe headers, in Hebrew', async () => {
    const email = newAddress()
    expect((await sendForm('/il-he/newsletter', 'newsletter', { email, consent: 'on' }, {}, leaving)).status).toBe(303)
    const mail = await mailArriving(email)
    expect(mail.text).toContain(`${ORIGIN}/il-he/newsletter/confirm/`)
    expect(mail.html).toMatch(/<html lang="he" dir="rtl">/)
    expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    const link = unsubscribeLinkIn(mail.headers?.['List-Unsubscribe'])
    expect(link).toMatch(/^https:\/\/site\.test\/il-he\/newsletter\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
    expect(mail.html).toContain(`href="${link}"`)
    expect(mail.html).toContain(hebrew.mail.unsubscribe)
    // The row keeps what left: the console's outbox still shows the text.
    const row = await env.DB.prepare('SELECT body, html, headers FROM outbox WHERE recipient = ?')
      .bind(email)
      .first<{ body: string; html: string; headers: string }>()
    expect(row?.html).toBe(mail.html)
    expect(JSON.parse(row?.headers ?? '{}')).toEqual(mail.headers)
  })

  it('shows a page with one button to a GET, and unsubscribes by the POST of a mail program from anywhere', async () => {
    const email = newAddress()
    await sendForm('/il-he/newsletter', 'newsletter', { email, consent: 'on' })
    const row = await env.DB.prepare('SELECT body, headers FROM outbox WHERE recipient = ?')
      .bind(email)
      .first<{ body: string; headers: string }>()
    const confirm = /\/il-he\/newsletter\/confirm\/[A-Za-z0-9_-]{43}/.exec(row?.body ?? '')?.[0] ?? ''
    expect((await visit(confirm, formPost({}))).status).toBe(303)
    expect(await subscriberOf(email)).toBe(email)
    const path = new URL(unsubscribeLinkIn(JSON.parse(row?.headers ?? '{}')['List-Unsubscribe'])).pathname

    // A link scanner's GET unsubscribes nobody: the page, in Hebrew, asks.
    const page = await visit(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toMatch(/no-store|private/)
    expect(textOf(page.text)).toContain(hebrew.newsletter.unsubscribe_title)
    expect(page.text).toContain(email)
    expect(page.text).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click"/>')
    expect(textOf(page.text)).toContain(hebrew.newsletter.unsubscribe_submit)
    expect(await subscriberOf(email)).toBe(email)

    const posted = await visit(path, oneClick())
    expect(posted.status).toBe(200)
    expect(textOf(posted.text)).toContain(hebrew.newsletter.unsubscribed_title)
    expect(await subscriberOf(email)).toBeNull()
    // Twice is harmless.
    expect((await visit(path, oneClick())).status).toBe(200)
  })

  it('refuses a forged token, one of another market or address, with 404, and unsubscribes nobody', async () => {
    const email = newAddress()
    await sendForm('/il-he/newsletter', 'newsletter', { email, consent: 'on' })
    const headers = await env.DB.prepare('SELECT headers FROM outbox WHERE recipient = ?')
      .bind(email)
      .first<string>('headers')
    const path = new URL(unsubscribeLinkIn(JSON.parse(headers ?? '{}')['List-Unsubscribe'])).pathname
    const [address, signature] = (path.split('/').pop() ?? '').split('.') as [string, string]
    const forged = [
      path.replace(`.${signature}`, `.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`),
      path.replace('/il-he/', '/it-it/'),
      path.replace(address, btoa('someone.else@example.com').replace(/=+$/, '')),
      `/il-he/newsletter/unsubscribe/${address}`,
      `/il-he/newsletter/unsubscribe/${signature}`,
    ]
    for (const attempt of forged) {
      expect((await visit(attempt)).status, attempt).toBe(404)
      expect((await visit(attempt, oneClick())).status, attempt).toBe(404)
    }
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM newsletter_requests WHERE email = ?').bind(email).first('n'),
    ).toBe(1)
  })
})
