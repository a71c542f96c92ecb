import AxeBuilder from '@axe-core/playwright'
import type { BrowserContext, Page } from '@playwright/test'
import { rejectTracking } from './fixtures/consent'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import arabic from '../../demo/messages/ar.json' with { type: 'json' }
import { checkPage } from './fixtures/page-checks'
import { slugOf } from '../fixtures/page-slugs'

const SCREENSHOTS = 'test-results/screenshots'

// The journeys are independent of each other: both workers take them, so that the file leaves no tail at the suite's end
// (docs/decisions/086-browser-journeys-resized-in-place.md).
test.describe.configure({ mode: 'parallel' })
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
] as const

/**
 * Each market's journey: where the test's browser says it is and the dealer nearest there, and two searches (a town
 * and a postcode) with the town's position and the dealer nearest to it.
 */
const MARKETS = [
  {
    segment: 'it-it',
    locator: slugOf('it-it', 'dealer-locator'),
    dir: 'ltr',
    t: italian,
    // Near Palermo's Teatro Massimo.
    position: { latitude: 38.1204, longitude: 13.3573 },
    nearPosition: "Cicli Conca d'Oro",
    searches: ['Palermo', '90100'],
    town: { lat: 38.1157, lng: 13.3615 },
    nearTown: "Cicli Conca d'Oro",
  },
  {
    segment: 'il-he',
    locator: slugOf('il-he', 'dealer-locator'),
    dir: 'rtl',
    t: hebrew,
    // Near Tel Aviv's Dizengoff Square.
    position: { latitude: 32.0779, longitude: 34.7741 },
    nearPosition: 'Yarkon Bikes',
    searches: ['תל אביב', '6473'],
    town: { lat: 32.0853, lng: 34.7818 },
    nearTown: 'Yarkon Bikes',
  },
] as const

type Market = (typeof MARKETS)[number]

/** The map drawn and in view: where a phone shows the list first, its list/map switch turned to the map. */
async function showMap(page: Page) {
  const map = page.locator('.dealer-map')
  await expect(map).toHaveAttribute('data-ready', 'true')
  if (await page.locator('.locator-views').isVisible()) await page.locator('.locator-views input[value="map"]').check()
  await expect(map).toBeVisible()
  return map
}

/** The map's state as its island tells it in the DOM, the map shown first where a phone shows the list. */
async function mapState(page: Page) {
  const map = await showMap(page)
  const numbers = async (name: string) => ((await map.getAttribute(name)) ?? '').split(',').map(Number)
  const [south, west, north, east] = await numbers('data-bounds')
  const [lat, lng] = await numbers('data-origin')
  return {
    bounds: { south: south!, west: west!, north: north!, east: east! },
    origin: { lat: lat!, lng: lng! },
    zoom: Number(await map.getAttribute('data-zoom')),
  }
}

/** The map fits the point and a few dealers around it, not the whole country (once framed at its shown size). */
async function expectMapAround(page: Page, point: { lat: number; lng: number }) {
  await expect(async () => {
    const { bounds, origin, zoom } = await mapState(page)
    expect(Math.abs(origin.lat - point.lat)).toBeLessThan(0.01)
    expect(Math.abs(origin.lng - point.lng)).toBeLessThan(0.01)
    expect(point.lat).toBeGreaterThan(bounds.south)
    expect(point.lat).toBeLessThan(bounds.north)
    expect(point.lng).toBeGreaterThan(bounds.west)
    expect(point.lng).toBeLessThan(bounds.east)
    expect(zoom).toBeGreaterThanOrEqual(6)
  }).toPass()
}

/**
 * No horizontal scroll, axe clean (`axe: false` for the locator as it opens: page-kinds.spec.ts axes that page kind at
 * each width and direction), and a screenshot kept.
 */
async function check(page: Page, name: string, { axe = true } = {}) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }))
  expect(widths.scroll, `${name}: horizontal scroll`).toBe(widths.client)
  if (axe) {
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      name,
    ).toEqual([])
  }
  await keepScreenshot(page, `${SCREENSHOTS}/dealer-locator-${name}.png`, { fullPage: true })
}

