import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, inject, it } from 'vitest'
import italian from '../../demo/messages/it.json'
import standalone from '../../reference-api/worker'
import { WORKER_CUSTOMER_HEADER } from '../../contract/worker-customer'
import { MARKET_COOKIE } from '../../src/market/remembered-market'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { formPost, nextClient, sessionIdOf, visitAs } from '../fixtures/session'
import { clearCaches, textOf, visit } from '../fixtures/worker'

/**
 * The shop held by the Worker on D1 (`UPSTREAM_HOLD`, docs/decisions/043) over the stand-in of the brand's backend
 * (tests/fixtures/original-backend.mjs, the original's eight calls only, `UPSTREAM_AREAS=none`): products, prices and
 * stock from D1, login and the user from the backend, the order placed in D1 under the backend's user.
 */
const backend = { UPSTREAM_URL: inject('originalBackendUrl'), UPSTREAM_AREAS: 'none' }
const held = { ...backend, UPSTREAM_HOLD: 'catalogue,cart-checkout' }
const IT = 'it-it'

/** A backend's user as the Worker would vouch for them, sent by someone else. */
const FORGED = JSON.stringify({
  backend_id: '999',
  email: 'customer@example.com',
  name: 'Giulia Rossi',
  first_name: 'Giulia',
  last_name: 'Rossi',
  email_confirmed: true,
})

let keys = 0
const formKey = () => `held-shop-${Date.now()}-${keys++}-abcdefghijk`

/** Logs Giulia in through the stand-in (her Laravel password), with the held shop: her session's id. */
async function logInGiulia(): Promise<string> {
  const login = await visit(
    '/login',
    formPost(
      { email: 'customer@example.com', password: ORIGINAL_PASSWORD, market: IT },
      { 'CF-Connecting-IP': nextClient(), Cookie: `${MARKET_COOKIE}=${IT}` },
    ),
    held,
  )
  expect(login.status).toBe(303)
  return sessionIdOf(login.headers) as string
}

