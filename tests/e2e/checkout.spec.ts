import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { addToCart } from './fixtures/cart'
import { rejectTracking } from './fixtures/consent'
import { createAccount, logIn, remember } from './fixtures/customer'
import { expect, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import { keepScreenshot } from './fixtures/screenshots'
import arabic from '../../demo/messages/ar.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }
const PASSWORD = 'Gravel-Roads-2027'
const SCREENSHOTS = 'test-results/screenshots'

type Texts = typeof italian

let clients = 0
/** Each test is a visitor of its own address (rate limits). */
test.beforeEach(async ({ page }, info) => {
  await page.setExtraHTTPHeaders({
    'CF-Connecting-IP': `198.51.100.${((clients++ + 120 + info.retry * 50) % 250) + 1}`,
  })
})

async function axeViolations(page: Page, disabled: string[] = []) {
  const { violations } = await new AxeBuilder({ page }).disableRules(disabled).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Checks a page with axe at phone and desktop width (or only `widths`), keeping a screenshot of each. */
async function check(
  page: Page,
  name: string,
  widths: ReadonlyArray<{ width: number; height: number }> = [PHONE, DESKTOP],
  disabled: string[] = [],
) {
  const before = page.viewportSize()
  for (const size of widths) {
    await page.setViewportSize(size)
    expect(await axeViolations(page, disabled), `${name} at ${size.width}`).toEqual([])
    await keepScreenshot(page, `${SCREENSHOTS}/checkout-${name}-${size.width}.png`, { fullPage: true })
  }
  if (before) await page.setViewportSize(before)
}

/** An anonymous visitor adds the Strada 9 (M, red) from its page and goes from the cart to checkout: answers the cart's code. */
async function addBikeAndCheckOut(page: Page, market: string): Promise<string> {
  await page.goto(`/${market}/products/aurora-strada-9`)
  await rejectTracking(page)
  const buyBox = page.locator('form.buy-box')
  await expect(buyBox).toHaveAttribute('data-hydrated', '')
  await page.locator('label:has(input[value="STR9-M-RED"])').click()
  await buyBox.locator('.buy-row button[type="submit"]').click()
  await expect(page.locator('[data-cart-count]')).toHaveText('1')
  await page.goto(`/${market}/cart`)
  const checkout = page.locator('a.cart-checkout')
  const code = /\/checkout\/([A-Za-z0-9_-]{32})$/.exec((await checkout.getAttribute('href')) ?? '')?.[1]
  expect(code).toBeTruthy()
  await checkout.click()
  return code!
}

/**
 * From the login page checkout sent the visitor to: "create an account", which logs in at once and comes back to the
 * checkout (docs/decisions/057); the address is confirmed after paying.
 */
async function signUpInCheckout(
  page: Page,
  t: Texts,
  market: string,
  code: string,
  name: [string, string],
  email: string,
) {
  const back = `/${market}/checkout/${code}`
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(back)}`)
  await page.getByRole('link', { name: t.register.title }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.register.title)
  await page.locator('#field-first_name').fill(name[0])
  await page.locator('#field-last_name').fill(name[1])
  await page.locator('#field-email').fill(email)
  await page.locator('#field-password').fill(PASSWORD)
  await page.locator('#field-consent').check()
  await page.getByRole('button', { name: t.register.submit }).click()
  await expect(page).toHaveURL(back)
}

/**
 * On a phone the order summary is first, closed, its total in its line; opened, it shows the lines. The checkout's
 * own header (logo, help) and no site header or newsletter.
 */
async function seeSummaryFirst(page: Page, total: string) {
  const toggle = page.locator('details.checkout-summary-toggle')
  await expect(toggle).toBeVisible()
  await expect(toggle).not.toHaveAttribute('open', '')
  await expect(toggle.locator('summary')).toContainText(total)
  // Both boxes read in one moment, once the page's face has swapped in (it moves everything by a few pixels).
  const [summaryTop, formTop] = await page.evaluate(async () => {
    await document.fonts.ready
    const top = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().top ?? Number.NaN
    return [top('details.checkout-summary-toggle'), top('form.checkout-form')]
  })
  expect(summaryTop).toBeLessThan(formTop)
  await expect(page.locator('.checkout-summary-toggle ~ .checkout-layout > .checkout-summary')).toBeHidden()
  await toggle.locator('summary').click()
  await expect(toggle.locator('.checkout-summary-lines li')).toBeVisible()
  await toggle.locator('summary').click()
  await expect(page.locator('.checkout-header .checkout-home')).toBeVisible()
  await expect(page.locator('.site-header, .footer-newsletter')).toHaveCount(0)
}

/** The paid result asks for the confirmation; the mailed link confirms it with the session there, no login again. */
async function confirmAfterPaying(page: Page, t: Texts, market: string, email: string, outbox: Outbox) {
  await expect(page.locator('.confirm-ask')).toContainText(t.checkout.result_confirm_email)
  await page.goto((await outbox.linkMailedTo(email, 'email_confirmation', /\/confirm-email\/\S+/)).link)
  await page.getByRole('button', { name: t.confirm.submit }).click()
  await expect(page).toHaveURL(`/${market}/my-account`)
  await expect(page.getByRole('status')).toHaveText(t.notice.email_confirmed)
}

/**
 * Chooses pick-up with a new billing address and pays by card, first sent without a first name or a dealer: the form
 * comes back with both messages, the values kept and the dealers now nearest to the address typed; the nearest one is
 * chosen. Ends on the review. With `axe: false` the form is not axed (another test axed it in the same market and at
 * the same widths).
 */
async function chooseDealerPickup(
  page: Page,
  t: Texts,
  market: string,
  code: string,
  address: { postal: string; city: string; line1: string; phone: string; wrongPostal?: string },
  name: string,
  { axe = true } = {},
) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.checkout.title)
  // The merged cart: the bike added before logging in.
  await expect(page.locator('.checkout-layout > .checkout-summary .checkout-summary-lines li')).toHaveCount(1)
  await page.locator('label[for="delivery-pickup"]').click()
  await expect(page.locator('.checkout-dealers')).toBeVisible()
  await expect(page.locator('.checkout-ship')).toBeHidden()
  // A new account has no saved address: the billing address is a new one.
  await expect(page.locator('#field-bill_choice-new')).toBeChecked()
  await page.locator('#field-bill_last_name').fill(market === 'il-he' ? 'לוי' : 'Bianchi')
  await page.locator('#field-bill_line1').fill(address.line1)
  await page.locator('#field-bill_postal_code').fill(address.wrongPostal ?? address.postal)
  await page.locator('#field-bill_city').fill(address.city)
  await page.locator('#field-bill_phone').fill(address.phone)
  await page.locator('#field-bill_save').check()
  if (axe) await check(page, `${name}-form`)
  await page.getByRole('button', { name: t.checkout.continue }).click()
  await expect(page.locator('#field-bill_first_name')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#field-bill_first_name-error')).toHaveText(t.validation.required)
  await expect(page.locator('#field-dealer-error')).toHaveText(t.checkout.error.dealer)
  await expect(page.locator('#field-bill_city')).toHaveValue(address.city)
  await expect(page.locator('#delivery-pickup')).toBeChecked()
  if (address.wrongPostal) {
    // The country's postcode rule (docs/decisions/058), beside its field.
    await expect(page.locator('#field-bill_postal_code-error')).toHaveText(t.validation.postal_code)
    await page.locator('#field-bill_postal_code').fill(address.postal)
  }
  if (axe) await check(page, `${name}-form-errors`)
  await page.locator('.checkout-dealers .checkout-option').first().click()
  await page.locator('#field-bill_first_name').fill(market === 'il-he' ? 'נועה' : 'Chiara')
  await page.getByRole('button', { name: t.checkout.continue }).click()
  await expect(page).toHaveURL(`/${market}/checkout/${code}/review`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.checkout.review_title)
}

/** Places the order from the review, then pays on the test provider's page: answers that page's path. */
async function placeAndPay(
  page: Page,
  t: Texts,
  market: string,
  code: string,
  action: 'Succeed' | 'Fail the payment',
  name: string,
): Promise<string> {
  await page.getByRole('button', { name: t.checkout.place }).click()
  await expect(page).toHaveURL(/\/_test-payments\/tp_[0-9a-f]{24}$/)
  const payment = new URL(page.url()).pathname
  await expect(page.getByText('TEST PAYMENT — no money moves.')).toBeVisible()
  await keepScreenshot(page, `${SCREENSHOTS}/checkout-${name}-provider.png`, { fullPage: true })
  await page.getByRole('button', { name: new RegExp(`^${action}`) }).click()
  await expect(page).toHaveURL(`/${market}/checkout/${code}/result`)
  return payment
}

/** The paid result (axed unless `axe: false`: another test axed it in the same market), then the order in the account with its timeline. */
async function seePaidOrder(page: Page, t: Texts, market: string, email: string, name: string, { axe = true } = {}) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.checkout.result_paid_title)
  await expect(page.locator('.result-card bdi[dir="ltr"]').last()).toHaveText(email)
  const orderCode = await page.locator('.result-code bdi').textContent()
  expect(orderCode).toMatch(/^AUR-[0-9A-Z]{6}$/)
  if (axe) await check(page, `${name}-result-paid`)
  await page.getByRole('link', { name: t.checkout.to_account_order }).click()
  await expect(page).toHaveURL(`/${market}/my-account/orders/${orderCode}`)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(orderCode!)
  await expect(page.locator('.status')).toHaveText(t.order_status.paid)
  await expect(page.getByRole('heading', { name: t.order.timeline })).toBeVisible()
  await keepScreenshot(page, `${SCREENSHOTS}/checkout-${name}-account-order.png`, { fullPage: true })
}

/**
 * A new customer of `market` for a test whose subject is not signing up (checkout's first journey signs up in the
 * browser, and sign-up.spec.ts proves the form): the account created and confirmed by request.
 */
async function newCustomer(page: Page, outbox: Outbox, baseURL: string, market: string, email: string) {
  const account = {
    email,
    password: PASSWORD,
    first_name: market === 'il-he' ? 'נועה' : 'Chiara',
    last_name: market === 'il-he' ? 'לוי' : 'Bianchi',
  }
  await createAccount(page.request, baseURL, outbox, account)
  return account
}

test.describe('checkout', () => {
  // A whole purchase: a sign-up in the browser, the outbox, axe at two widths on five pages.
  test.describe.configure({ timeout: 180_000 })

  test('it-it at phone width: an anonymous visitor adds a bike, creates an account inside checkout, picks up at a dealer, pays at once, then confirms the address', {
    tag: '@over-http',
  }, async ({ page, context, baseURL, outbox }) => {
    await page.setViewportSize(PHONE)
    await remember(context, 'it-it', baseURL!)
    const email = `e2e-checkout-it-${Date.now()}@example.com`
    const code = await addBikeAndCheckOut(page, 'it-it')
    await signUpInCheckout(page, italian, 'it-it', code, ['Chiara', 'Bianchi'], email)
    await seeSummaryFirst(page, '4290,00\u00a0€')
    await chooseDealerPickup(
      page,
      italian,
      'it-it',
      code,
      { line1: 'Via Tasso 8', postal: '24121', wrongPostal: '9o100', city: 'Bergamo', phone: '+39 035 555 0199' },
      'it-it',
    )
    await expect(page.locator('.review-part').filter({ hasText: 'Cicli Bergamasca' })).toBeVisible()
    await expect(page.locator('.checkout-total dd')).toHaveText('4290,00\u00a0€')
    await check(page, 'it-it-review')
    await placeAndPay(page, italian, 'it-it', code, 'Succeed', 'it-it')
    await expect(page.locator('.confirm-ask')).toBeVisible()
    await seePaidOrder(page, italian, 'it-it', email, 'it-it')
    await page.goBack()
    await confirmAfterPaying(page, italian, 'it-it', email, outbox)
    // The paid bike left the cart.
    await page.goto('/it-it/cart')
    await expect(page.locator('.cart-empty')).toBeVisible()
  })

  test('ae-ar at phone width, right to left: a new customer signs up inside checkout, has the bike delivered home without a postcode (the emirate instead, the phone required), pays', async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize(PHONE)
    await remember(context, 'ae-ar', baseURL!)
    const email = `e2e-checkout-ar-${Date.now()}@example.com`
    const code = await addBikeAndCheckOut(page, 'ae-ar')
    await signUpInCheckout(page, arabic, 'ae-ar', code, ['ليلى', 'حداد'], email)
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await seeSummaryFirst(
      page,
      await page.locator('.checkout-layout > .checkout-summary .checkout-total dd').innerText(),
    )
    // A new account has no saved address: home delivery to a new one, whose form is the UAE's.
    await expect(page.locator('#field-ship_choice-new')).toBeChecked()
    await expect(page.locator('#field-ship_postal_code')).toHaveCount(0)
    await page.locator('#field-ship_first_name').fill('ليلى')
    await page.locator('#field-ship_last_name').fill('حداد')
    await page.locator('#field-ship_line1').fill('شارع الوصل 12')
    await page.locator('#field-ship_city').fill('دبي')
    await page.locator('#field-ship_region').fill('دبي')
    await check(page, 'ae-ar-form')
    await page.getByRole('button', { name: arabic.checkout.continue }).click()
    await expect(page.locator('#field-ship_phone-error')).toHaveText(arabic.validation.phone_delivery)
    await check(page, 'ae-ar-form-errors', [PHONE])
    await page.locator('#field-ship_phone').fill('+971 4 555 0199')
    await page.getByRole('button', { name: arabic.checkout.continue }).click()
    await expect(page).toHaveURL(`/ae-ar/checkout/${code}/review`)
    await expect(page.locator('.review-part address').first()).toContainText('شارع الوصل 12')
    await expect(
      page.locator('.review-part address bdi[dir="ltr"]').filter({ hasText: '+971 4 555 0199' }),
    ).toBeVisible()
    await check(page, 'ae-ar-review', [PHONE])
    await placeAndPay(page, arabic, 'ae-ar', code, 'Succeed', 'ae-ar')
    await seePaidOrder(page, arabic, 'ae-ar', email, 'ae-ar')
  })

  test('a failed payment is tried again from the result page, then paid; a pending one waits and looks again by itself', async ({
    page,
    context,
    baseURL,
    outbox,
  }) => {
    await page.setViewportSize(DESKTOP)
    await remember(context, 'it-it', baseURL!)
    // A customer with a bike in the cart, by request: the journey to the review is the first test's.
    const email = `e2e-checkout-retry-${Date.now()}@example.com`
    await logIn(page.request, baseURL!, await newCustomer(page, outbox, baseURL!, 'it-it', email))
    expect(await addToCart(page.request, baseURL!, 'it-it', 'aurora-strada-9', 'STR9-M-RED')).toBe(true)
    await page.goto('/it-it/cart')
    const code = /\/checkout\/([A-Za-z0-9_-]{32})$/.exec(
      (await page.locator('a.cart-checkout').getAttribute('href')) ?? '',
    )?.[1]
    expect(code).toBeTruthy()
    await page.locator('a.cart-checkout').click()
    await chooseDealerPickup(
      page,
      italian,
      'it-it',
      code!,
      { line1: 'Via Tasso 8', postal: '00184', city: 'Roma', phone: '+39 06 555 0199' },
      'retry',
      { axe: false },
    )
    await expect(page.locator('.review-part').filter({ hasText: 'Ruota Capitolina' })).toBeVisible()

    const firstPayment = await placeAndPay(page, italian, 'it-it', code!, 'Fail the payment', 'retry')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(italian.checkout.result_failed_title)
    await check(page, 'result-failed')
    await page.getByRole('button', { name: italian.checkout.try_again }).click()
    await expect(page).toHaveURL(/\/_test-payments\/tp_[0-9a-f]{24}$/)
    expect(new URL(page.url()).pathname, 'a new payment').not.toBe(firstPayment)

    // Left pending: the result waits, and looks again by itself without script.
    await page.getByRole('button', { name: 'Leave it pending' }).click()
    await expect(page).toHaveURL(`/it-it/checkout/${code}/result`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(italian.checkout.result_pending_title)
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveAttribute('content', '5')
    // The one rule left out: the waiting page reloads itself (checkout brief), for ten minutes only (WCAG 2.2.1). Axed
    // as served but for that reload, which could otherwise come in the middle of a slow machine's analysis.
    const resultPath = `/it-it/checkout/${code}/result`
    await page.route(`**${resultPath}`, async (route) => {
      const served = await route.fetch()
      const body = (await served.text()).replace(/<meta http-equiv="refresh"[^>]*>/, '')
      await route.fulfill({ response: served, body })
    })
    await page.reload()
    await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0)
    await check(page, 'result-pending', [PHONE, DESKTOP], ['meta-refresh'])
    await page.unroute(`**${resultPath}`)
    await page.getByRole('button', { name: italian.checkout.pay }).click()
    await expect(page).toHaveURL(/\/_test-payments\/tp_[0-9a-f]{24}$/)
    await page.getByRole('button', { name: /^Succeed/ }).click()
    await expect(page).toHaveURL(`/it-it/checkout/${code}/result`)
    // The paid result and the order, as the first test saw them (axed there).
    await seePaidOrder(page, italian, 'it-it', email, 'retry', { axe: false })
  })
})