async function openLocator(page: Page, market: Market) {
  await page.goto(`/${market.segment}/${market.locator}`)
  await rejectTracking(page)
  await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
  await expect(page.locator('.dealer-map')).toHaveAttribute('data-ready', 'true')
}

const locateButton = (page: Page, market: Market) => page.getByRole('button', { name: market.t.dealer.locate })

async function allowPosition(context: BrowserContext, market: Market) {
  await context.grantPermissions(['geolocation'])
  await context.setGeolocation(market.position)
}

/**
 * Each journey once a market, at both widths in the one page (decision 086): it-it begins on a phone and ends on a
 * desktop, il-he the other way round, so each step is taken at each width in one of the two directions, and the state
 * it leads to is checked at both.
 */
const widthsOf = (market: Market) => (market.dir === 'ltr' ? [SIZES[0], SIZES[1]] : [SIZES[1], SIZES[0]])

for (const market of MARKETS) {
  const [first, second] = widthsOf(market)

  test(`${market.segment}: "use my position" refused at ${first.width} px (a message beside the button, the town field focused), then allowed at ${second.width} px (the dealers nearest to the browser's position first, the map around it)`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize(first)
    await context.clearPermissions()
    await openLocator(page, market)
    await check(page, `${market.segment}-${first.name}`, { axe: false })
    const button = locateButton(page, market)
    await expect(button).toHaveAttribute('data-hydrated', '')
    const before = page.url()
    await button.click()
    await expect(page.locator('.locate-message')).toHaveText(market.t.dealer.locate_denied)
    await expect(page.locator('#near')).toBeFocused()
    expect(page.url()).toBe(before)
    await check(page, `${market.segment}-refused-${first.name}`)
    // Resized in place, the map shown: one drawn wide and then narrowed (il-he) stays inside the page.
    await page.setViewportSize(second)
    await expect(page.locator('.locate-message')).toBeVisible()
    await showMap(page)
    await check(page, `${market.segment}-refused-${second.name}`)

    // Allowed this time: the page loads again measured from the browser's position.
    await allowPosition(context, market)
    await button.click()
    await expect(page).toHaveURL(
      new RegExp(`[?&]lat=${market.position.latitude.toFixed(3)}&lng=${market.position.longitude.toFixed(3)}`),
    )
    await expect(page.locator('#dealer-results')).toHaveAttribute('data-origin', 'position')
    await expect(page.locator('#dealer-results')).toHaveText(market.t.dealer.near_position)
    await expect(page.locator('.dealer-list > li').first().getByRole('heading')).toHaveText(market.nearPosition)
    await expectMapAround(page, { lat: market.position.latitude, lng: market.position.longitude })
    await check(page, `${market.segment}-position-${second.name}`)
    // The same page at the first width, resized in place: a map drawn wide and then narrowed (il-he) stays inside the
    // page, framed again around the position once shown.
    await page.setViewportSize(first)
    await expectMapAround(page, { lat: market.position.latitude, lng: market.position.longitude })
    await check(page, `${market.segment}-position-${first.name}`)
  })

  test(`${market.segment}: a town typed at ${first.width} px and a postcode at ${second.width} px, the dealers nearest to each first, the map re-centred there`, async ({
    page,
  }) => {
    await page.setViewportSize(first)
    await openLocator(page, market)
    for (const [i, size] of [first, second].entries()) {
      await page.setViewportSize(size)
      const words = market.searches[i] ?? ''
      await page.locator('#near').fill(words)
      await page.locator('.locator-form button[type="submit"]').click()
      await expect(page.locator('#near')).toHaveValue(words)
      await expect(page.locator('#dealer-results')).toHaveAttribute('data-origin', 'place')
      await expect(page.locator('.dealer-list > li').first().getByRole('heading')).toHaveText(market.nearTown)
      await expectMapAround(page, market.town)
      await check(page, `${market.segment}-searched-${size.name}`)
    }
  })
}

