import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { rejectTracking } from './fixtures/consent'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

let clients = 0
/** Each test is a visitor of its own address, as visitors mostly are. */
test.beforeEach(async ({ page }, info) => {
  await page.setExtraHTTPHeaders({ 'CF-Connecting-IP': `198.51.100.${((clients++ + info.retry * 50) % 250) + 1}` })
})

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

const JOURNEYS = [
  {
    market: 'it-it',
    texts: italian,
    size: PHONE,
    sizeName: 'desktop',
    viewport: DESKTOP,
    variant: 'STR9-M-RED',
    product: 'aurora-strada-9',
    bike: 'Aurora Strada 9',
  },
  {
    market: 'il-he',
    texts: hebrew,
    size: PHONE,
    sizeName: 'phone',
    viewport: PHONE,
    variant: 'STR9-M-RED',
    product: 'aurora-strada-9',
    bike: 'Aurora Strada 9',
  },
] as const

for (const journey of JOURNEYS) {
  test(`${journey.market} (${journey.sizeName}): add a bike with JavaScript (the count updates without a reload), open the cart, change the quantity, remove the line`, async ({
    page,
  }) => {
    const { texts, market } = journey
    await page.setViewportSize(journey.viewport)
    await page.goto(`/${market}/products/${journey.product}`)
    await rejectTracking(page)
    const buyBox = page.locator('form.buy-box')
    await expect(buyBox).toBeVisible()
    await expect(page.locator(`input[value="STR9-XL-RED"]`)).toBeDisabled()
    // Axe on the product page and on a cart with a bike, as they are here: page-kinds.spec.ts (product, cart-full).
    await keepScreenshot(page, `${SCREENSHOTS}/cart-product-${market}-${journey.viewport.width}.png`)
    await buyBox.scrollIntoViewIfNeeded()
    await keepScreenshot(page, `${SCREENSHOTS}/cart-buybox-${market}-${journey.viewport.width}.png`)

    // Wait for the island's hydration (its chunk loads lazily) before choosing.
    await expect(buyBox).toHaveAttribute('data-hydrated', '')
    await page.locator(`label:has(input[value="${journey.variant}"])`).click()
    await buyBox.locator('select[name="quantity"]').selectOption('2')
    const navigations: string[] = []
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()))
    await buyBox.locator('.buy-row button[type="submit"]').click()
    await expect(buyBox.locator('.buy-message')).toContainText(texts.cart.added)
    await expect(page.locator('[data-cart-count]')).toHaveText('2')
    expect(navigations).toEqual([])
    await keepScreenshot(page, `${SCREENSHOTS}/cart-added-${market}-${journey.viewport.width}.png`)
    // The mini-cart the add opened (product-page.spec.ts), put away to go on from the header.
    await page.keyboard.press('Escape')
    await expect(page.locator('dialog.cart-sheet')).toHaveCount(0)

    await page.locator('a.cart-link').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/cart$`))
    await expect(page.locator('h1')).toHaveText(texts.cart.title)
    await expect(page.locator('.cart-line')).toHaveCount(1)
    await expect(page.locator('.cart-line h3')).toHaveText(journey.bike)
    await keepScreenshot(page, `${SCREENSHOTS}/cart-page-${market}-${journey.viewport.width}.png`, { fullPage: true })

    await page.locator('.cart-quantity select').selectOption('3')
    await page.locator('.cart-quantity button').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/cart$`))
    await expect(page.locator('.cart-quantity select')).toHaveValue('3')
    await expect(page.locator('[data-cart-count]')).toHaveText('3')

    await page.locator('.cart-remove').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/cart$`))
    await expect(page.locator('.cart-empty')).toContainText(texts.cart.empty)
    await expect(page.locator('[data-cart-count]')).toBeHidden()
    expect(await axeViolations(page)).toEqual([])
  })
}

test('it-it without JavaScript: the plain post comes back to the product with the confirmation and the count', async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'CF-Connecting-IP': '198.51.100.251' },
  })
  const page = await context.newPage()
  await page.goto('/it-it/products/aurora-strada-9')
  await page.locator('.consent-actions button[value="reject"]').click()
  await page.locator('label:has(input[value="STR9-L-RED"])').click()
  await page.locator('form.buy-box .buy-row button[type="submit"]').click()
  await expect(page).toHaveURL(/\/it-it\/products\/aurora-strada-9$/)
  await expect(page.locator('.toast')).toHaveText(italian.cart.added)
  await expect(page.locator('[data-cart-count]')).toHaveText('1')
  await context.close()
})

test('it-it: three browsers behind one address with one User-Agent, given the same kept product page, each get a cart of their own with only their line', async ({
  browser,
  request,
}) => {
  // No address of their own (all 127.0.0.1) and the config's one User-Agent: an office, or a carrier's NAT.
  const { userAgent } = test.info().project.use
  // Italy's pages purged (`npm start`'s local secret): the first visitor's page is rendered and kept, fresh for the
  // others, rather than a stale copy from an earlier test answered once while a new one is rendered.
  expect(
    (await request.post('/_purge?market=it-it', { headers: { Authorization: 'Bearer local-purge-secret' } })).ok(),
  ).toBe(true)
  const visitor = async (javaScriptEnabled: boolean) => {
    const context = await browser.newContext({ javaScriptEnabled, userAgent })
    const page = await context.newPage()
    await page.goto('/it-it/products/aurora-strada-9')
    await page.locator('.consent-actions button[value="reject"]').click()
    await expect(page.locator('.toast[data-notice="consent_saved"]')).toBeAttached()
    // The product page again, as kept for everyone who made that choice (a page with a notice is never kept).
    await page.goto('/it-it/products/aurora-strada-9')
    return { context, page, key: await page.locator('form.buy-box input[name="key"]').getAttribute('value') }
  }
  const visitors = [await visitor(false), await visitor(false), await visitor(true)]
  // The same page from the page cache: one add-to-cart key for all three.
  expect(new Set(visitors.map(({ key }) => key)).size).toBe(1)
  const [first, second, third] = visitors.map(({ page }) => page) as [Page, Page, Page]

  const add = async (page: Page, variant: string, quantity: string) => {
    await page.locator(`label:has(input[value="${variant}"])`).click()
    await page.locator('form.buy-box select[name="quantity"]').selectOption(quantity)
    await page.locator('form.buy-box .buy-row button[type="submit"]').click()
  }
  await add(first, 'STR9-L-RED', '1')
  await expect(first).toHaveURL(/\/it-it\/products\/aurora-strada-9$/)
  await expect(first.locator('[data-cart-count]')).toHaveText('1')
  await add(second, 'STR9-M-RED', '2')
  await expect(second).toHaveURL(/\/it-it\/products\/aurora-strada-9$/)
  await expect(second.locator('[data-cart-count]')).toHaveText('2')
  await expect(third.locator('form.buy-box')).toHaveAttribute('data-hydrated', '')
  await third.locator('.swatch-option:has(input[value="black"])').click()
  await add(third, 'STR9-S-BLK', '3')
  await expect(third.locator('.buy-message')).toContainText(italian.cart.added)
  await expect(third.locator('[data-cart-count]')).toHaveText('3')

  const lines = [
    ['STR9-L-RED', '1'],
    ['STR9-M-RED', '2'],
    ['STR9-S-BLK', '3'],
  ] as const
  for (const [index, page] of [first, second, third].entries()) {
    const [sku, quantity] = lines[index]!
    await page.goto('/it-it/cart')
    await expect(page.locator('.cart-line')).toHaveCount(1)
    await expect(page.locator(`form[action="/it-it/cart/items/${sku}"] select`)).toHaveValue(quantity)
  }
  const codes = await Promise.all(
    visitors.map(async ({ context }) => (await context.cookies()).find(({ name }) => name === '__Host-Cart-it')?.value),
  )
  expect(codes.every(Boolean)).toBe(true)
  expect(new Set(codes).size).toBe(3)
  await Promise.all(visitors.map(({ context }) => context.close()))
})

for (const [market, viewport, dir] of [
  ['it-it', PHONE, 'ltr'],
  ['il-he', DESKTOP, 'rtl'],
] as const) {
  test(`${market} at ${viewport.width} px: the cart page with lines looks right (${dir})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await page.goto(`/${market}/products/aurora-strada-9`)
    await rejectTracking(page)
    await expect(page.locator('form.buy-box')).toHaveAttribute('data-hydrated', '')
    await page.locator('.swatch-option:has(input[value="black"])').click()
    await page.locator('label:has(input[value="STR9-S-BLK"])').click()
    await page.locator('form.buy-box .buy-row button[type="submit"]').click()
    await expect(page.locator('[data-cart-count]')).toHaveText('1')
    await page.goto(`/${market}/products/aurora-pompa-mini`)
    await expect(page.locator('form.buy-box')).toHaveAttribute('data-hydrated', '')
    await page.locator('form.buy-box .buy-row button[type="submit"]').click()
    await expect(page.locator('[data-cart-count]')).toHaveText('2')
    await keepScreenshot(page, `${SCREENSHOTS}/cart-buybox-accessory-${market}-${viewport.width}.png`)
    await page.goto(`/${market}/cart`)
    await expect(page.locator('html')).toHaveAttribute('dir', dir)
    await expect(page.locator('.cart-line')).toHaveCount(2)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, `${SCREENSHOTS}/cart-page-${market}-${viewport.width}.png`, { fullPage: true })
  })
}
