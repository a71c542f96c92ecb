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

/** The two markets of every journey: left to right and right to left, with their texts. */
const MARKETS = [
  { segment: 'it-it', dir: 'ltr', texts: italian.listing },
  { segment: 'il-he', dir: 'rtl', texts: hebrew.listing },
] as const

/** A filter's choice by its value's name, whatever its count of products beside it ("Strada (3)"). */
const choice = (name: string) => new RegExp(`^${name} \\(`)

const count = (texts: (typeof MARKETS)[number]['texts'], n: number) =>
  n === 1 ? texts.count_one : texts.count.replace('{{count}}', String(n))

/** On a phone the filters are a closed panel: open it (a <details>, with or without JavaScript). */
async function openFilters(page: Page) {
  const panel = page.locator('details.listing-filters')
  if ((await panel.getAttribute('open')) === null && (await panel.locator('summary').isVisible()))
    await panel.locator('summary').click()
  await expect(page.locator('#listing-form fieldset').first()).toBeVisible()
}

/** No sideways scroll, and every filter and card inside the viewport's width. */
async function expectNoOverflow(page: Page) {
  const measured = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const outside = [...document.querySelectorAll('.listing-layout *')]
      .filter((el) => {
        const box = el.getBoundingClientRect()
        return (
          box.width > 0 && box.height > 0 && (box.left < -1 || box.right > width + 1) && !el.closest('.visually-hidden')
        )
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
    return { scroll: document.documentElement.scrollWidth, client: width, outside: outside.slice(0, 5) }
  })
  expect(measured.scroll).toBe(measured.client)
  expect(measured.outside).toEqual([])
}

async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

