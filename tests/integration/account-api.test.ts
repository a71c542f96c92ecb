import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { MAX_ADDRESSES } from '../../reference-api/resources/addresses'
import { addressesAnswer, bikesAnswer, orderAnswer, ordersAnswer } from '../../contract/account-schemas'

/** Calls the embedded API in-process, as the Worker does, and waits for the work it left in the background. */
async function call(
  path: string,
  { token, method = 'GET', body }: { token?: string; method?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { 'X-Tenant': 'it', 'X-Locale': 'it' }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const request = new Request(`http://embedded.invalid/api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const ctx = createExecutionContext()
  const response = await api.fetch(request as Parameters<typeof api.fetch>[0], env, ctx)
  const json = (await response.json().catch(() => null)) as Record<string, unknown> & { data?: unknown }
  await waitOnExecutionContext(ctx)
  return { status: response.status, json }
}

async function tokenOf(email: string, password: string): Promise<string> {
  const { json } = await call('auth/login', { method: 'POST', body: { email, password } })
  return json.access_token as string
}

let giulia = ''
let lukas = ''
beforeAll(async () => {
  giulia = await tokenOf('customer@example.com', 'Demo-Rider-2026!')
  lukas = await tokenOf('second@example.com', 'Second-Rider-2026!')
})

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Bianchi',
  line1: 'Via Roma 1',
  postal_code: '20100',
  city: 'Milano',
  country_code: 'it',
}

describe('the account API', () => {
  it('answers 401 to every account call without a valid token', async () => {
    for (const [method, path] of [
      ['GET', 'account/profile'],
      ['GET', 'account/addresses'],
      ['POST', 'account/addresses'],
      ['GET', 'account/addresses/1'],
      ['PUT', 'account/addresses/1'],
      ['DELETE', 'account/addresses/1'],
      ['POST', 'account/addresses/1/default'],
      ['GET', 'account/bikes'],
      ['POST', 'account/bikes'],
      ['GET', 'account/bike-models'],
      ['GET', 'account/orders'],
      ['GET', 'account/orders/AUR-10001'],
      ['GET', 'account/cart'],
      ['POST', 'account/cart/items'],
      ['PUT', 'account/cart/items/x'],
      ['DELETE', 'account/cart/items/x'],
      ['POST', 'account/cart/merge'],
      ['GET', 'account/checkout/x'],
      ['PUT', 'account/checkout/x'],
      ['POST', 'account/checkout/x/orders'],
      ['POST', 'account/orders/AUR-10001/payment-attempts'],
      ['PUT', 'account/orders/AUR-10001/payment'],
      ['POST', 'auth/logout'],
    ] as const) {
      expect((await call(path, { method, body: method === 'GET' ? undefined : {} })).status, `${method} ${path}`).toBe(
        401,
      )
      expect(
        (await call(path, { method, token: 'x'.repeat(43), body: method === 'GET' ? undefined : {} })).status,
      ).toBe(401)
    }
  })

  it('pages the orders by keyset when asked with a cursor: to the end with no order twice or missed when times are equal, a forged cursor a 400', async () => {
    const userId =
      (await env.DB.prepare("SELECT id FROM users WHERE email = 'second@example.com'").first<number>('id')) ?? 0
    for (let i = 0; i < 6; i++) {
      await env.DB.prepare(
        `INSERT INTO orders (code, user_id, market, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
         VALUES (?, ?, 'it-it', 'paid', 'EUR', 1000, 1000, '{}', 'home', 'card', 'paid', ?)`,
      )
        .bind(`KEY-${i}`, userId, `2025-03-0${1 + Math.floor(i / 3)}T10:00:00Z`)
        .run()
    }
    const everything = ordersAnswer.parse((await call('account/orders?per_page=50', { token: lukas })).json)
    const walked: string[] = []
    let cursor = ''
    for (let pages = 0; pages < 20; pages++) {
      const { status, json } = await call(`account/orders?per_page=2&cursor=${cursor}`, { token: lukas })
      expect(status).toBe(200)
      const answer = ordersAnswer.parse(json)
      expect(answer.meta).not.toHaveProperty('total')
      walked.push(...answer.data.map((order) => order.code))
      if (!('next_cursor' in answer.meta) || !answer.meta.next_cursor) break
      cursor = answer.meta.next_cursor
    }
    expect(walked).toEqual(everything.data.map((order) => order.code))
    expect(walked.filter((code) => code.startsWith('KEY-'))).toHaveLength(6)
    for (const forged of ['%%%', 'bm90LWEtY3Vyc29y', 'MjAyNS0wMy0wMVQxMDowMDowMFp8MA']) {
      expect((await call(`account/orders?cursor=${forged}`, { token: lukas })).status, forged).toBe(400)
    }
  })

  it("answers each customer their own data only, in the contract's shapes", async () => {
    const mine = addressesAnswer.parse((await call('account/addresses', { token: giulia })).json)
    const theirs = addressesAnswer.parse((await call('account/addresses', { token: lukas })).json)
    expect(mine.data.map((a) => a.id)).not.toContain(theirs.data[0]?.id)
    expect(mine.data[0]?.is_default).toBe(true)
    const orders = ordersAnswer.parse((await call('account/orders?per_page=50', { token: giulia })).json)
    expect(orders.data.map((o) => o.code)).not.toContain('AUR-10008')
    expect(orders.meta).toEqual({ page: 1, per_page: 50, total: orders.data.length })
    const bikes = bikesAnswer.parse((await call('account/bikes', { token: lukas })).json)
    expect(bikes.data).toHaveLength(1)
    const order = orderAnswer.parse((await call('account/orders/AUR-10003', { token: giulia })).json)
    expect(order.data.total).toBe(order.data.subtotal + order.data.shipping)
    expect(order.data.timeline.at(-1)?.status).toBe(order.data.status)
  })

  it("answers 404 for another customer's address or order, by id or code, and changes nothing", async () => {
    const theirs = (await env.DB.prepare('SELECT * FROM addresses WHERE user_id = 2').first()) as { id: number }
    for (const [method, path, body] of [
      ['GET', `account/addresses/${theirs.id}`, undefined],
      ['PUT', `account/addresses/${theirs.id}`, ADDRESS],
      ['DELETE', `account/addresses/${theirs.id}`, undefined],
      ['POST', `account/addresses/${theirs.id}/default`, undefined],
      ['GET', 'account/orders/AUR-10008', undefined],
    ] as const) {
      expect((await call(path, { method, token: giulia, body })).status, `${method} ${path}`).toBe(404)
    }
    expect(await env.DB.prepare('SELECT * FROM addresses WHERE id = ?').bind(theirs.id).first()).toEqual(theirs)
  })

  it('refuses invalid input with 422 and the message keys per field', async () => {
    const { status, json } = await call('account/addresses', {
      method: 'POST',
      token: giulia,
      body: { ...ADDRESS, city: '', country_code: 'ITA' },
    })
    expect(status).toBe(422)
    expect(json.errors).toEqual({ city: ['required'], country_code: ['country'] })
    for (const body of [null, 'text', [1], { ...ADDRESS, first_name: 42 }]) {
      expect((await call('account/addresses', { method: 'POST', token: giulia, body })).status).toBe(422)
    }
  })

  it('keeps at most a fixed number of addresses per account', async () => {
    const token = await tokenOf('second@example.com', 'Second-Rider-2026!')
    const statuses: number[] = []
    for (let i = 0; i < MAX_ADDRESSES; i++)
      statuses.push((await call('account/addresses', { method: 'POST', token, body: ADDRESS })).status)
    expect(statuses.filter((s) => s === 422)).toHaveLength(1)
    const { json } = await call('account/addresses', { method: 'POST', token, body: ADDRESS })
    expect(json.code).toBe('too_many_addresses')
  })

  it('refuses a purchase date the calendar does not have with 422 "date", and takes a leap day', async () => {
    for (const purchased_on of ['2025-02-31', '2023-02-29', '2025-11-31', '2025-13-01', '2025-01-00']) {
      const { status, json } = await call('account/bikes', {
        method: 'POST',
        token: lukas,
        body: { serial_number: 'AUR26API00031', product_id: 9, purchased_on },
      })
      expect(status, purchased_on).toBe(422)
      expect(json.errors).toEqual({ purchased_on: ['date'] })
    }
    const leap = await call('account/bikes', {
      method: 'POST',
      token: lukas,
      body: { serial_number: 'AUR26API00031', product_id: 9, purchased_on: '2024-02-29' },
    })
    expect(leap.status).toBe(201)
    expect(leap.json.data).toMatchObject({ purchased_on: '2024-02-29' })
  })

  it("gives a frame serial number to one account: 409 serial_unavailable for someone else's, which names no account, serial_registered for one's own", async () => {
    const serial = 'AUR26API00001'
    const bike = { serial_number: serial, product_id: 9, purchased_on: '2026-01-10' }
    expect((await call('account/bikes', { method: 'POST', token: giulia, body: bike })).status).toBe(201)
    const taken = await call('account/bikes', { method: 'POST', token: lukas, body: bike })
    expect(taken.status).toBe(409)
    expect(taken.json).toEqual({
      message: 'serial unavailable',
      code: 'serial_unavailable',
      errors: { serial_number: ['serial_unavailable'] },
    })
    expect((await call('account/bikes', { method: 'POST', token: giulia, body: bike })).json.code).toBe(
      'serial_registered',
    )
    expect(
      (
        await call('account/bikes', {
          method: 'POST',
          token: giulia,
          body: { ...bike, serial_number: 'AUR26API00002', product_id: 15 },
        })
      ).status,
    ).toBe(422)
  })

  it('revokes the token on logout', async () => {
    const token = await tokenOf('customer@example.com', 'Demo-Rider-2026!')
    expect((await call('auth/logout', { method: 'POST', token, body: {} })).status).toBe(200)
    expect((await call('auth/user', { token })).status).toBe(401)
    expect((await call('account/profile', { token })).status).toBe(401)
  })

  it('checks forgot-password input and never mails a link to another site', async () => {
    for (const link_base of ['https://evil.example/', 'javascript:alert(1)', 'https://site.test/it-it/other/']) {
      const { status } = await call('auth/forgot-password', {
        method: 'POST',
        body: { email: 'customer@example.com', link_base },
      })
      expect(status, link_base).toBe(422)
    }
    const ok = await call('auth/forgot-password', {
      method: 'POST',
      body: { email: 'customer@example.com', link_base: 'https://site.test/it-it/update-password/' },
    })
    expect(ok.status).toBe(202)
  })

  it('answers 404 for unknown or malformed reset tokens and 422 for a weak new password', async () => {
    expect((await call(`auth/reset-password/${'x'.repeat(43)}`)).status).toBe(404)
    expect((await call('auth/reset-password/..')).status).toBe(404)
    const weak = await call('auth/reset-password', {
      method: 'POST',
      body: { token: 'x'.repeat(43), password: 'short' },
    })
    expect(weak.status).toBe(422)
    expect(weak.json.errors).toEqual({ password: ['password_rules'] })
    expect(
      (
        await call('auth/reset-password', {
          method: 'POST',
          body: { token: 'x'.repeat(43), password: 'Long-Enough-2026' },
        })
      ).status,
    ).toBe(404)
  })
})
