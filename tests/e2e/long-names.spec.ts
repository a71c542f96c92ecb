import type { BrowserContext, Page } from '@playwright/test'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { addToCart } from './fixtures/cart'
import { createAccount, logIn, remember } from './fixtures/customer'
import { sendForm } from './fixtures/forms'
import { expect, problemsOf, recordProblems, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import { checkPage } from './fixtures/page-checks'

/**
 * A customer whose surname is 60 letters, at phone width in it-it and il-he: every page that prints their name or
 * address wraps it (`overflow-wrap: anywhere` on the blocks: client/styles/phone-layout.css) instead of pushing the page
 * sideways or cutting it. The account and the order are made by request (checkout.spec.ts walks checkout itself).
 */
const CUSTOMERS = {
  'it-it': {
    t: italian,
    first_name: 'Chiara',
    last_name: 'Dellavalle'.repeat(6),
    address: { line1: 'Via Tasso 8', postal_code: '24121', city: 'Bergamo', phone: '+39 035 555 0199' },
  },
  'il-he': {
    t: hebrew,
    first_name: 'נועה',
    last_name: 'אבוטבולכהן'.repeat(6),
    address: { line1: 'רחוב דיזנגוף 50', postal_code: '6433222', city: 'Tel Aviv-Yafo', phone: '+972 3 555 0199' },
  },
} as const
type Market = keyof typeof CUSTOMERS

/** The customer of `market`, logged in, with a pump's order placed for home delivery: the checkout's paths. */
async function orderOfALongName(page: Page, context: BrowserContext, baseURL: string, outbox: Outbox, market: Market) {
  const { first_name, last_name, address } = CUSTOMERS[market]
  const account = {
    email: `e2e-long-${market}-${Date.now()}@example.com`,
    password: 'Gravel-Roads-2027',
    first_name,
    last_name,
  }
  await remember(context, market, baseURL)
  await createAccount(page.request, baseURL, outbox, account)
  await logIn(page.request, baseURL, account, `/${market}/my-account`)
  expect(await addToCart(page.request, baseURL, market, 'aurora-pompa-mini', 'POMP-OS-GRY')).toBe(true)
  const checkout = new RegExp(`href="(/${market}/checkout/[A-Za-z0-9_-]{32})"`).exec(
    await (await page.request.get(`/${market}/cart`)).text(),
  )?.[1]
  expect(checkout, 'the cart leads to checkout').toBeTruthy()
  const ship = Object.fromEntries(Object.entries(address).map(([field, value]) => [`ship_${field}`, value]))
  const chosen = await sendForm(
    page.request,
    baseURL,
    checkout!,
    {
      delivery: 'home',
      ship_choice: 'new',
      ship_first_name: first_name,
      ship_last_name: last_name,
      ...ship,
      ship_save: 'on',
      billing_same: 'on',
      payment_method: 'card',
    },
    checkout!,
  )
  expect(chosen.headers().location, 'the checkout form leads to the review').toBe(`${checkout}/review`)
  return { review: `${checkout}/review`, result: `${checkout}/result` }
}

test.beforeEach(({ page }) => recordProblems(page))

for (const market of Object.keys(CUSTOMERS) as Market[]) {
  test(`a 60-letter surname in ${market} at 390 px wraps on the review, the payment's result, the account, its order and addresses`, async ({
    page,
    context,
    baseURL,
    outbox,
  }) => {
    const { t, last_name } = CUSTOMERS[market]
    await page.setViewportSize({ width: 390, height: 844 })
    const { review, result } = await orderOfALongName(page, context, baseURL!, outbox, market)

    await page.goto(review)
    await expect(page.getByText(last_name, { exact: false }).first()).toBeVisible()
    await checkPage(page, `${market}-review`, { prefix: 'long-name' })
    await page.getByRole('button', { name: t.checkout.place }).click()
    await page.getByRole('button', { name: /^Succeed/ }).click()
    await expect(page).toHaveURL(`${baseURL}${result}`)
    await checkPage(page, `${market}-result`, { prefix: 'long-name' })

    await page.goto(`/${market}/my-account`)
    await expect(page.getByText(last_name, { exact: false }).first()).toBeVisible()
    // The header's greeting, in the account menu.
    await page.locator('.account-menu > summary').click()
    await expect(page.locator('.account-panel-name')).toBeVisible()
    await checkPage(page, `${market}-account`, { prefix: 'long-name' })
    await page.locator('.account-menu > summary').click()

    await page.locator(`a[href^="/${market}/my-account/orders/AUR-"]`).first().click()
    await expect(page.getByText(last_name, { exact: false }).first()).toBeVisible()
    await checkPage(page, `${market}-order`, { prefix: 'long-name' })

    await page.goto(`/${market}/my-account/addresses`)
    await expect(page.locator('.address-card').getByText(last_name, { exact: false }).first()).toBeVisible()
    await checkPage(page, `${market}-addresses`, { prefix: 'long-name' })
    expect(problemsOf(page)).toEqual([])
  })
}
