import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import arabic from '../../demo/messages/ar.json' with { type: 'json' }
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { rejectTracking } from './fixtures/consent'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

const MARKETS = [
  { segment: 'it-it', dir: 'ltr', texts: italian, weight: '7,4\u00a0kg (taglia M)', tyres: '700 × 28c, tubeless' },
  { segment: 'ae-ar', dir: 'rtl', texts: arabic, weight: '7.4\u00a0kg (مقاس M)', tyres: '700 × 28c، بدون أنبوب داخلي' },
  { segment: 'il-he', dir: 'rtl', texts: hebrew, weight: '7.4\u00a0kg (מידה M)', tyres: '700 × 28c, ללא פנימית' },
] as const

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** The page never scrolls sideways: its width is the viewport's. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth).toBe(clientWidth)
}

for (const market of MARKETS) {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`${market.segment} at ${viewport.width} px: the size guide opens beside the buy box, its geometry scrolls inside its own box, specifications read in the market's language`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport)
      await page.goto(`/${market.segment}/products/aurora-strada-9`)
      await rejectTracking(page)
      await expect(page.locator('html')).toHaveAttribute('dir', market.dir)

      // Specifications: translated, numbers the market's way, left-to-right runs isolated on right-to-left pages.
      const specs = page.locator('dl.specs')
      const value = (label: string) =>
        specs
          .locator('div')
          .filter({ has: page.getByText(label, { exact: true }) })
          .locator('dd')
      await expect(value(market.texts.spec.weight)).toHaveText(market.weight)
      await expect(value(market.texts.spec.tyres)).toHaveText(market.tyres)
      await expect(specs.locator('bdi[dir="ltr"]')).toHaveCount(market.dir === 'rtl' ? 10 : 0)

      // Closed at first: one line to open it.
      const guide = page.locator('details#size-guide')
      const summary = guide.locator('summary')
      await expect(summary).toHaveText(market.texts.size_guide.open)
      await expect(guide.locator('table.geometry')).toBeHidden()
      await summary.click()
      await expect(guide).toHaveAttribute('open', '')
      await expect(guide.getByRole('heading', { name: market.texts.size_guide.heights_title })).toBeVisible()
      await expect(guide.locator('.size-guide-heights tbody tr')).toHaveCount(5)
      const geometry = guide.getByRole('group', { name: market.texts.size_guide.geometry_title })
      await expect(geometry.locator('thead th')).toHaveCount(6)
      await expect(geometry.locator('tbody tr')).toHaveCount(8)

      // On a phone the table is wider than its box and scrolls there, from the keyboard too; the page never does.
      const box = await geometry.evaluate((element) => ({
        scrollWidth: element.scrollWidth,
        clientWidth: element.clientWidth,
      }))
      if (viewport === PHONE) {
        expect(box.scrollWidth).toBeGreaterThan(box.clientWidth)
        await geometry.focus()
        await page.keyboard.press(market.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight')
        await expect.poll(() => geometry.evaluate((element) => Math.abs(element.scrollLeft))).toBeGreaterThan(0)
      }
      await expectNoSidewaysScroll(page)
      const guideBox = await guide.boundingBox()
      expect(guideBox!.x).toBeGreaterThanOrEqual(0)
      expect(guideBox!.x + guideBox!.width).toBeLessThanOrEqual(viewport.width)

      expect(await axeViolations(page)).toEqual([])
      await guide.scrollIntoViewIfNeeded()
      await keepScreenshot(page, `${SCREENSHOTS}/size-guide-${market.segment}-${viewport.width}.png`)
      await specs.scrollIntoViewIfNeeded()
      await keepScreenshot(page, `${SCREENSHOTS}/specs-${market.segment}-${viewport.width}.png`)
    })
  }
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('it-it at 390 px: the size guide opens and shows the geometry', async ({ page }) => {
    await page.setViewportSize(PHONE)
    await page.goto('/it-it/products/aurora-strada-9')
    const guide = page.locator('details#size-guide')
    await guide.locator('summary').click()
    await expect(guide.locator('table.geometry')).toBeVisible()
    await expect(guide.locator('table.geometry tbody th').first()).toHaveText(`${italian.size_guide.stack} mm`)
    await expectNoSidewaysScroll(page)
  })
})
