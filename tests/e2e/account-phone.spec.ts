import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures/offline'
import { addAddress, deleteAddress, logIn } from './fixtures/customer'
import { keepScreenshot } from './fixtures/screenshots'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }

/** The account at phone and desktop width, left to right and right to left (issue 12, item 6). */

const SCREENSHOTS = 'test-results/screenshots'

// The journeys are independent of each other: both workers take them, so that the file leaves no tail at the suite's end
// (docs/decisions/086-browser-journeys-resized-in-place.md).
test.describe.configure({ mode: 'parallel' })
const WIDTHS = [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1366, height: 900 }],
] as const

const violationsOf = async (page: Page) =>
  (
    await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze()
  ).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)

/** No sideways scroll: the page is exactly as wide as the viewport. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ])
  expect(scroll, what).toBe(client)
}

/**
 * Every one of these elements is visible with its whole box inside the viewport's width: each scrolled into view and
 * measured in the page, all in one round trip (decision 086).
 */
async function expectInsideViewport(page: Page, elements: Locator, what: string) {
  const width = page.viewportSize()!.width
  // Retried as a visibility check waits: the page's stylesheet may still be on its way after a click.
  await expect(async () => {
    const boxes = await elements.evaluateAll((all) =>
      all.map((element) => {
        element.scrollIntoView({ block: 'nearest', inline: 'nearest' })
        const box = element.getBoundingClientRect()
        const visible = box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true })
        return { visible, start: box.left, end: box.right }
      }),
    )
    expect(boxes.length, what).toBeGreaterThan(0)
    for (const [i, box] of boxes.entries()) {
      expect(box.visible, `${what} #${i} visible`).toBe(true)
      expect(box.start, `${what} #${i} starts inside`).toBeGreaterThanOrEqual(0)
      expect(box.end, `${what} #${i} ends inside`).toBeLessThanOrEqual(width + 0.5)
    }
  }).toPass()
}

/** Each order row as the reader sees it: a card (phone) or a table row (desktop). */
const rowDisplay = (table: Locator) =>
  table
    .locator('tbody tr')
    .first()
    .evaluate((row) => getComputedStyle(row).display)

/**
 * Checks a page for what every account page needs, then keeps its picture. Axe runs only on the states that are not a
 * page kind of page-kinds.spec.ts, which axes the overview, the orders, an order, the bikes and the addresses once per
 * width and direction (`axe: false` there).
 */
async function lookAt(page: Page, name: string, { axe = true } = {}) {
  await expectNoSidewaysScroll(page, name)
  if (axe) expect(await violationsOf(page), name).toEqual([])
  await keepScreenshot(page, `${SCREENSHOTS}/${name}.png`, { fullPage: true })
}

/**
 * Each journey once a market, at both widths in the one page (decision 086): it-it begins on a phone, il-he on a
 * desktop, and the widths take turns from page to page, so each step is taken at each width and every page it leads to
 * is checked at both.
 */
