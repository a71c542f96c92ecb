import type { BrowserContext, Page } from '@playwright/test'
import { addToCart } from './fixtures/cart'
import { createAccount, logIn, remember } from './fixtures/customer'
import { sendForm } from './fixtures/forms'
import { expect, problemsOf, recordProblems, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import { checkPage } from './fixtures/page-checks'

/**
 * The console's orders in Chromium (docs/decisions/049): a new customer's order, placed for home delivery and paid
 * through the test provider by request (as payments.spec.ts does), found by a staff member, shipped with a tracking
 * number and refunded in part, each form once wrong and once right, at 390 and 1280 px, axe clean.
 */

/** The console's pages as checked: their tables and navigation scroll sideways on a narrow screen. */
const ORDERS_PAGE = { prefix: 'console-orders', besides: '.table-scroll, .console-nav' }

/** A new it-it customer's order of the Strada 9 (€4,290.00) for home delivery, paid: answers its code. */
async function paidOrder(page: Page, context: BrowserContext, baseURL: string, outbox: Outbox): Promise<string> {
  const account = {
    email: `e2e-orders-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`,
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
  )?.[1] as string
  expect(checkout, 'the cart leads to checkout').toBeTruthy()
  const chosen = await sendForm(
    page.request,
    baseURL,
    checkout,
    {
      delivery: 'home',
      ship_choice: 'new',
      ship_first_name: 'Chiara',
      ship_last_name: 'Bianchi',
      ship_line1: 'Via Tasso 8',
      ship_postal_code: '24121',
      ship_city: 'Bergamo',
      ship_country_code: 'IT',
      ship_phone: '+39 035 555 0199',
      billing_same: 'on',
      payment_method: 'card',
    },
    checkout,
  )
  expect(chosen.headers().location, 'the checkout form leads to the review').toBe(`${checkout}/review`)
  const placed = await sendForm(page.request, baseURL, `${checkout}/review`, {}, `${checkout}/review`)
  const payment = new URL(placed.headers().location ?? '', baseURL).pathname
  expect(payment).toMatch(/^\/_test-payments\/tp_[0-9a-f]{24}$/)
  const paid = await sendForm(page.request, baseURL, payment, { action: 'succeed' }, payment)
  expect(paid.status()).toBe(303)
  const code = /\/it-it\/my-account\/orders\/(AUR-[0-9A-Z-]+)/.exec(
    await (await page.request.get('/it-it/my-account/orders')).text(),
  )?.[1]
  expect(code, 'the paid order in the account').toBeTruthy()
  return code as string
}

test.beforeEach(({ page }) => recordProblems(page))

for (const width of [390, 1280]) {
  test(`a staff member finds an order, ships it with a tracking number and refunds part of it (${width} px)`, async ({
    page,
    context,
    baseURL,
    outbox,
    signInAs,
  }) => {
    const code = await paidOrder(page, context, baseURL as string, outbox)
    await page.setViewportSize({ width, height: 900 })
    await signInAs('editor')

    await page.goto('/_console/orders?market=it&status=paid')
    await checkPage(page, 'list', ORDERS_PAGE)
    await page.getByRole('link', { name: code }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Order ${code}`)
    await checkPage(page, 'paid', ORDERS_PAGE)

    // Ship: once without a tracking number, then right.
    const ship = page.getByRole('form', { name: 'Ship' })
    await ship.getByLabel('Carrier').selectOption('ups')
    await ship.getByLabel('Tracking number').fill('no')
    await ship.getByRole('button', { name: 'Mark as shipped' }).click()
    await expect(page.getByText('Type the tracking number: 4 to 40 letters, digits or dashes.')).toBeVisible()
    await checkPage(page, 'ship-refused', ORDERS_PAGE)
    await page.getByRole('form', { name: 'Ship' }).getByLabel('Tracking number').fill('1Z999AA10123456784')
    await page.getByRole('form', { name: 'Ship' }).getByRole('button', { name: 'Mark as shipped' }).click()
    await expect(page.getByText('Shipped. The customer has been sent the tracking number.')).toBeVisible()
    await expect(page.getByRole('link', { name: '1Z999AA10123456784' })).toHaveAttribute(
      'href',
      'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    )

    // Refund: once more than was paid, then a part.
    const refund = page.getByRole('form', { name: 'Refund' })
    await refund.getByLabel('Amount to refund (EUR)').fill('5000.00')
    await refund.getByRole('button', { name: 'Refund' }).click()
    await expect(page.getByRole('alert')).toHaveText('The refund is more than what was paid and not yet refunded.')
    await checkPage(page, 'refund-refused', ORDERS_PAGE)
    await page.getByRole('form', { name: 'Refund' }).getByLabel('Amount to refund (EUR)').fill('290.00')
    await page.getByRole('form', { name: 'Refund' }).getByRole('button', { name: 'Refund' }).click()
    await expect(page.getByRole('status')).toContainText('Refund sent to the payment provider.')
    await expect(page.getByText('Confirmed by the provider')).toBeVisible()
    await expect(page.getByText(/Refund of EUR 290\.00 confirmed by the payment provider/)).toBeVisible()
    await checkPage(page, 'refunded', ORDERS_PAGE)

    // The customer's order shows the tracking link and the refund.
    await page.goto(`/it-it/my-account/orders/${code}`)
    await expect(page.getByRole('link', { name: 'Segua il pacco (UPS)' })).toHaveAttribute(
      'href',
      'https://www.ups.com/track?tracknum=1Z999AA10123456784',
    )
    await expect(page.getByText(/Rimborsato: 290,00\s€/)).toBeVisible()
    // The two refusals (422, 409) are the forms' answers, as intended; nothing else went wrong.
    expect(problemsOf(page).filter((problem) => !/status of (409|422) /.test(problem))).toEqual([])
  })
}