for (const market of MARKETS) {
  for (const viewport of [PHONE, DESKTOP]) {
    const where = `${market.segment} at ${viewport.width} px`

    test(`${where}: filter and sort with JavaScript, without a full reload`, async ({ page }) => {
      await page.setViewportSize(viewport)
      await page.goto(`/${market.segment}/products`)
      await rejectTracking(page)
      await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
      await expect(page.locator('#listing-form')).toHaveAttribute('data-hydrated', '')
      await page.evaluate(() => ((window as unknown as { listingMarker: string }).listingMarker = 'same page'))
      const heading = page.locator('#listing-count')
      const all = await page.locator('#listing-results .card').count()
      await expect(heading).toHaveText(count(market.texts, all))
      // With JavaScript the order applies at once: its button is for pages without.
      await expect(page.locator('.listing-sort-apply')).toBeHidden()

      await openFilters(page)
      // Steel is one touring bike's frame: offered, with its one product, until only road bikes are asked for.
      const steel = page.getByRole('checkbox', { name: choice(market.texts.materials.steel) })
      await expect(steel).toBeEnabled()
      await expect(steel).toHaveAccessibleName(`${market.texts.materials.steel} (1)`)
      await page.getByRole('checkbox', { name: choice(market.texts.disciplines.road) }).check()
      await expect(page).toHaveURL(`/${market.segment}/products?discipline=road`)
      await expect(steel).toBeDisabled()
      await expect(steel).toHaveAccessibleName(`${market.texts.materials.steel} (0)`)
      await expect(heading).toHaveText(count(market.texts, 3))
      await expect(page.locator('#listing-results .card')).toHaveCount(3)
      // The new number is said in a live region.
      await expect(page.locator('.island [role="status"]')).toHaveText(count(market.texts, 3))
      // "Show results" closes the panel on a phone and goes to the results.
      await page.getByRole('button', { name: market.texts.show_results }).click()
      await expect(heading).toBeFocused()
      await expect(page).toHaveURL(`/${market.segment}/products?discipline=road`)
      const road = page.locator('#listing-form input[name="discipline"][value="road"]')

      await page.getByRole('combobox', { name: market.texts.sort }).selectOption('price-desc')
      await expect(page).toHaveURL(`/${market.segment}/products?discipline=road&sort=price-desc`)
      await expect(page.locator('#listing-results .card h3').first()).toHaveText('Aurora e-Strada')
      await expect(page.locator('#listing-results .card-price').first()).toContainText(
        market.segment === 'it-it' ? '4490,00' : '19,290.00',
      )

      // The chip removes its filter; the order stays.
      await page
        .getByRole('link', { name: market.texts.remove.replace('{{filter}}', market.texts.disciplines.road) })
        .click()
      await expect(page).toHaveURL(`/${market.segment}/products?sort=price-desc`)
      await expect(heading).toHaveText(count(market.texts, all))
      await expect(road).not.toBeChecked()
      await expect(heading).toBeFocused()

      // Back undoes it.
      await page.goBack()
      await expect(page).toHaveURL(`/${market.segment}/products?discipline=road&sort=price-desc`)
      await expect(heading).toHaveText(count(market.texts, 3))
      await expect(road).toBeChecked()

      // No page was loaded again all along.
      expect(await page.evaluate(() => (window as unknown as { listingMarker?: string }).listingMarker)).toBe(
        'same page',
      )
    })

    test(`${where}: filter and sort without JavaScript`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport })
      const page = await context.newPage()
      await page.goto(`/${market.segment}/products/type/e-bikes`)
      await page.locator('.consent-actions button[value="reject"]').click()
      await expect(page.locator('#listing-form')).not.toHaveAttribute('data-hydrated', '')
      await openFilters(page)
      await page.getByRole('checkbox', { name: choice(market.texts.in_stock) }).check()
      await page
        .getByRole('spinbutton', { name: market.texts.price_max, exact: true })
        .fill(market.segment === 'it-it' ? '4500' : '19500')
      await page.getByRole('button', { name: market.texts.show_results }).click()
      // The plain GET form's own URL, empty fields and all.
      await expect(page).toHaveURL(
        `/${market.segment}/products/type/e-bikes?min=&max=${market.segment === 'it-it' ? '4500' : '19500'}&stock=1&sort=featured`,
      )
      // e-Strada, e-Citta 500 (e-Compatta is sold out; the others cost more).
      await expect(page.locator('#listing-count')).toHaveText(count(market.texts, 2))
      await expect(page.locator('.filter-chips a')).toHaveCount(3)

      await page.getByRole('combobox', { name: market.texts.sort }).selectOption('price-asc')
      await page.getByRole('button', { name: market.texts.apply_sort, exact: true }).click()
      await expect(page).toHaveURL(/sort=price-asc/)
      await expect(page.locator('#listing-results .card h3').first()).toHaveText('Aurora e-Città 500')

      await page.getByRole('link', { name: market.texts.clear }).click()
      await expect(page).toHaveURL(`/${market.segment}/products/type/e-bikes?sort=price-asc`)
      await expect(page.locator('.filter-chips')).toHaveCount(0)
      await context.close()
    })

    test(`${where}: the listing with its filters open fits, is accessible, and shows ${viewport === PHONE ? 'two cards a row' : 'the filters beside the cards'}`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport)
      await page.goto(`/${market.segment}/products?discipline=road&discipline=gravel&sort=price-asc`)
      await rejectTracking(page)
      await expect(page.locator('#listing-form')).toHaveAttribute('data-hydrated', '')
      await openFilters(page)
      await expect(page.locator('h1')).toHaveCount(1)
      const cards = page.locator('#listing-results .card')
      const [first, second, third] = await Promise.all([0, 1, 2].map((index) => cards.nth(index).boundingBox()))
      if (!first || !second || !third) throw new Error('three cards expected')
      expect(Math.abs(first.y - second.y)).toBeLessThan(1)
      if (viewport === PHONE) {
        // Two a row, side by side in the reading direction, the third on the next row.
        expect(market.dir === 'ltr' ? second.x > first.x : second.x < first.x).toBe(true)
        expect(third.y).toBeGreaterThan(first.y + first.height - 1)
        expect(first.width).toBeGreaterThan(150)
      } else {
        const filters = await page.locator('#listing-form').boundingBox()
        expect(filters && Math.abs(filters.y - (await page.locator('.listing-toolbar').boundingBox())!.y)).toBeLessThan(
          40,
        )
        expect(Math.abs(third.y - first.y)).toBeLessThan(1)
      }
      for (const price of await page.locator('#listing-results .card-price').allTextContents())
        expect(price).toMatch(/\d/)
      await expectNoOverflow(page)
      await expectAxeClean(page)
      await keepScreenshot(page, `${SCREENSHOTS}/listing-${market.segment}-${viewport.width}.png`)
    })
  }
}
