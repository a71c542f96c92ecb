import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { chooseCookies, expect, test, type ThirdParties, problemsOf, recordProblems } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import { LIVE_SEGMENTS, MAINTENANCE_SEGMENTS } from '../fixtures/demo-markets'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

/** Every tracker origin of the site (the fixture answers them all locally). */
const TRACKERS =
  /googletagmanager\.com|google-analytics\.com|intercom|clarity\.ms|facebook\.(net|com)|tag\.mexico\.aurora-cycles\.example/
const TAG_MANAGER = /^https:\/\/www\.googletagmanager\.com\/gtm\.js\?id=GTM-/
const trackerRequests = (thirdParties: ThirdParties) => thirdParties.to(TRACKERS)
const exceptTagManager = (thirdParties: ThirdParties) =>
  trackerRequests(thirdParties).filter((url) => !TAG_MANAGER.test(url))

test.beforeEach(({ page }) => recordProblems(page))

/** The trackers' delays run on a clock that stands still until the test moves it (axe needs a real one). */
async function stillClock(page: Page) {
  await page.clock.install({ time: new Date('2026-11-23T09:00:00Z') })
  await page.clock.pauseAt(new Date('2026-11-23T09:00:01Z'))
}

/** The Consent Mode commands in the page's dataLayer, as plain arrays. */
const consentCommands = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])
      .map((entry) =>
        typeof entry === 'object' && entry !== null && 'length' in entry
          ? Array.from(entry as ArrayLike<unknown>)
          : entry,
      )
      .filter((entry): entry is unknown[] => Array.isArray(entry) && entry[0] === 'consent'),
  )

/**
 * Once the page has loaded (its scripts have set their timers), moves its clock on by `ms`, then waits until every
 * outside script the page holds by then (the trackers' loaders add `<script>` elements) has been asked for: what a
 * test reads next in `thirdParties` is all that the page has started.
 */
async function after(page: Page, thirdParties: ThirdParties, ms: number) {
  await page.waitForLoadState('load')
  await page.clock.runFor(ms)
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>('script[src]')]
      .map((script) => script.src)
      .filter((src) => new URL(src).origin !== location.origin),
  )
  await expect
    .poll(() => outside.filter((src) => !thirdParties.requests.includes(src)), { intervals: [10, 25, 50, 100] })
    .toEqual([])
}

test('before a choice nothing is asked of another origin, not even the tag manager; Consent Mode with everything denied', async ({
  page,
  thirdParties,
}) => {
  await stillClock(page)
  await page.goto('/it-it')
  await expect(page.getByRole('region', { name: 'La Sua privacy' })).toBeVisible()
  await after(page, thirdParties, 20_000)
  expect(thirdParties.requests).toEqual([])
  expect(await consentCommands(page)).toEqual([
    [
      'consent',
      'default',
      {
        ad_storage: 'denied',
        ad_user_data: 'denied',
        ad_personalization: 'denied',
        analytics_storage: 'denied',
        wait_for_update: 2000,
      },
    ],
  ])
  expect(problemsOf(page)).toEqual([])
})

test("accept: the tag manager is told, then the market's trackers load after their delays, and the banner does not come back", async ({
  page,
  context,
  thirdParties,
}) => {
  await stillClock(page)
  await page.goto('/it-it/products/aurora-e-cargo')
  await page.getByRole('button', { name: 'Accetta tutto' }).click()
  await expect(page).toHaveURL(/\/it-it\/products\/aurora-e-cargo$/)
  await expect(page.locator('.toast')).toHaveText('Le Sue scelte sui cookie sono state salvate.')
  await expect(page.getByRole('region', { name: 'La Sua privacy' })).toBeHidden()
  expect(await consentCommands(page)).toContainEqual([
    'consent',
    'update',
    { ad_storage: 'granted', ad_user_data: 'granted', ad_personalization: 'granted', analytics_storage: 'granted' },
  ])
  const cookie = (await context.cookies()).find((c) => c.name === '__Host-Consent')
  expect(cookie).toMatchObject({ value: 'v1.a1.m1.f1', httpOnly: true, secure: true, sameSite: 'Lax' })
  // The tag manager only now, once the visitor allowed its tags (docs/decisions/064-before-consent.md).
  expect(trackerRequests(thirdParties)).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-IT00001'])

  await after(page, thirdParties, 5_999)
  expect(exceptTagManager(thirdParties)).toEqual([])
  await after(page, thirdParties, 1)
  expect(exceptTagManager(thirdParties)).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-IT0000001'])
  await after(page, thirdParties, 999)
  expect(thirdParties.to(/facebook/)).toEqual([])
  await after(page, thirdParties, 1)
  expect(thirdParties.to(/facebook/)).toEqual(['https://connect.facebook.net/en_US/fbevents.js'])

  await page.goto('/it-it/news')
  await expect(page.getByRole('region', { name: 'La Sua privacy' })).toBeHidden()
  expect(problemsOf(page)).toEqual([])
})