const PHONES_AND_DESKTOPS = [
  { segment: 'it-it', dir: 'ltr', t: italian, dealer: 'cicli-bergamasca', tel: 'tel:+390355550188' },
  { segment: 'ae-ar', dir: 'rtl', t: arabic, dealer: 'desert-spoke-cycles', tel: /^tel:\+971\d+$/ },
] as const

test('the locator on a phone: the list first, the map one tap away, each card with open now, call and directions; both side by side on a desktop (it-it, ae-ar)', async ({
  page,
}) => {
  for (const market of PHONES_AND_DESKTOPS) {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/${market.segment}/${slugOf(market.segment, 'dealer-locator')}`)
    await rejectTracking(page)
    await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
    const views = page.getByRole('group', { name: market.t.dealer.view_as })
    const list = page.locator('.dealer-list')
    const map = page.locator('.dealer-map')
    await expect(views).toBeVisible()
    await expect(views.getByRole('radio', { name: market.t.dealer.view_list })).toBeChecked()
    await expect(list).toBeVisible()
    await expect(map).toBeHidden()
    const card = list.locator('.dealer-card').first()
    await expect(card.locator('.open-now')).toBeVisible()
    await expect(card.locator('.dealer-call')).toHaveAttribute('href', /^tel:\+\d+$/)
    await expect(card.locator('.dealer-directions')).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=-?\d+\.\d+%2C-?\d+\.\d+$/,
    )
    await checkPage(page, `${market.segment}-list`, { prefix: 'dealer-locator' })
    // The map, one tap away: drawn at its shown size around the dealers, the list out of the way.
    await views.getByRole('radio', { name: market.t.dealer.view_map }).click()
    await expect(map).toBeVisible()
    await expect(list).toBeHidden()
    await expect(map).toHaveAttribute('data-ready', 'true')
    expect((await map.boundingBox())?.height).toBeGreaterThan(300)
    await expect(map.locator('.leaflet-interactive').first()).toBeVisible()
    await checkPage(page, `${market.segment}-map`, { prefix: 'dealer-locator' })
    // The keyboard goes back to the list.
    await views.getByRole('radio', { name: market.t.dealer.view_map }).focus()
    await page.keyboard.press(market.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight')
    await expect(list).toBeVisible()
    // A desktop shows both, without the switch.
    await page.setViewportSize({ width: 1366, height: 900 })
    await expect(views).toBeHidden()
    await expect(list).toBeVisible()
    await expect(map).toBeVisible()
  }
})

test("a dealer's page: open now, call and directions, and a map of where it is, at 390 and 1366 px (it-it, ae-ar)", async ({
  page,
}) => {
  for (const market of PHONES_AND_DESKTOPS) {
    await page.setViewportSize(SIZES[0])
    await page.goto(`/${market.segment}/dealers/${market.dealer}`)
    await rejectTracking(page)
    await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
    // The same page at each width, resized in place.
    for (const size of SIZES) {
      await page.setViewportSize(size)
      await expect(page.locator('main .open-now')).toBeVisible()
      await expect(page.getByRole('link', { name: market.t.dealer.call, exact: true })).toHaveAttribute(
        'href',
        market.tel,
      )
      await expect(page.getByRole('link', { name: market.t.dealer.directions, exact: true })).toHaveAttribute(
        'href',
        /^https:\/\/www\.google\.com\/maps\/dir\//,
      )
      const map = page.locator('.dealer-map')
      await expect(map).toHaveAttribute('data-ready', 'true')
      await expect(map).toBeVisible()
      await expect(map.locator('.leaflet-interactive')).toHaveCount(1)
      await checkPage(page, `dealer-${market.segment}`, { prefix: 'dealer-page' })
    }
  }
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the locator offers no "use my position" button, and its form still finds Palermo', async ({ page }) => {
    await page.goto('/it-it/rivenditori')
    await expect(page.locator('.locator-form button[type="submit"]')).toBeVisible()
    await expect(locateButton(page, MARKETS[0])).toHaveCount(0)
    await page.locator('#near').fill('Palermo')
    await page.locator('.locator-form button[type="submit"]').click()
    await expect(page.locator('.dealer-list > li').first().getByRole('heading')).toHaveText("Cicli Conca d'Oro")
  })
})