/** A hidden field's value in a page (`form_token`, `review_key`). */
const hidden = (html: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? ''

/** The D1 user the backend's user `backendId` buys as, or null before their first held call. */
const heldUserOf = (backendId: string) =>
  env.DB.prepare('SELECT user_id, email FROM backend_customers WHERE backend_id = ?')
    .bind(backendId)
    .first<{ user_id: number; email: string }>()

const SERVICE_TOKEN = 'test-only-service-token'

/** One call to the reference API as a Worker of its own (reference-api/worker.ts), knowing the Worker's service token. */
async function callStandalone(path: string, init: RequestInit) {
  const ctx = createExecutionContext()
  const request = new Request(`http://127.0.0.1:8788${path}`, init)
  const response = await standalone.fetch(
    request as Parameters<typeof standalone.fetch>[0],
    { ...env, UPSTREAM_SERVICE_TOKEN: SERVICE_TOKEN },
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return response
}

beforeEach(clearCaches)

describe("the shop held on D1 over the brand's backend (UPSTREAM_HOLD)", () => {
  it('serves product pages with their price and buy box, and the cart, from D1', async () => {
    const product = await visit(`/${IT}/products/aurora-strada-9`, {}, held)
    expect(product.status).toBe(200)
    expect(product.text).toContain(`action="/${IT}/cart/items"`)
    expect(textOf(product.text)).toContain('4290,00\u00a0€')
    const cart = await visit(`/${IT}/cart`, {}, held)
    expect(cart.status).toBe(200)
    expect(cart.text).toContain(`href="/${IT}/cart"`)
  })

  it('keeps cart and checkout off without the variable: their paths 404, no link, no buy box', async () => {
    for (const path of [`/${IT}/cart`, `/${IT}/checkout/${'A'.repeat(32)}`])
      expect((await visit(path, {}, backend)).status, path).toBe(404)
    const product = await visit(`/${IT}/products/aurora-strada-9`, {}, backend)
    expect(product.status).toBe(200)
    expect(product.text).not.toContain(`action="/${IT}/cart/items"`)
    expect((await visit(`/${IT}`, {}, backend)).text).not.toContain(`href="/${IT}/cart"`)
  })

  it('refuses holding cart-checkout without the catalogue (config_invalid): the cart stays off', async () => {
    const cartOnly = { ...backend, UPSTREAM_HOLD: 'cart-checkout' }
    expect((await visit(`/${IT}/cart`, {}, cartOnly)).status).toBe(404)
  })

  it('lets a plain Laravel user log in, add, check out and pay (test provider): the order is in D1 under that user, in their orders', async () => {
    const giulia = await logInGiulia()
    const added = await visitAs(
      giulia,
      `/${IT}/cart/items`,
      formPost({ sku: 'STR9-M-RED', quantity: '1', key: formKey(), product: 'aurora-strada-9' }),
      held,
    )
    expect(added.status).toBe(303)
    const customer = await heldUserOf('1')
    expect(customer).toMatchObject({ email: 'customer@example.com' })
    const cart = await env.DB.prepare('SELECT code FROM carts WHERE user_id = ? AND site = ?')
      .bind(customer?.user_id, 'it')
      .first<{ code: string }>()
    const code = cart?.code ?? ''
    const form = await visitAs(giulia, `/${IT}/checkout/${code}`, {}, held)
    expect(form.status).toBe(200)
    const sent = await visitAs(
      giulia,
      `/${IT}/checkout/${code}`,
      formPost({
        delivery: 'home',
        ship_choice: 'new',
        ship_first_name: 'Giulia',
        ship_last_name: 'Rossi',
        ship_line1: 'Via Tasso 8',
        ship_postal_code: '24121',
        ship_city: 'Bergamo',
        ship_country_code: 'IT',
        ship_phone: '+39 035 555 0199',
        billing_same: 'on',
        payment_method: 'card',
        form_token: hidden(form.text, 'form_token'),
      }),
      held,
    )
    expect(sent.status, textOf(sent.text).slice(0, 300)).toBe(303)
    const review = await visitAs(giulia, `/${IT}/checkout/${code}/review`, {}, held)
    expect(review.status).toBe(200)
    const placed = await visitAs(
      giulia,
      `/${IT}/checkout/${code}/review`,
      formPost({ review_key: hidden(review.text, 'review_key'), form_token: hidden(review.text, 'form_token') }),
      held,
    )
    expect(placed.status).toBe(303)
    const payment = new URL(placed.headers.get('Location') ?? '').pathname
    expect(payment).toMatch(/^\/_test-payments\/tp_[0-9a-f]{24}$/)
    const paid = await visit(payment, formPost({ action: 'succeed' }), held)
    expect(paid.status).toBe(303)
    const order = await env.DB.prepare(
      'SELECT code, user_id, status FROM orders WHERE cart_id = (SELECT id FROM carts WHERE code = ?)',
    )
      .bind(code)
      .first<{ code: string; user_id: number; status: string }>()
    expect(order).toMatchObject({ user_id: customer?.user_id, status: 'paid' })
    // Not the embedded API's own account of the same address (the demo's Giulia): a customer of the backend's.
    const own = await env.DB.prepare('SELECT id FROM users WHERE email = ?')
      .bind('customer@example.com')
      .first<number>('id')
    expect(order?.user_id).not.toBe(own)
    const orders = await visitAs(giulia, `/${IT}/my-account/orders`, {}, held)
    expect(orders.status).toBe(200)
    expect(orders.text).toContain(order?.code ?? 'no order')
  })

  it('refuses an unknown SKU cleanly with the product page\'s "not available" message', async () => {
    const json = await visit(
      `/${IT}/cart/items`,
      formPost({ sku: 'NOT-A-SKU-9', quantity: '1', key: formKey() }, { Accept: 'application/json' }),
      held,
    )
    expect(json.status).toBe(422)
    expect((JSON.parse(json.text) as { message: string }).message).toBe(italian.cart.unavailable)
    const form = await visit(
      `/${IT}/cart/items`,
      formPost({ sku: 'NOT-A-SKU-9', quantity: '1', key: formKey(), product: 'aurora-strada-9' }),
      held,
    )
    expect(form.status).toBe(303)
    // The message rides the one-time notice cookie to the page it goes back to (docs/decisions/060).
    const notice = form.headers.getSetCookie().find((cookie) => cookie.startsWith('__Host-Notice='))
    const back = await visit(
      form.headers.get('Location') ?? '',
      { headers: { Cookie: notice?.split(';')[0] ?? '' } },
      held,
    )
    expect(back.status).toBe(200)
    expect(textOf(back.text)).toContain(italian.cart.unavailable)
  })

  it('never takes a customer from a browser: a forged identity header is ignored, in-process and over HTTP', async () => {
    const forged = { [WORKER_CUSTOMER_HEADER]: FORGED }
    const anonymous = await visit(`/${IT}/my-account/orders`, { headers: forged }, held)
    expect(anonymous.status).toBe(302)
    expect((await visit('/api/account/orders', { headers: forged })).status).toBe(401)
    const overHttp = (authorization: string) =>
      callStandalone('/api/account/orders', { headers: { ...forged, Authorization: authorization } })
    expect((await overHttp('Bearer not-the-service-token')).status).toBe(401)
    expect(await heldUserOf('999')).toBeNull()
    // The Worker's own call, with its service token, is taken.
    expect((await overHttp(`Bearer ${SERVICE_TOKEN}`)).status).toBe(200)
    expect(await heldUserOf('999')).toMatchObject({ email: 'customer@example.com' })
  })
})
