import type { Page } from '@playwright/test'
import { addToCart } from './fixtures/cart'
import { createAccount, logIn, remember } from './fixtures/customer'
import { expect, test } from './fixtures/offline'
import italian from '../../demo/messages/it.json' with { type: 'json' }

/**
 * Paying through Stripe's hosted Checkout, as the project "stripe" runs it (playwright.config.ts): the site with
 * `PAYMENT_PROVIDER=stripe` against the stand-in of Stripe's API (tests/fixtures/stripe-stand-in.mjs), whose hosted
 * page sends Stripe's signed webhooks to the site and takes the buyer back.
 */
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }
const STAND_IN_PAGE = /^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_[0-9a-f]{48}$/

/** A new customer logged in, with the Strada 9 in the it-it cart, on the checkout form: answers the cart's code. */
async function customerAtCheckout(page: Page, baseURL: string, outbox: Parameters<typeof createAccount>[2]) {
  const account = {
    email: `e2e-stripe-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'Gravel-Roads-2027',
    first_name: 'Chiara',
    last_name: 'Bianchi',
  }
  await createAccount(page.request, baseURL, outbox, account)
  await logIn(page.request, baseURL, account)
  expect(await addToCart(page.request, baseURL, 'it-it', 'aurora-strada-9', 'STR9-M-RED')).toBe(true)
  await page.goto('/it-it/cart')
  const checkout = page.locator('a.cart-checkout')
  const code = /\/checkout\/([A-Za-z0-9_-]{32})$/.exec((await checkout.getAttribute('href')) ?? '')?.[1] ?? ''
  expect(code).not.toBe('')
  await checkout.click()
  return code
}

/** Pick-up at the nearest dealer, a new billing address, card: to the review, then "place and pay". */
async function placeOrder(page: Page, code: string) {
  await page.locator('label[for="delivery-pickup"]').click()
  await page.locator('#field-bill_first_name').fill('Chiara')
  await page.locator('#field-bill_last_name').fill('Bianchi')
  await page.locator('#field-bill_line1').fill('Via Tasso 8')
  await page.locator('#field-bill_postal_code').fill('00184')
  await page.locator('#field-bill_city').fill('Roma')
  await page.locator('#field-bill_phone').fill('+39 06 555 0199')
  await page.locator('.checkout-dealers .checkout-option').first().click()
  await page.getByRole('button', { name: italian.checkout.continue }).click()
  await expect(page).toHaveURL(`/it-it/checkout/${code}/review`)
  await page.getByRole('button', { name: italian.checkout.place }).click()
}

/** On the stand-in's hosted page: the order's amount in euros, then the buyer's choice. Answers the page's URL. */
async function onStripe(page: Page, button: 'Pay' | 'Abandon'): Promise<string> {
  await expect(page).toHaveURL(STAND_IN_PAGE)
  const hosted = page.url()
  await expect(page.locator('#amount')).toHaveText(/^\d+\.\d{2} EUR$/)
  await expect(page.getByText('locale it')).toBeVisible()
  await page.getByRole('button', { name: button, exact: true }).click()
  return hosted
}

/** The paid result, then the order in the account, paid. */
async function seePaid(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(italian.checkout.result_paid_title)
  const orderCode = await page.locator('.result-code bdi').textContent()
  await page.getByRole('link', { name: italian.checkout.to_account_order }).click()
  await expect(page).toHaveURL(`/it-it/my-account/orders/${orderCode}`)
  await expect(page.locator('.status')).toHaveText(italian.order_status.paid)
}

test.describe('paying through Stripe', () => {
  test.describe.configure({ timeout: 120_000 })

  test('at 1280 px: a customer pays on the hosted page and sees the order paid', async ({
    page,
    context,
    baseURL,
    outbox,
  }) => {
    await page.setViewportSize(DESKTOP)
    await remember(context, 'it-it', baseURL ?? '')
    const code = await customerAtCheckout(page, baseURL ?? '', outbox)
    await placeOrder(page, code)
    await onStripe(page, 'Pay')
    await expect(page).toHaveURL(`/it-it/checkout/${code}/result`)
    await seePaid(page)
  })

  test('at 390 px: a customer abandons the hosted page, comes back to "try again", and pays a new session', async ({
    page,
    context,
    baseURL,
    outbox,
  }) => {
    await page.setViewportSize(PHONE)
    await remember(context, 'it-it', baseURL ?? '')
    const code = await customerAtCheckout(page, baseURL ?? '', outbox)
    await placeOrder(page, code)
    const abandoned = await onStripe(page, 'Abandon')
    await expect(page).toHaveURL(`/it-it/checkout/${code}/result`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(italian.checkout.result_failed_title)
    await page.getByRole('button', { name: italian.checkout.try_again }).click()
    await expect(page).toHaveURL(STAND_IN_PAGE)
    expect(page.url(), 'a new session for the new attempt').not.toBe(abandoned)
    await onStripe(page, 'Pay')
    await seePaid(page)
  })
})
