import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { testProvider } from '../../src/payments/test-provider'
import { consoleLogin, demoStaff } from '../fixtures/console'
import { BILLING_ADDRESS } from '../fixtures/orders'
import { formPost, logIn, visitAs } from '../fixtures/session'
import { ORIGIN, textOf, visit } from '../fixtures/worker'

/** The webhook secret vitest.config.ts gives the Worker. */
const SECRET = 'test-only-payment-webhook-secret'
const plain = (html: string) => textOf(html).replace(/\s+/g, ' ')
const randomKey = () => crypto.randomUUID().replace(/-/g, '')

let editor = ''
let customer = ''
beforeAll(async () => {
  editor = await consoleLogin('editor')
  customer = await logIn()
})

let placed = 0
type Placement = { total?: number; currency?: string; method?: string; delivery?: 'home' | 'pickup'; market?: string }

/** An order of the demo customer as placement leaves it: pending payment. */
async function placeOrder({
  total = 174900,
  currency = 'EUR',
  method = 'card',
  delivery = 'home',
  market = 'it-it',
}: Placement = {}): Promise<string> {
  const code = `AUR-ORD${++placed}-${Date.now() % 100000}`
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO orders (code, user_id, market, locale, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
       VALUES (?, 1, ?, 'it', 'pending_payment', ?, ?, ?, ?, ?, ?, 'pending', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    ).bind(code, market, currency, total, total, BILLING_ADDRESS, delivery, method),
    env.DB.prepare(
      `INSERT INTO order_items (order_id, position, name, quantity, unit_price) SELECT id, 1, 'Aurora Strada 9', 1, ? FROM orders WHERE code = ?`,
    ).bind(total, code),
    env.DB.prepare(
      `INSERT INTO order_events (order_id, status, at) SELECT id, 'pending_payment', placed_at FROM orders WHERE code = ?`,
    ).bind(code),
  ])
  return code
}

/** An order paid through the test provider: its payment created, then "succeed" pressed on the provider's page. */
async function paidOrder(placement: Placement = {}): Promise<string> {
  const code = await placeOrder(placement)
  const order = await orderRow(code)
  const payment = await testProvider(env.DB, SECRET, ORIGIN).createPayment({
    orderCode: code,
    amount: order.total,
    currency: order.currency,
    market: 'it-it',
    returnUrl: `${ORIGIN}/it-it/checkout/${code}/result`,
    idempotencyKey: randomKey(),
    description: `Aurora Cycles order ${code}`,
  })
  const pressed = await visit(`/_test-payments/${payment.paymentId}`, formPost({ action: 'succeed' }))
  expect(pressed.status).toBe(303)
  expect((await orderRow(code)).status).toBe('paid')
  return code
}

const orderRow = (code: string) =>
  env.DB.prepare(
    'SELECT status, payment_state, total, currency, refunded, carrier, tracking_code FROM orders WHERE code = ?',
  )
    .bind(code)
    .first<{
      status: string
      payment_state: string
      total: number
      currency: string
      refunded: number
      carrier: string | null
      tracking_code: string | null
    }>()
    .then((row) => {
      if (!row) throw new Error(`no order ${code}`)
      return row
    })

const actionsOf = async (code: string) =>
  (
    await env.DB.prepare(
      `SELECT a.action, s.name AS staff FROM order_actions a JOIN orders o ON o.id = a.order_id
        LEFT JOIN staff_users s ON s.id = a.staff_id WHERE o.code = ? ORDER BY a.id`,
    )
      .bind(code)
      .all<{ action: string; staff: string | null }>()
  ).results

const mailsOf = async (kind: string, code: string) =>
  (
    await env.DB.prepare('SELECT recipient, subject, body FROM outbox WHERE kind = ? AND body LIKE ? ORDER BY id')
      .bind(kind, `%${code}%`)
      .all<{ recipient: string; subject: string; body: string }>()
  ).results

/** Staff post a console form of an order. */
const act = (code: string, action: string, fields: Record<string, string> = {}, cookie = editor) =>
  visit(`/_console/orders/${code}/${action}`, formPost(fields, { Cookie: cookie }))
