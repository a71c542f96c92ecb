import { expect, test } from './fixtures/offline'

/**
 * The parts of a product page's first screen, at 390 and at 1366 px (the consent banner on top before a choice, the
 * header, the title, the gallery, the buy box and, on a phone, its bar at the bottom).
 */
const FIRST_SCREEN = [
  '.consent-form',
  '.header-bar',
  '.breadcrumbs',
  '.product-head h1',
  '.gallery-list img',
  '.buy-price',
  '.swatches',
  '.sizes',
  '.buy-submit',
  '.buy-bar',
]

/** Where each first-screen part is and how it is drawn, once the page's islands have hydrated. */
async function firstScreen(page: import('@playwright/test').Page) {
  await expect(page.locator('.site-header')).toHaveAttribute('data-hydrated', '')
  await page.evaluate(() => document.fonts.ready)
  return page.evaluate((selectors) => {
    const drawn: Record<string, string> = {}
    for (const selector of selectors) {
      const part = [...document.querySelectorAll(selector)].find((element) => element.getClientRects().length > 0)
      if (!part) {
        drawn[selector] = 'not shown'
        continue
      }
      const box = part.getBoundingClientRect()
      const style = getComputedStyle(part)
      drawn[selector] = [
        `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`,
        style.display,
        style.position,
        style.fontSize,
        style.fontWeight,
        style.color,
        style.backgroundColor,
        style.padding,
        style.borderRadius,
      ].join(' | ')
    }
    return drawn
  }, FIRST_SCREEN)
}

test("a product page's first screen is drawn by its inline CSS alone: the stylesheet moves and restyles nothing of it, at 390 and 1366 px, LTR and RTL", async ({
  page,
}) => {
  for (const market of ['it-it', 'il-he']) {
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 768 })
      const path = `/${market}/products/aurora-strada-9`
      // The site's stylesheet never arrives: what shows is the first paint's inline CSS.
      await page.route(/\/assets\/styles-[\w-]+\.css$/, (route) => route.abort())
      await page.goto(path)
      const inlineOnly = await firstScreen(page)
      await page.unroute(/\/assets\/styles-[\w-]+\.css$/)
      await page.goto(path)
      await expect(page.locator('link[data-swap]').first()).toHaveAttribute('media', 'all')
      expect(
        await page.evaluate(() => [...document.styleSheets].some((sheet) => /\/styles-/.test(sheet.href ?? ''))),
      ).toBe(true)
      const withStylesheet = await firstScreen(page)
      expect(Object.values(withStylesheet).filter((drawn) => drawn !== 'not shown').length).toBeGreaterThan(6)
      expect(inlineOnly, `${market} at ${width} px`).toEqual(withStylesheet)
    }
  }
})
