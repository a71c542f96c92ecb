import { checkPage } from './fixtures/page-checks'
import { rejectTracking } from './fixtures/consent'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { pageUrlOf } from '../fixtures/page-slugs'

// Search that helps (docs/decisions/061), as a visitor uses it: suggestions typed (with a typo) and chosen from the
// keyboard in the header, an empty result's way on, and the dealer locator reading a mistyped town. One journey per
// market: Italian on a desktop, Hebrew (right to left) on a phone. The one-time notice leaves the address at once.
/**
 * Out of sight by design: the footer's honeypot field (clipped, in a 1px box) and the closed header search's panel,
 * which Chromium still measures once its field has had the focus on the page before.
 */
const PAGE_CHECKS = { prefix: 'search-helps', besides: '.skip, .honeypot, details.header-search:not([open])' }

for (const { market, width, m } of [
  { market: 'it-it', width: 1366, m: italian },
  { market: 'il-he', width: 390, m: hebrew },
] as const) {
  test(`${market} at ${width} px: suggestions by keyboard, an empty result's offers, a mistyped town read and said`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 844 })
    await page.goto(`/${market}`)
    // The consent choice's notice is shown once and never sits in the address.
    await rejectTracking(page)
    expect(new URL(page.url()).search).toBe('')
    await page.reload()
    await expect(page.locator('.toast')).toHaveCount(0)

    // Typed with a typo, the suggestions list what the visitor means, priced; chosen by the keyboard.
    await page.locator('.header-search summary').click()
    const field = page.locator('#header-q')
    await expect(field).toBeFocused()
    await field.pressSequentially('stradda')
    const list = page.getByRole('listbox', { name: m.search.suggestions })
    await expect(list).toBeVisible()
    const strada = list.getByRole('option', { name: /Aurora Strada 9/ })
    await expect(strada).toBeVisible()
    await expect(strada).toContainText(market === 'it-it' ? '€' : '₪')
    await expect(field).toHaveAttribute('aria-expanded', 'true')
    const box = await list.boundingBox()
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width).toBe(true)
    await checkPage(page, `${market}-suggestions`, PAGE_CHECKS)
    await page.keyboard.press('Escape')
    await expect(list).toBeHidden()
    await page.keyboard.press('ArrowDown')
    await expect(list).toBeVisible()
    const options = list.getByRole('option')
    const titles = await options.allTextContents()
    const index = titles.findIndex((title) => title.includes('Aurora Strada 9'))
    for (let step = 0; step <= index; step++) await page.keyboard.press('ArrowDown')
    await expect(options.nth(index)).toHaveAttribute('aria-selected', 'true')
    await expect(field).toHaveAttribute('aria-activedescendant', `header-suggestions-${index}`)
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(`/${market}/products/aurora-strada-9`)

    // Nothing found: the page offers the bikes and the dealers.
    await page.goto(`/${market}/search/all?q=qqxqqzzk`)
    const empty = page.locator('.search-empty')
    await expect(empty).toContainText(m.search.empty_offer)
    await expect(empty.locator('.search-offers li')).toHaveCount(3)
    await expect(empty.getByRole('link', { name: m.search.all_bikes })).toHaveAttribute('href', `/${market}/products`)
    await expect(empty.getByRole('link', { name: m.search.find_dealer })).toBeVisible()
    await checkPage(page, `${market}-empty`, PAGE_CHECKS)

    // A mistyped town is read as the market's and said so.
    if (market === 'it-it') {
      await page.goto(pageUrlOf(market, 'dealer-locator', '?near=Mlano'))
      await expect(page.locator('#dealer-results')).toHaveText(m.dealer.showing_for.replace('{{place}}', 'Milano'))
      await keepScreenshot(page, `test-results/screenshots/search-helps-${market}-locator-${width}.png`)
    }
  })
}
