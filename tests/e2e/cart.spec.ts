import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { rejectTracking } from './fixtures/consent'
import { expect, test } from './fixtures/offline'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

let clients = 0
/** Each test is a visitor of its own address (the double-click key includes it). */
test.beforeEach(async ({ page }, info) => {
  await page.setExtraHTTPHeaders({ 'CF-Connecting-IP': `198.51.100.${((clients++ + info.retry * 50) % 250) + 1}` })
})

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

const JOURNEYS = [
  { market: 'it-it', texts: italian, size: PHONE, sizeName: 'desktop', viewport: DESKTOP, variant: 'STR9-M-RED', product: 'aurora-strada-9', bike: 'Aurora Strada 9' },
  { market: 'il-he', texts: hebrew, size: PHONE, sizeName: 'phone', viewport: PHONE, variant: 'STR9-M-RED', product: 'aurora-strada-9', bike: 'Aurora Strada 9' },
] as const

for (const journey of JOURNEYS) {
  test(`${journey.market} (${journey.sizeName}): add a bike with JavaScript (the count updates without a reload), open the cart, change the quantity, remove the line`, async ({ page }) => {
    const { texts, market } = journey
    await page.setViewportSize(journey.viewport)
    await page.goto(`/${market}/products/${journey.product}`)
    await rejectTracking(page)
    const buyBox = page.locator('form.buy-box')
    await expect(buyBox).toBeVisible()
    await expect(page.locator(`input[value="STR9-XL-RED"]`)).toBeDisabled()
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: `${SCREENSHOTS}/cart-product-${market}-${journey.viewport.width}.png`, fullPage: false })
    await buyBox.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SCREENSHOTS}/cart-buybox-${market}-${journey.viewport.width}.png` })

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
    await page.screenshot({ path: `${SCREENSHOTS}/cart-added-${market}-${journey.viewport.width}.png` })

    await page.locator('a.cart-link').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/cart$`))
    await expect(page.locator('h1')).toHaveText(texts.cart.title)
    await expect(page.locator('.cart-line')).toHaveCount(1)
    await expect(page.locator('.cart-line h3')).toHaveText(journey.bike)
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: `${SCREENSHOTS}/cart-page-${market}-${journey.viewport.width}.png`, fullPage: true })

    await page.locator('.cart-quantity select').selectOption('3')
    await page.locator('.cart-quantity button').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/cart\\?notice=cart_updated$`))
    await expect(page.locator('.cart-quantity select')).toHaveValue('3')
    await expect(page.locator('[data-cart-count]')).toHaveText('3')

    await page.locator('.cart-remove').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/cart\\?notice=cart_removed$`))
    await expect(page.locator('.cart-empty')).toContainText(texts.cart.empty)
    await expect(page.locator('[data-cart-count]')).toBeHidden()
    expect(await axeViolations(page)).toEqual([])
  })
}

test('it-it without JavaScript: the plain post comes back to the product with the confirmation and the count', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'CF-Connecting-IP': '198.51.100.251' } })
  const page = await context.newPage()
  await page.goto('/it-it/products/aurora-strada-9')
  await page.locator('.consent-actions button[value="reject"]').click()
  await page.locator('label:has(input[value="STR9-L-RED"])').click()
  await page.locator('form.buy-box .buy-row button[type="submit"]').click()
  await expect(page).toHaveURL(/\/it-it\/products\/aurora-strada-9\?notice=cart_added$/)
  await expect(page.locator('.toast')).toHaveText(italian.cart.added)
  await expect(page.locator('[data-cart-count]')).toHaveText('1')
  await context.close()
})

for (const [market, viewport, dir] of [['it-it', PHONE, 'ltr'], ['il-he', DESKTOP, 'rtl']] as const) {
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
    await page.screenshot({ path: `${SCREENSHOTS}/cart-buybox-accessory-${market}-${viewport.width}.png` })
    await page.goto(`/${market}/cart`)
    await expect(page.locator('html')).toHaveAttribute('dir', dir)
    await expect(page.locator('.cart-line')).toHaveCount(2)
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: `${SCREENSHOTS}/cart-page-${market}-${viewport.width}.png`, fullPage: true })
  })
}
