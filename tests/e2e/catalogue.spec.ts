import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/offline'

/** One transparent pixel: the map's tiles, so the test never needs the tile server (or any network). */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: TILE }),
  )
})

const MARKETS = [
  { segment: 'it-it', dir: 'ltr', locator: 'rivenditori', town: 'Bologna', nearest: 'Bici Felsinea' },
  { segment: 'il-he', dir: 'rtl', locator: 'chanuyot', town: 'Jerusalem', nearest: 'אופני ההר' },
]

async function openProductThroughMenu(page: Page, segment: string) {
  await page.goto(`/${segment}`)
  await page.locator('.product-menu summary').click()
  await page
    .locator('.product-menu')
    .getByRole('link', { name: /Aurora Strada 9/ })
    .click()
  await expect(page).toHaveURL(`/${segment}/products/aurora-strada-9`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Aurora Strada 9')
}

for (const market of MARKETS) {
  test(`${market.segment} (${market.dir}): a product through the menu, search, a news article, the nearest dealer and its page`, {
    tag: '@over-http',
  }, async ({ page }) => {
    await openProductThroughMenu(page, market.segment)
    await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
    // The price once: the chosen colour's (the others' lines hidden).
    await expect(page.locator('.price').filter({ visible: true })).toHaveCount(1)

    // Search for it from the header's box.
    await page.locator('.header-search summary').click()
    const box = page.locator('#header-q')
    await box.fill('strada')
    await box.press('Enter')
    await expect(page).toHaveURL(`/${market.segment}/search/all?q=strada`)
    await expect(page.locator('#search-q')).toHaveValue('strada')
    await page.locator('.results').getByRole('link', { name: 'Aurora Strada 9' }).click()
    await expect(page).toHaveURL(`/${market.segment}/products/aurora-strada-9`)

    // A news article.
    await page.goto(`/${market.segment}/news`)
    const first = page.locator('.news-grid a').first()
    const title = (await first.locator('h2').textContent()) ?? ''
    await first.click()
    await expect(page).toHaveURL(new RegExp(`/${market.segment}/news/details/`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)

    // The nearest dealer to a town typed in, then its page.
    await page.goto(`/${market.segment}/${market.locator}`)
    await expect(page.locator('.dealer-map')).toHaveAttribute('data-ready', 'true')
    await page.locator('#near').fill(market.town)
    await page.locator('.locator-form button[type="submit"]').click()
    await expect(page).toHaveURL(new RegExp(`near=${market.town}`))
    const nearest = page.locator('.dealer-list > li').first()
    await expect(nearest.getByRole('heading')).toHaveText(market.nearest)
    await nearest.getByRole('link', { name: market.nearest, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/${market.segment}/dealers/`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(market.nearest)
  })
}

test('the product menu works from the keyboard and on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/it-it')
  await expect(page.locator('.mobile-menu-button')).toHaveAttribute('data-hydrated', '')
  await page.getByRole('button', { name: 'Apri il menu' }).click()
  // The sheet opens on the product types; their disclosure closes and opens again from the keyboard.
  await expect(page.locator('.product-menu')).toHaveAttribute('open', '')
  const summary = page.locator('.product-menu summary')
  await summary.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.product-menu')).not.toHaveAttribute('open', '')
  await page.keyboard.press('Enter')
  await expect(page.locator('.product-menu')).toHaveAttribute('open', '')
  await page.locator('.product-menu').getByRole('link', { name: 'E-bike', exact: true }).click()
  await expect(page).toHaveURL('/it-it/products/type/e-bikes')
})

// Axe on the product, listing, news, article, search, locator and dealer pages: page-kinds.spec.ts, once per kind at
// 390 and 1366 px, left to right and right to left (the locator's searched states: dealer-locator.spec.ts).
