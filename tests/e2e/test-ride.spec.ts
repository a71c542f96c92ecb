import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { slugOf } from '../fixtures/page-slugs'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

/** The first day at least `from` days ahead that falls on `weekday` (Monday 0 … Sunday 6), `YYYY-MM-DD`. */
function dayAhead(weekday: number, from = 3): string {
  for (let days = from; ; days++) {
    const date = new Date(Date.now() + days * 86_400_000)
    if ((date.getUTCDay() + 6) % 7 === weekday) return date.toISOString().slice(0, 10)
  }
}

let clients = 0
/**
 * Each test is a visitor of its own (the forms' rate limit counts per client and form): a documentation address in
 * `CF-Connecting-IP`, which the local runtime passes on as Cloudflare's edge would set it.
 */
test.beforeEach(async ({ page }, info) => {
  await page.setExtraHTTPHeaders({
    'CF-Connecting-IP': `203.0.113.${((clients++ + info.retry * 50 + info.workerIndex * 100) % 250) + 1}`,
  })
})

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Each market's ride: a dealer, a day it is closed and one it is open, and what the page says. */
const RIDES = [
  {
    market: 'it-it',
    dealer: 'cicli-bergamasca',
    closedDay: dayAhead(6),
    openDay: dayAhead(1),
    closed: italian.validation.dealer_closed,
    openDays: 'Giorni di apertura di Cicli Bergamasca: da lunedì a sabato.',
    rider: { first: 'Giulia', last: 'Rossi', email: 'giulia@example.com', phone: '+39 035 555 0101' },
  },
  {
    market: 'il-he',
    dealer: 'yarkon-bikes',
    closedDay: dayAhead(5),
    openDay: dayAhead(6),
    closed: hebrew.validation.dealer_closed,
    openDays: 'ימי הפתיחה של Yarkon Bikes: מיום ראשון עד יום שישי.',
    rider: { first: 'נועה', last: 'לוי', email: 'noa@example.com', phone: '+972 3 555 0101' },
  },
] as const

/** How long the lazy island may take to load and hydrate on a busy machine (it says the days once it has). */
const HYDRATION_MS = 20_000

const withoutIsolates = (text: string | null) => (text ?? '').replace(/[\u2068\u2069]/g, '')

for (const ride of RIDES) {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`books a test ride from a product page in ${ride.market} at ${viewport.width} px: a closed day caught at once, then wrong, then right`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport)
      await page.goto(`/${ride.market}/products/aurora-strada-9`)
      await page
        .locator(`a[href="/${ride.market}/${slugOf(ride.market, 'test-drive')}?model=aurora-strada-9"]`)
        .first()
        .click()
      await expect(page).toHaveURL(
        new RegExp(`/${ride.market}/${slugOf(ride.market, 'test-drive')}\\?model=aurora-strada-9$`),
      )
      const form = page.locator('form.lead-form')
      await expect(form.locator('#field-product')).toHaveValue('aurora-strada-9')

      // The island tells the dealer's days and refuses a closed one as soon as it is chosen.
      await form.locator('#field-dealer').selectOption(ride.dealer)
      await expect
        .poll(async () => withoutIsolates(await page.locator('#field-date-days').textContent()), {
          timeout: HYDRATION_MS,
        })
        .toBe(ride.openDays)
      await form.locator('#field-date').fill(ride.closedDay)
      await expect(page.locator('#field-date-closed')).toHaveText(ride.closed)
      await expect(form.locator('#field-date')).toHaveAttribute('aria-invalid', 'true')
      expect(await form.locator('#field-date').evaluate((input: HTMLInputElement) => input.validationMessage)).toBe(
        ride.closed,
      )
      await form.locator('#field-first_name').fill(ride.rider.first)
      await form.locator('button[type="submit"]').click()
      // Not sent: the day field has the focus again.
      await expect(form.locator('#field-date')).toBeFocused()
      await expect(page).toHaveURL(
        new RegExp(`/${ride.market}/${slugOf(ride.market, 'test-drive')}\\?model=aurora-strada-9$`),
      )

      // An open day; the rest wrong or missing: the server's messages, everything kept.
      await form.locator('#field-date').fill(ride.openDay)
      await expect(page.locator('#field-date-closed')).toHaveCount(0)
      await form.locator('#field-email').fill('not-an-address')
      await form.locator('button[type="submit"]').click()
      await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
      await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'true')
      await expect(page.locator('#field-product')).toHaveValue('aurora-strada-9')
      await expect(page.locator('#field-dealer')).toHaveValue(ride.dealer)
      await expect(page.locator('#field-date')).toHaveValue(ride.openDay)
      await expect(page.locator('#field-first_name')).toHaveValue(ride.rider.first)
      await keepScreenshot(page, `${SCREENSHOTS}/test-ride-${ride.market}-${viewport.width}-errors.png`, {
        fullPage: true,
      })

      await page.locator('#field-part_of_day-1').check()
      await page.locator('#field-last_name').fill(ride.rider.last)
      await page.locator('#field-email').fill(ride.rider.email)
      await page.locator('#field-phone').fill(ride.rider.phone)
      await page.locator('#field-consent').check()
      await page.locator('form.lead-form button[type="submit"]').click()
      await expect(page).toHaveURL(
        new RegExp(`/${ride.market}/${slugOf(ride.market, 'test-drive')}/sent\\?reference=TR-`),
      )
      const reference = new URL(page.url()).searchParams.get('reference')!
      await expect(page.locator('.reference strong')).toHaveText(reference)
    })
  }
}

test('from a dealer card of the locator, the form starts with that dealer and its opening days (il-he, 390 px)', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  await page.goto('/il-he/chanuyot')
  await page.locator('a[href="/il-he/nesiat-mivchan?dealer=yarkon-bikes"]').click()
  await expect(page.locator('#field-dealer')).toHaveValue('yarkon-bikes')
  await expect
    .poll(async () => withoutIsolates(await page.locator('#field-date-days').textContent()), { timeout: HYDRATION_MS })
    .toBe(RIDES[1].openDays)
  await keepScreenshot(page, `${SCREENSHOTS}/test-ride-il-he-390.png`, { fullPage: true })
})

for (const [market, viewport] of [
  ['it-it', PHONE],
  ['il-he', PHONE],
  ['il-he', DESKTOP],
  ['it-it', DESKTOP],
] as const) {
  // The form as it opens is axed by page-kinds.spec.ts (test-ride-form) at each width and direction.
  test(`/${market}/${slugOf(market, 'test-drive')} at ${viewport.width} px has no accessibility violations with its errors shown and with a closed day`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await page.goto(`/${market}/${slugOf(market, 'test-drive')}?model=aurora-strada-9`)
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
    const ride = RIDES.find((r) => r.market === market)!
    await page.locator('#field-dealer').selectOption(ride.dealer)
    // The island has hydrated and read the dealer once it tells the dealer's days: only then is a day checked.
    await expect
      .poll(async () => withoutIsolates(await page.locator('#field-date-days').textContent()), {
        timeout: HYDRATION_MS,
      })
      .toBe(ride.openDays)
    await page.locator('#field-date').fill(ride.closedDay)
    await expect(page.locator('#field-date-closed')).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
}
