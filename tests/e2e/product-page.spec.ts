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
  await page.setExtraHTTPHeaders({ 'CF-Connecting-IP': `198.51.100.${((clients++ + info.retry * 50) % 120) + 101}` })
})

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** No sideways scroll: the page is exactly as wide as the viewport. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth === document.documentElement.clientWidth)).toBe(
    true,
  )
}

/** The gallery's pictures the visitor sees (those of the colour chosen and the shared ones). */
const shownPictures = (page: Page) =>
  page
    .locator('.gallery-link')
    .evaluateAll((links) =>
      links.filter((link) => (link as HTMLElement).offsetParent !== null).map((link) => link.getAttribute('href')),
    )

const JOURNEYS = [
  { market: 'it-it', texts: italian, viewport: PHONE, dir: 'ltr' },
  { market: 'it-it', texts: italian, viewport: DESKTOP, dir: 'ltr' },
  { market: 'il-he', texts: hebrew, viewport: PHONE, dir: 'rtl' },
  { market: 'il-he', texts: hebrew, viewport: DESKTOP, dir: 'rtl' },
] as const

for (const { market, texts, viewport, dir } of JOURNEYS) {
  const at = `${market}-${viewport.width}`
  test(`${market} at ${viewport.width} px (${dir}): choose a colour (the gallery follows) and a size, add to the cart, open the pictures full screen`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await page.goto(`/${market}/products/aurora-strada-9`)
    await rejectTracking(page)
    await expect(page.locator('html')).toHaveAttribute('dir', dir)
    const buyBox = page.locator('form.buy-box')
    await expect(buyBox).toHaveAttribute('data-hydrated', '')
    await expectNoSidewaysScroll(page)
    // The title keeps its words together: "Aurora Strada 9" on one line, never a narrow column.
    const title = await page.locator('h1').evaluate((h1) => ({
      height: h1.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(h1).lineHeight),
    }))
    expect(title.height).toBeLessThan(title.line * 1.5)
    // The breadcrumbs: home › type › product.
    await expect(page.locator('.breadcrumbs li')).toHaveText([texts.header.home, /.+/, 'Aurora Strada 9'])
    // Axe on the product page as it opens, at this width and direction: page-kinds.spec.ts (product).
    await keepScreenshot(page, `${SCREENSHOTS}/product-${at}.png`)

    // The first colour's pictures and the shared ones; choosing black shows black's instead.
    expect(await shownPictures(page)).toEqual([
      '/images/products/aurora-strada-9.svg',
      '/images/products/aurora-strada-9-detail.svg',
    ])
    await page.locator('.swatch-option', { hasText: texts.colour.black }).click()
    await expect(page.locator('input[name="colour"][value="black"]')).toBeChecked()
    expect(await shownPictures(page)).toEqual([
      '/images/products/aurora-strada-9-colour.svg',
      '/images/products/aurora-strada-9-detail-black.svg',
    ])
    await expect(page.locator('#sizes-black')).toBeVisible()
    await expect(page.locator('#sizes-red')).toBeHidden()
    // The swatches are one radio group the arrow keys go through.
    await page.locator('input[name="colour"][value="black"]').focus()
    await page.keyboard.press(dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight')
    await expect(page.locator('input[name="colour"][value="white"]')).toBeChecked()
    expect(await shownPictures(page)).toEqual([
      '/images/products/aurora-strada-9-white.svg',
      '/images/products/aurora-strada-9-detail-white.svg',
    ])
    await page.locator('.swatch-option', { hasText: texts.colour.black }).click()
    // Sold out: struck through and not selectable.
    await expect(page.locator('input[value="STR9-XL-BLK"]')).toBeDisabled()
    expect(
      await page
        .locator('label:has(input[value="STR9-XL-BLK"]) .buy-size-label')
        .evaluate((label) => getComputedStyle(label).textDecorationLine),
    ).toBe('line-through')

    if (viewport === PHONE) {
      // Scrolled past the buy box, the bar keeps the price and "Choose a size" in view, which brings the sizes back.
      await page.locator('.product-related').scrollIntoViewIfNeeded()
      const bar = page.locator('.buy-bar')
      await expect(bar).toBeVisible()
      await expect(bar.locator('.buy-bar-action')).toHaveText(texts.cart.choose_size)
      await keepScreenshot(page, `${SCREENSHOTS}/product-bar-${at}.png`)
      await bar.locator('.buy-bar-action').click()
      await expect(page.locator('#sizes-black input[value="STR9-XS-BLK"]')).toBeFocused()
      await expect(page.locator('#sizes-black')).toBeInViewport()
    }

    await page.locator('label:has(input[value="STR9-S-BLK"])').click()
    await expect(page.locator('input[value="STR9-S-BLK"]')).toBeChecked()
    const submit = buyBox.locator('.buy-row button[type="submit"]')
    await submit.click()
    await expect(buyBox.locator('.buy-message')).toContainText(texts.cart.added)
    await expect(page.locator('[data-cart-count]')).toHaveText('1')
    // The mini-cart: a dialog wholly in view (a bottom sheet on a phone, a side panel on a desktop), the focus in it.
    const sheet = page.getByRole('dialog', { name: texts.cart.sheet_title })
    await expect(sheet).toBeVisible()
    const box = await sheet.boundingBox()
    expect(box).not.toBeNull()
    if (box) {
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.y).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1)
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1)
    }
    await expect(sheet.locator('.cart-sheet-checkout')).toBeFocused()
    await expect(sheet.locator('.cart-sheet-name')).toHaveText('Aurora Strada 9')
    await expect(sheet.locator('.cart-sheet-line .meta')).toContainText(texts.colour.black)
    await expect(sheet.locator('.cart-sheet-checkout')).toHaveAttribute('href', new RegExp(`^/${market}/checkout/`))
    await expect(sheet.getByRole('button', { name: texts.common.close })).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, `${SCREENSHOTS}/product-added-${at}.png`)
    // Escape closes it, and the focus goes back to "add to cart".
    await page.keyboard.press('Escape')
    await expect(sheet).toBeHidden()
    await expect(submit).toBeFocused()

    if (viewport === PHONE) {
      await page.locator('.product-related').scrollIntoViewIfNeeded()
      await expect(page.locator('.buy-bar')).toBeVisible()
      await expect(page.locator('.buy-bar .buy-bar-action')).toHaveText(texts.cart.add)
    } else {
      // On a desktop the buy column stays beside the gallery while the page scrolls.
      await page.locator('.gallery-item[data-colour="black"]').last().scrollIntoViewIfNeeded()
      await page.mouse.wheel(0, 500)
      await expect(page.locator('.product-aside')).toBeInViewport()
      await expect(page.locator('.buy-bar')).toBeHidden()
    }

    // The gallery full screen: the viewer's chunk loads on the click; zoom, Escape closes, the focus comes back.
    await page.evaluate(() => window.scrollTo(0, 0))
    const first = page.locator('.gallery-link').filter({ visible: true }).first()
    await first.focus()
    await page.keyboard.press('Enter')
    const viewer = page.locator('dialog.viewer')
    await expect(viewer).toBeVisible()
    await expect(viewer.locator('.viewer-close')).toBeFocused()
    await expect(viewer.locator('.viewer-count')).toHaveText('1 / 2')
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press(dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight')
    await expect(viewer.locator('.viewer-count')).toHaveText('2 / 2')
    await expect(viewer.locator('img')).toHaveAttribute('src', '/images/products/aurora-strada-9-detail-black.svg')
    const before = await viewer.locator('img').evaluate((img) => img.getBoundingClientRect().width)
    await viewer.locator('img').click()
    await expect(viewer).toHaveAttribute('data-zoomed', '')
    expect(await viewer.locator('img').evaluate((img) => img.getBoundingClientRect().width)).toBeGreaterThan(before * 2)
    await keepScreenshot(page, `${SCREENSHOTS}/product-viewer-zoomed-${at}.png`)
    // The focus stays inside: tabbing goes round the viewer's controls.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog.viewer'))).toBe(true)
    }
    await page.keyboard.press('Escape')
    await expect(viewer).toHaveCount(0)
    await expect(first).toBeFocused()
    await expectNoSidewaysScroll(page)
    await keepScreenshot(page, `${SCREENSHOTS}/product-full-${at}.png`, { fullPage: true })

    // Another add, and the mini-cart's "checkout" leads to this cart's checkout (through the login it asks for).
    await submit.click()
    await expect(sheet).toBeVisible()
    await sheet.locator('.cart-sheet-close').click()
    await expect(sheet).toBeHidden()
    await submit.click()
    await sheet.locator('.cart-sheet-checkout').click()
    await expect(page).toHaveURL(/checkout/)
  })
}

