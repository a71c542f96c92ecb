import type { APIRequestContext, BrowserContext, Page } from '@playwright/test'
import { addToCart } from './fixtures/cart'
import { createAccount, logIn, remember } from './fixtures/customer'
import { sendForm } from './fixtures/forms'
import { expect, problemsOf, recordProblems, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import { checkPage } from './fixtures/page-checks'
import italian from '../../demo/messages/it.json' with { type: 'json' }

/**
 * The embedded test provider's page in Chromium. A new customer's order waiting for its payment is placed by request,
 * as checkout posts it (checkout.spec.ts walks the same way in the browser); what the payment did to the order is read
 * where the customer reads it, on the order's page in the account.
 */

/**
 * A new customer in it-it (created and logged in by request) who orders the Strada 9 (M, red: €4,290.00, picked up at
 * a dealer) and places it: answers the test payment's page the order was sent to, and the checkout's result page.
 */
async function orderWaitingForPayment(
  page: Page,
  context: BrowserContext,
  baseURL: string,
  outbox: Outbox,
): Promise<{ payment: string; result: string }> {
  const account = {
    email: `e2e-payment-${Date.now()}@example.com`,
    password: 'Gravel-Roads-2027',
    first_name: 'Chiara',
    last_name: 'Bianchi',
  }
  await remember(context, 'it-it', baseURL)
  await createAccount(page.request, baseURL, outbox, account)
  await logIn(page.request, baseURL, account)
  expect(await addToCart(page.request, baseURL, 'it-it', 'aurora-strada-9', 'STR9-M-RED')).toBe(true)
  const checkout = /href="(\/it-it\/checkout\/[A-Za-z0-9_-]{32})"/.exec(
    await (await page.request.get('/it-it/cart')).text(),
  )?.[1]
  expect(checkout, 'the cart leads to checkout').toBeTruthy()
  const chosen = await sendForm(
    page.request,
    baseURL,
    checkout!,
    {
      delivery: 'pickup',
      dealer: 'cicli-bergamasca',
      bill_choice: 'new',
      bill_first_name: 'Chiara',
      bill_last_name: 'Bianchi',
      bill_line1: 'Via Tasso 8',
      bill_postal_code: '24121',
      bill_city: 'Bergamo',
      bill_phone: '+39 035 555 0199',
      payment_method: 'card',
    },
    checkout!,
  )
  expect(chosen.headers().location, 'the checkout form leads to the review').toBe(`${checkout}/review`)
  const placed = await sendForm(page.request, baseURL, `${checkout}/review`, {}, `${checkout}/review`)
  const payment = new URL(placed.headers().location ?? '', baseURL).pathname
  expect(payment, 'placing the order leads to the test payment').toMatch(/^\/_test-payments\/tp_[0-9a-f]{24}$/)
  return { payment, result: `${checkout}/result` }
}

/** The order's status and its payment's state, as the customer's order page shows them (the account's only order). */
async function expectOrderShows(
  page: Page,
  request: APIRequestContext,
  status: string,
  payment: keyof typeof italian.payment_state,
) {
  const code = /\/it-it\/my-account\/orders\/(AUR-[0-9A-Z]+)/.exec(
    await (await request.get('/it-it/my-account/orders')).text(),
  )?.[1]
  expect(code, 'the order in the account').toBeTruthy()
  await page.goto(`/it-it/my-account/orders/${code}`)
  await expect(page.locator('.meta .status')).toHaveClass(`status status-${status}`)
  await expect(page.locator('section[aria-labelledby="payment-title"] p')).toHaveText(
    `${italian.payment_method.card} · ${italian.payment_state[payment]}`,
  )
}

test.beforeEach(({ page }) => recordProblems(page))

test('the test payment page says no money moves, passes axe at 390 and 1280 px, and paying settles the order by its webhook', async ({
  page,
  context,
  baseURL,
  outbox,
}) => {
  const { payment, result } = await orderWaitingForPayment(page, context, baseURL!, outbox)
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    const answer = await page.goto(payment)
    expect(answer?.status()).toBe(200)
    await expect(page.getByText('TEST PAYMENT — no money moves.')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pay €4,290.00 to Aurora Cycles')
    await checkPage(page, 'pending', { prefix: 'test-payment' })
  }
  await page.getByRole('button', { name: 'Succeed: pay €4,290.00' }).click()
  await expect(page).toHaveURL(`${baseURL}${result}`)
  await expectOrderShows(page, page.request, 'paid', 'paid')
  // The page now says what happened, and offers only the way back.
  await page.goto(payment)
  await expect(page.getByText('paid', { exact: true })).toBeVisible()
  await expect(page.getByRole('button')).toHaveCount(0)
  await checkPage(page, 'paid', { prefix: 'test-payment' })
  expect(problemsOf(page)).toEqual([])
})

test('a payment left pending is settled later from the same page (failed): the order waits for another payment', async ({
  page,
  context,
  baseURL,
  outbox,
}) => {
  const { payment, result } = await orderWaitingForPayment(page, context, baseURL!, outbox)
  await page.goto(payment)
  await page.getByRole('button', { name: 'Leave it pending' }).click()
  await expect(page).toHaveURL(`${baseURL}${result}`)
  await expectOrderShows(page, page.request, 'pending_payment', 'pending')
  await page.goto(payment)
  await expect(page.getByText('This payment was left pending. Settle it now')).toBeVisible()
  await page.getByRole('button', { name: 'Fail the payment' }).click()
  await expect(page).toHaveURL(`${baseURL}${result}`)
  await page.goto(payment)
  await expect(page.getByText('failed', { exact: true })).toBeVisible()
  await expectOrderShows(page, page.request, 'pending_payment', 'failed')
  expect(problemsOf(page)).toEqual([])
})