for (const [market, accept, tracker, delay] of [
  ['us-en', 'Accept all', 'https://widget.intercom.io/widget/icus0001', 5_000],
  ['mx-es', 'Aceptar todo', 'https://tag.mexico.aurora-cycles.example/tag.js?id=MX-TAG-0001', 6_000],
  ['de-de', 'Alle akzeptieren', 'https://www.clarity.ms/tag/clarity-de-01', 6_000],
] as const) {
  test(`accept on ${market}: its own tracker loads after ${delay / 1000} s`, async ({ page, thirdParties }) => {
    await stillClock(page)
    await page.goto(`/${market}`)
    await page.getByRole('button', { name: accept }).click()
    await expect(page.locator('.toast[data-notice="consent_saved"]')).toBeAttached()
    await after(page, thirdParties, delay - 1)
    expect(exceptTagManager(thirdParties)).toEqual([])
    await after(page, thirdParties, 1)
    expect(exceptTagManager(thirdParties)).toEqual([tracker])
    expect(problemsOf(page)).toEqual([])
  })
}

test('reject: no tracker ever, nor the tag manager; Consent Mode told everything stays denied', async ({
  page,
  thirdParties,
}) => {
  await stillClock(page)
  await page.goto('/it-it')
  await page.getByRole('button', { name: 'Rifiuta tutto' }).click()
  await expect(page.locator('.toast[data-notice="consent_saved"]')).toBeAttached()
  await after(page, thirdParties, 60_000)
  await page.goto('/it-it/news')
  await after(page, thirdParties, 60_000)
  expect(trackerRequests(thirdParties)).toEqual([])
  expect(await consentCommands(page)).toContainEqual([
    'consent',
    'update',
    { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', analytics_storage: 'denied' },
  ])
  await expect(page.getByRole('region', { name: 'La Sua privacy' })).toBeHidden()
  expect(problemsOf(page)).toEqual([])
})

test.describe('with Global Privacy Control', () => {
  test.use({ extraHTTPHeaders: { 'Sec-GPC': '1' } })

  test('nothing is asked and no tracker ever loads, even with everything accepted before', async ({
    page,
    baseURL,
    thirdParties,
  }) => {
    await stillClock(page)
    await chooseCookies(page.request, baseURL!, 'accept')
    await page.goto('/us-en')
    await expect(page.getByRole('region', { name: 'Your privacy' })).toBeHidden()
    await after(page, thirdParties, 60_000)
    expect(trackerRequests(thirdParties)).toEqual([])
    // Cookie settings say why there is nothing to choose.
    await page.getByRole('link', { name: 'Cookie settings' }).click()
    await expect(page.getByText('Global Privacy Control')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Accept all' })).toHaveCount(0)
    expect(problemsOf(page)).toEqual([])
  })
})

test('customise: only the chosen categories load; cookie settings reopen the choice, ticked, and change it', async ({
  page,
  thirdParties,
}) => {
  await stillClock(page)
  await page.goto('/it-it')
  await page.getByText('Personalizza').click()
  await page.getByRole('checkbox', { name: 'Statistiche' }).check()
  await page.getByRole('button', { name: 'Salva le mie scelte' }).click()
  await expect(page.locator('.toast[data-notice="consent_saved"]')).toBeAttached()
  await after(page, thirdParties, 60_000)
  expect(exceptTagManager(thirdParties)).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-IT0000001'])

  await page.getByRole('link', { name: 'Impostazioni dei cookie' }).click()
  const settings = page.getByRole('region', { name: 'La Sua privacy' })
  await expect(settings).toBeVisible()
  await expect(settings.getByRole('checkbox', { name: 'Statistiche' })).toBeChecked()
  await expect(settings.getByRole('checkbox', { name: 'Marketing' })).not.toBeChecked()
  await expect(settings.getByRole('checkbox', { name: 'Necessari' })).toBeDisabled()
  await settings.getByRole('button', { name: 'Rifiuta tutto' }).click()
  await expect(page.getByRole('region', { name: 'La Sua privacy' })).toBeHidden()
  const before = exceptTagManager(thirdParties).length
  await after(page, thirdParties, 60_000)
  expect(exceptTagManager(thirdParties).length).toBe(before)
  expect(problemsOf(page)).toEqual([])
})

test('the banner works from the keyboard: first in the page, then accept with Enter', async ({ page }) => {
  await page.goto('/int-en')
  await page.keyboard.press('Tab')
  await expect(
    page.getByRole('region', { name: 'Your privacy' }).getByRole('link', { name: 'Cookie policy' }),
  ).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.locator('.consent-details summary')).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Reject all' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Accept all' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/int-en$/)
  await expect(page.getByRole('region', { name: 'Your privacy' })).toBeHidden()
})