const consolePage = (path: string, cookie = editor) => visit(path, { headers: { Cookie: cookie } })

describe("the console's orders", () => {
  it('lists orders by market, state and date, newest first, for editors only', async () => {
    const older = await placeOrder({ market: 'de-de' })
    const newer = await placeOrder()
    const all = await consolePage('/_console/orders')
    expect(all.status).toBe(200)
    expect(all.text.indexOf(newer)).toBeLessThan(all.text.indexOf(older))
    const italy = plain((await consolePage('/_console/orders?market=it&status=pending_payment')).text)
    expect(italy).toContain(newer)
    expect(italy).not.toContain(older)
    expect(plain((await consolePage('/_console/orders?from=2001-01-01&to=2001-01-31')).text)).toContain(
      'No order matches these filters.',
    )
    const handler = await consoleLogin('case_handler')
    expect((await consolePage('/_console/orders', handler)).status).toBe(403)
    expect((await act(newer, 'cancel', {}, handler)).status).toBe(403)
  })

  it('shows one order with its lines, totals, payment and timeline', async () => {
    const code = await placeOrder()
    const page = await consolePage(`/_console/orders/${code}`)
    expect(page.status).toBe(200)
    const text = plain(page.text)
    expect(text).toContain('Aurora Strada 9')
    expect(text).toContain('EUR 1,749.00')
    expect(text).toContain('State: Awaiting payment')
    expect((await consolePage('/_console/orders/AUR-NOPE')).status).toBe(404)
  })

  it('marks a bank transfer paid only for the amount due, and records who did it', async () => {
    const code = await placeOrder({ method: 'bank_transfer' })
    const malformed = await act(code, 'paid', { amount: 'a lot' })
    expect(malformed.status).toBe(422)
    expect(plain(malformed.text)).toContain('Type the amount received in EUR')
    const wrong = await act(code, 'paid', { amount: '1749.50' })
    expect(wrong.status).toBe(409)
    expect(plain(wrong.text)).toContain('The amount received is not the amount due.')
    expect((await orderRow(code)).status).toBe('pending_payment')
    const right = await act(code, 'paid', { amount: '1749,00' })
    expect(right.status).toBe(303)
    expect(right.headers.get('Location')).toBe(`/_console/orders/${code}?done=paid`)
    expect(await orderRow(code)).toMatchObject({ status: 'paid', payment_state: 'paid' })
    expect(await actionsOf(code)).toEqual([{ action: 'marked_paid', staff: demoStaff('editor').name }])
    expect(await mailsOf('order_confirmation', code)).toHaveLength(1)
    const again = await act(code, 'paid', { amount: '1749.00' })
    expect(again.status).toBe(409)
    expect(plain(again.text)).toContain('Only an order waiting for a bank transfer can be marked paid.')
    const card = await placeOrder()
    expect((await act(card, 'paid', { amount: '1749.00' })).status).toBe(409)
  })

  it('ships a paid order with a tracking number: the customer gets a mail and sees a tracking link', async () => {
    const unpaid = await placeOrder()
    expect((await act(unpaid, 'ship', { carrier: 'ups', tracking_code: '1Z999AA10123456784' })).status).toBe(409)
    const code = await paidOrder()
    const wrong = await act(code, 'ship', { carrier: 'ups', tracking_code: 'no' })
    expect(wrong.status).toBe(422)
    expect(plain(wrong.text)).toContain('Type the tracking number')
    const right = await act(code, 'ship', { carrier: 'ups', tracking_code: '1Z999AA10123456784' })
    expect(right.status).toBe(303)
    expect(await orderRow(code)).toMatchObject({
      status: 'shipped',
      carrier: 'ups',
      tracking_code: '1Z999AA10123456784',
    })
    const [mail] = await mailsOf('order_shipped', code)
    expect(mail?.subject).toBe(`Il Suo ordine Aurora Cycles ${code} è in viaggio`)
    expect(mail?.body).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784')
    expect(mail?.body).toContain(`${ORIGIN}/it-it/my-account/orders/${code}`)
    expect((await act(code, 'ship', { carrier: 'dhl', tracking_code: 'ABCD1234' })).status).toBe(409)
    const page = await visitAs(customer, `/it-it/my-account/orders/${code}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('href="https://www.ups.com/track?tracknum=1Z999AA10123456784"')
    expect(plain(page.text)).toContain('Segua il pacco (UPS)')
    const timeline = plain((await consolePage(`/_console/orders/${code}`)).text)
    expect(timeline).toContain(`Shipped with UPS, tracking number 1Z999AA10123456784 by ${demoStaff('editor').name}`)
  })

  it('cancels an unpaid order and refuses to cancel a paid one', async () => {
    const paid = await paidOrder({ delivery: 'pickup' })
    const refused = await act(paid, 'cancel')
    expect(refused.status).toBe(409)
    expect(plain(refused.text)).toContain('Only an order that is not paid can be cancelled.')
    // Its payment still open at the provider is closed: the buyer can no longer pay it.
    const code = await placeOrder()
    const provider = testProvider(env.DB, SECRET, ORIGIN)
    const { paymentId } = await provider.createPayment({
      orderCode: code,
      amount: 174900,
      currency: 'EUR',
      market: 'it-it',
      returnUrl: `${ORIGIN}/it-it/checkout/${code}/result`,
      idempotencyKey: randomKey(),
      description: `Aurora Cycles order ${code}`,
    })
    await env.DB.prepare('UPDATE orders SET payment_id = ? WHERE code = ?').bind(paymentId, code).run()
    expect((await act(code, 'cancel')).status).toBe(303)
    expect((await orderRow(code)).status).toBe('cancelled')
    expect(await provider.paymentStatus(paymentId)).toBe('cancelled')
    expect((await actionsOf(code)).map((row) => row.action)).toEqual(['cancelled'])
  })

  it('refunds part, then the rest, through the provider: pending until its webhook confirms, never above what is left', async () => {
    const unpaid = await placeOrder()
    expect((await act(unpaid, 'refund', { refund_amount: '10' })).status).toBe(409)
    const code = await paidOrder()
    const malformed = await act(code, 'refund', { refund_amount: '-5' })
    expect(malformed.status).toBe(422)
    const part = await act(code, 'refund', { refund_amount: '250.00' })
    expect(part.status).toBe(303)
    expect(await orderRow(code)).toMatchObject({ status: 'paid', payment_state: 'paid', refunded: 25000 })
    const [refundMail] = await mailsOf('order_refunded', code)
    expect(refundMail?.body).toMatch(/250,00\s?€/)
    const partly = await visitAs(customer, `/it-it/my-account/orders/${code}`)
    expect(plain(partly.text)).toMatch(/Rimborsato: 250,00\s?€/)
    const tooMuch = await act(code, 'refund', { refund_amount: '1500.00' })
    expect(tooMuch.status).toBe(409)
    expect(plain(tooMuch.text)).toContain('The refund is more than what was paid and not yet refunded.')
    expect((await act(code, 'refund', { refund_amount: '1499.00' })).status).toBe(303)
    expect(await orderRow(code)).toMatchObject({ status: 'refunded', payment_state: 'refunded', refunded: 174900 })
    expect((await actionsOf(code)).map((row) => `${row.action}:${row.staff ?? 'provider'}`)).toEqual([
      `refund_requested:${demoStaff('editor').name}`,
      'refund_confirmed:provider',
      `refund_requested:${demoStaff('editor').name}`,
      'refund_confirmed:provider',
    ])
    // Each refund's webhook settled once, its outcome recorded: the provider's delivery was answered 200.
    const outcomes = await env.DB.prepare(
      `SELECT outcome FROM webhook_events WHERE order_code = ? AND type = 'payment.refunded' ORDER BY received_at`,
    )
      .bind(code)
      .all<{ outcome: string }>()
    expect(outcomes.results).toEqual([{ outcome: 'refunded' }, { outcome: 'refunded' }])
    const page = plain((await consolePage(`/_console/orders/${code}`)).text)
    expect(page).toContain('Confirmed by the provider')
    expect(page).toContain('Refund of EUR 250.00 confirmed by the payment provider')
    expect((await act(code, 'refund', { refund_amount: '1' })).status).toBe(409)
  })
})