for (const [market, m] of [
  ['it-it', italian],
  ['il-he', hebrew],
] as const) {
  const [first, second] = market === 'it-it' ? [WIDTHS[0], WIDTHS[1]] : [WIDTHS[1], WIDTHS[0]]
  const shot = (size: { width: number }, name: string) => `account-${market}-${size.width}-${name}`
  const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) < 600

  test(`in ${market} on a phone and a desktop: the account's navigation in one piece, orders as stacked cards or as tables with every amount in view, bank details, axe clean`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(first[1])
    await logIn(page.request, baseURL!)
    await page.goto(`/${market}/my-account`)
    await expect(page).toHaveURL(`/${market}/my-account`)

    // The navigation: every section in view, no name wrapped onto a second line.
    const nav = page.getByRole('navigation', { name: m.account.navigation })
    for (const [, size] of [first, second]) {
      await page.setViewportSize(size)
      await expectInsideViewport(page, nav.getByRole('link'), 'account navigation')
      for (const link of await nav.getByRole('link').all()) {
        // One box per line of text: a name that wraps has two.
        const lines = await link.evaluate((a) => {
          const range = document.createRange()
          range.selectNodeContents(a)
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
        })
        expect(lines, await link.innerText()).toBe(1)
      }
      await expect(nav.getByRole('link', { name: m.account.overview })).toHaveAttribute('aria-current', 'page')
      await lookAt(page, shot(size, 'overview'), { axe: false })
    }

    // The orders: cards on a phone, a table on a desktop; every total inside the viewport either way.
    await nav.getByRole('link', { name: m.orders.title }).click()
    await expect(page).toHaveURL(`/${market}/my-account/orders`)
    const orders = page.getByRole('table', { name: m.orders.title })
    for (const [, size] of [second, first]) {
      await page.setViewportSize(size)
      const phone = isPhone(page)
      // Waited for: the page's stylesheet may still be on its way when the address changes.
      await expect.poll(() => rowDisplay(orders)).toBe(phone ? 'grid' : 'table-row')
      expect(await orders.locator('thead').evaluate((thead) => getComputedStyle(thead).position)).toBe(
        phone ? 'absolute' : 'static',
      )
      await expectInsideViewport(page, orders.locator('tbody td.number'), 'order totals')
      await expectInsideViewport(page, orders.locator('tbody th a'), 'order codes')
      await lookAt(page, shot(size, 'orders'), { axe: false })
    }

    // One order: its lines, the sums, the bank details it waits for.
    await page.getByRole('link', { name: /AUR-10007/ }).click()
    await expect(page).toHaveURL(`/${market}/my-account/orders/AUR-10007`)
    await expect(page.getByRole('heading', { name: m.bank.title })).toBeVisible()
    const items = page.getByRole('table', { name: m.order.items })
    for (const [, size] of [first, second]) {
      await page.setViewportSize(size)
      const phone = isPhone(page)
      await expectInsideViewport(page, page.locator('.bank-details dd'), 'bank details')
      await expect.poll(() => rowDisplay(items)).toBe(phone ? 'block' : 'table-row')
      await expectInsideViewport(page, items.locator('td.number'), 'order amounts')
      if (phone) {
        // Each value beside its column's name.
        const total = items.locator('tbody td').last()
        await expect(total).toHaveAttribute('data-label', m.order.line_total)
        expect(await total.evaluate((td) => getComputedStyle(td, '::before').content)).not.toBe('none')
      }
      await lookAt(page, shot(size, 'order-bank-transfer'))
    }
    await page.goto(`/${market}/my-account/orders/AUR-10001`)
    for (const [, size] of [second, first]) {
      await page.setViewportSize(size)
      await expectInsideViewport(page, items.locator('td.number'), 'order amounts')
      await lookAt(page, shot(size, 'order'), { axe: false })
    }
  })

  test(`in ${market} on a phone and a desktop: bikes and addresses without sideways scroll, an address deleted only once confirmed (cancel first), axe clean`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(first[1])
    await logIn(page.request, baseURL!)
    await page.goto(`/${market}/my-account/bikes`)
    await expect(page).toHaveURL(`/${market}/my-account/bikes`)
    const nav = page.getByRole('navigation', { name: m.account.navigation })
    for (const [, size] of [first, second]) {
      await page.setViewportSize(size)
      await lookAt(page, shot(size, 'bikes'), { axe: false })
    }

    // An address of this test's own, deleted: asked first, kept on "cancel", gone once confirmed.
    await nav.getByRole('link', { name: m.address.title }).click()
    await expect(page).toHaveURL(`/${market}/my-account/addresses`)
    const label = `Box ${first[1].width} ${Date.now() % 100000}`
    await addAddress(page, m, label)
    const card = () => page.locator('.address-card', { has: page.getByRole('heading', { name: label }) })
    await expect(card()).toHaveCount(1)
    for (const [, size] of [second, first]) {
      await page.setViewportSize(size)
      await lookAt(page, shot(size, 'addresses'), { axe: false })
    }

    await card()
      .getByRole('link', { name: `${m.address.delete}: ${label}` })
      .click()
    await expect(page).toHaveURL(new RegExp(`/${market}/my-account/addresses/\\d+/delete$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.address.delete_title)
    await expect(page.getByRole('heading', { level: 2, name: label })).toBeVisible()
    for (const [, size] of [first, second]) {
      await page.setViewportSize(size)
      await expectInsideViewport(
        page,
        page
          .locator('.delete-confirm .actions')
          .getByRole('button')
          .or(page.locator('.delete-confirm .actions').getByRole('link')),
        'the two answers',
      )
      await lookAt(page, shot(size, 'address-delete'))
    }
    await page.getByRole('link', { name: m.address.delete_cancel }).click()
    await expect(page).toHaveURL(`/${market}/my-account/addresses`)
    await expect(card()).toHaveCount(1)

    await deleteAddress(page, m, label, card)

    // The edit form, the values that read left to right kept so.
    await page
      .locator('.address-card')
      .first()
      .getByRole('link', { name: new RegExp(`^${m.address.edit}:`) })
      .click()
    await expect(page.getByLabel(m.address.postal_code, { exact: true })).toHaveAttribute('dir', 'ltr')
    for (const [, size] of [second, first]) {
      await page.setViewportSize(size)
      await lookAt(page, shot(size, 'address-edit'))
    }
  })
}