const axe = async (page: Page) =>
  (
    await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze()
  ).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)

for (const [market, viewport, name] of [
  ['it-it', DESKTOP, 'desktop'],
  ['it-it', PHONE, 'phone'],
  ['il-he', DESKTOP, 'desktop'],
  ['il-he', PHONE, 'phone'],
  ['ae-ar', PHONE, 'phone'],
] as const) {
  test(`${market} (${name}): the banner and the settings pass axe`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await page.goto(`/${market}`)
    const banner = page.locator('#cookie-settings')
    await expect(banner).toBeVisible()
    expect(await axe(page)).toEqual([])
    if (market !== 'it-it') expect(await banner.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl')
    await keepScreenshot(page, `${SCREENSHOTS}/consent-banner-${market}-${name}.png`)
    // The settings: customise open.
    await banner.locator('summary').click()
    await expect(banner.getByRole('checkbox').first()).toBeVisible()
    expect(await axe(page)).toEqual([])
    await keepScreenshot(page, `${SCREENSHOTS}/consent-settings-${market}-${name}.png`, { fullPage: name === 'phone' })
    // Reopened from the footer after a choice.
    await banner.getByRole('button').filter({ hasText: /./ }).last().click()
    await expect(page.locator('.toast[data-notice="consent_saved"]')).toBeAttached()
    await page.locator('footer a[href="#cookie-settings"]').click()
    await expect(banner).toBeVisible()
    expect(await axe(page)).toEqual([])
    expect(problemsOf(page)).toEqual([])
  })
}

test('the landing page links every live market plainly, and a click still remembers it', async ({ page, context }) => {
  await page.goto('/')
  const links = page.locator('.landing-markets a')
  await expect(links).toHaveCount(LIVE_SEGMENTS.length)
  for (const segment of LIVE_SEGMENTS)
    await expect(page.locator(`.landing-markets a[href="/${segment}"]`), segment).toHaveCount(1)
  for (const segment of MAINTENANCE_SEGMENTS)
    await expect(page.locator(`.landing-markets a[href="/${segment}"]`), segment).toHaveCount(0)
  await page.getByRole('link', { name: 'ישראל' }).click()
  await expect(page).toHaveURL(/\/il-he$/)
  expect((await context.cookies()).find((c) => c.name === 'CountryLocale')?.value).toBe('il-he')
  expect(problemsOf(page)).toEqual([])
})
