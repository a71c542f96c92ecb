import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

const PAGES = ['/', '/it-it', '/il-he', '/ae-ar', '/de-de/ueber-uns', '/it-it/contatti', '/xx-yy', '/nl-nl']

for (const path of PAGES) {
  test(`${path} has no accessibility violations (axe)`, async ({ page }) => {
    await page.goto(path)
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  })
}

test('the header works from the keyboard: skip link, product menu, market picker', async ({ page }) => {
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
