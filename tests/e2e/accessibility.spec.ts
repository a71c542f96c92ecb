import { chooseCookies, expect, test } from './fixtures/offline'

/*
 * Axe on every kind of page (the landing page, home, content pages, the forms, news, products, the error and
 * maintenance pages…) at 390 and 1366 px, left to right and right to left, with the experimental
 * label-content-name-mismatch, is page-kinds.spec.ts's: once per kind, width and direction. Here: what a page's
 * markup alone does not tell, the pickers' names against what they show and the keyboard.
 */

const PHONE = { width: 390, height: 844 }
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

test.describe('at phone width (390 px)', () => {
  test.use({ viewport: PHONE })

  for (const [path, visible] of [
    ['/it-it', 'Italia'],
    ['/il-he', 'ישראל'],
    ['/ch-fr', 'Schweiz / Suisse / Svizzera · Français'],
  ] as const) {
    test(`${path}: the market picker in the menu is named by the text it shows ("${visible}"), then what it does (WCAG 2.5.3)`, async ({
      page,
    }) => {
      await page.goto(path)
      await expect(page.locator('.mobile-menu-button')).toHaveAttribute('data-hydrated', '')
      await page.locator('.mobile-menu-button').click()
      const summary = page.locator('.market-picker summary')
      // What it shows in the menu sheet of a phone: the long form; the short one is hidden.
      await expect(summary.locator('.picker-long')).toBeVisible()
      await expect(summary.locator('.picker-long')).toHaveText(visible)
      await expect(summary.locator('.picker-short')).toBeHidden()
      await expect(summary).toHaveAccessibleName(new RegExp(`^${escapeRegExp(visible)}`))
    })
  }
})

for (const [path, visible] of [
  ['/it-it', 'IT · IT'],
  ['/il-he', 'IL · HE'],
  ['/ch-fr', 'CH · FR'],
] as const) {
  test(`${path}: the compact market picker of the bar is named by the text it shows ("${visible}"), then what it does (WCAG 2.5.3)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1366, height: 900 })
    await page.goto(path)
    const summary = page.locator('.market-picker summary')
    // What it shows on a wide screen: the short form; the long one is hidden (the rest of the name is for screen readers).
    await expect(summary.locator('.picker-short')).toBeVisible()
    await expect(summary.locator('.picker-short')).toHaveText(visible)
    await expect(summary.locator('.picker-long')).toBeHidden()
    await expect(summary).toHaveAccessibleName(new RegExp(`^${escapeRegExp(visible)}\\b`))
  })
}

test('the header works from the keyboard: skip link, product menu, market picker', async ({ page, baseURL }) => {
  // A visitor who has made their cookie choice: the consent banner, first of all for everyone else, is not shown.
  await chooseCookies(page.request, baseURL!, 'reject')
  await page.goto('/it-it')
  await page.keyboard.press('Tab')
  const skip = page.locator('.skip-link')
  await expect(skip).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#main$/)
  await page.locator('.product-menu summary').focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.product-menu')).toHaveAttribute('open', '')
  await expect(page.locator('.product-menu a').first()).toBeVisible()
  await page.locator('.market-picker summary').focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.market-picker')).toHaveAttribute('open', '')
})