test('it-it without JavaScript: the pictures are links to their files, and the colour chosen decides the size posted', async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: PHONE,
    extraHTTPHeaders: { 'CF-Connecting-IP': '198.51.100.99' },
  })
  const page = await context.newPage()
  await page.goto('/it-it/products/aurora-strada-9')
  await page.locator('.consent-actions button[value="reject"]').click()
  await expect(page.locator('.gallery-link').first()).toHaveAttribute('href', '/images/products/aurora-strada-9.svg')
  // A size in red, then the colour white: the sizes shown are white's, and white's size is the one added.
  await page.locator('label:has(input[value="STR9-M-RED"])').click()
  await page.locator('.swatch-option', { hasText: italian.colour.white }).click()
  await expect(page.locator('#sizes-red')).toBeHidden()
  expect(await shownPictures(page)).toEqual([
    '/images/products/aurora-strada-9-white.svg',
    '/images/products/aurora-strada-9-detail-white.svg',
  ])
  await page.locator('form.buy-box .buy-row button[type="submit"]').click()
  await expect(page).toHaveURL(/\/it-it\/products\/aurora-strada-9$/)
  await expect(page.locator('.toast')).toHaveText(italian.cart.choose_size)
  await page.locator('.swatch-option', { hasText: italian.colour.white }).click()
  await page.locator('label:has(input[value="STR9-L-WHT"])').click()
  await page.locator('form.buy-box .buy-row button[type="submit"]').click()
  await expect(page.locator('.toast[data-notice="cart_added"]')).toBeAttached()
  await expect(page.locator('[data-cart-count]')).toHaveText('1')
  await context.close()
})

test('mx-es (no online sales) at 390 px: the colours for their pictures, "find it at a dealer" with the nearest, no sizes, stock or buy bar', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await page.goto('/mx-es/products/aurora-strada-9')
  await rejectTracking(page)
  await expect(page.locator('form.buy-box')).toHaveCount(0)
  await expect(page.locator('.buy-bar')).toHaveCount(0)
  await expect(page.locator('.swatch-option')).toHaveCount(3)
  await expect(page.locator('.size-group')).toHaveCount(0)
  const dealers = page.locator('.find-at-dealer')
  await expect(dealers.locator('.find-at-dealer-list a')).toHaveCount(2)
  await expect(page.locator('.actions-prominent a').first()).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await expectNoSidewaysScroll(page)
  await keepScreenshot(page, `${SCREENSHOTS}/product-no-sales-mx-es-390.png`, { fullPage: true })
  await dealers.locator('.find-at-dealer-list a').first().click()
  await expect(page).toHaveURL(/\/mx-es\/dealers\//)
})
