import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Page } from '@playwright/test'
import { addToCart } from './fixtures/cart'
import { logIn } from './fixtures/customer'
import { layoutProblems } from './fixtures/layout'
import { outsideThePage } from './fixtures/page-checks'
import { chooseCookies, expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import { demoMarketOf } from '../fixtures/demo-markets'

/**
 * Every kind of page, at a phone's width (390 px) and a desktop's (1366 px), in each of an LTR market (it-it), the
 * market with the longest words (de-de) and a right-to-left one (ae-ar) — a kind missing from one of them fails,
 * unless the demo data switches its page off there, where it must answer 404: no horizontal scroll (`scrollWidth`
 * equals `clientWidth`), every visible element's box inside the viewport (outside scroll and clipping containers,
 * which the check looks at themselves), no clipped text (an element that hides its overflow shows all of its text),
 * axe clean. With `E2E_SCREENSHOTS=1` a full-page screenshot of each is kept in
 * `test-results/screens/<kind>-<locale>-<width>.png` (for a person to look at; no test compares them, so a normal
 * run spends no time on them: docs/decisions/030-browser-suite-time.md).
 */

const SCREENS = 'test-results/screens'
const MARKETS = ['it-it', 'de-de', 'ae-ar'] as const
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const
/**
 * Where axe runs: once per page kind, width and direction, in the LTR market and the RTL one (what axe finds depends
 * on the page's structure and its direction, not on the language's word lengths, which the layout checks measure in
 * de-de), with the experimental `label-content-name-mismatch` (WCAG 2.5.3: a control's name starts with the text it
 * shows). No other browser test axes these pages in their plain state at these widths (accessibility.spec.ts keeps
 * what is not a kind here).
 */
const AXE_IN: readonly Market[] = ['it-it', 'ae-ar']

type Market = (typeof MARKETS)[number]
/** A market switch of the site record that turns pages off (the forms' switches). */
type Switch = 'test_ride_inquiry' | 'become_a_partner' | 'work_with_us'
/** Where a page kind is in a market, or null when the market shows none (which fails the kind's test). */
type Locate = (page: Page, market: Market) => Promise<string | null>
type Kind = {
  name: string
  /** `market`: once per market; `brand`: a page without a market, once (named by its language). */
  scope?: 'market' | 'brand'
  /** The demo customer logged in first. */
  customer?: boolean
  /** The status the page answers (200 unless said). */
  status?: number
  /** The site record's switch that turns the page off: a market whose switch is off must answer 404. */
  switchedOffBy?: Switch
  locate: Locate
  /** After the visit: puts back what it changed (a cart line). */
  cleanUp?: (page: Page, market: Market) => Promise<void>
}

/** The market's slug for a pageLinks key, from the site record the embedded API serves (as the Worker reads it). */
const pageLinks = new Map<string, Record<string, unknown>>()
async function slugOf(request: APIRequestContext, market: Market, key: string): Promise<string | null> {
  const [country, locale] = market.split('-') as [string, string]
  if (!pageLinks.has(country)) {
    const answer = await request.get(`/api/sites/${country}`)
    pageLinks.set(country, answer.ok() ? ((await answer.json()).data.pageLinks ?? {}) : {})
  }
  const link = pageLinks.get(country)![key]
  if (typeof link === 'string') return link
  // A market whose slugs are per language: `{ "it": "chi-siamo", … }`.
  if (link && typeof link === 'object') return (link as Record<string, string>)[locale] ?? null
  return null
}

/** A content page by its pageLinks key, or null where the market has no link. */
const contentPage =
  (key: string): Locate =>
  async (page, market) => {
    const slug = await slugOf(page.request, market, key)
    return slug ? `/${market}/${slug}` : null
  }

/** The first link in a page's HTML whose `href` matches `pattern` (read without rendering it in the browser), or null. */
async function firstLink(page: Page, from: string, pattern: RegExp): Promise<string | null> {
  const answer = await page.request.get(from)
  if (answer.status() !== 200) return null
  for (const [, href] of (await answer.text()).matchAll(/<a [^>]*href="([^"]+)"/g)) {
    const path = href!.replaceAll('&amp;', '&')
    if (pattern.test(path)) return path
  }
  return null
}

/** Adds the first available size of the market's first bike to the visitor's cart, as the buy box posts it. */
async function addABike(page: Page, market: Market, baseURL: string): Promise<string | null> {
  const product = await firstLink(page, `/${market}/products`, PRODUCT)
  if (!product) return null
  const html = await (await page.request.get(product)).text()
  const sku = [...html.matchAll(/<input [^>]*>/g)]
    .map(([input]) => input)
    .find((input) => /name="sku(?:-[a-z0-9-]+)?"/.test(input) && !/ disabled/.test(input))
    ?.match(/value="([^"]+)"/)?.[1]
  if (!sku) return null
  if (!(await addToCart(page.request, baseURL, market, product.split('/').pop()!, sku))) return null
  added.set(market, sku)
  return sku
}

/** Removes the line `addABike` added to the visitor's cart in a market, so the demo customer's cart stays as it was. */
async function removeTheBike(page: Page, market: Market, baseURL: string): Promise<void> {
  const sku = added.get(market)
  if (!sku) return
  added.delete(market)
  await page.request.post(`/${market}/cart/items/${encodeURIComponent(sku)}/remove`, {
    headers: { Origin: baseURL },
    form: {},
    maxRedirects: 0,
  })
}

/** The variant `addABike` put into each market's cart, until it is removed. */
const added = new Map<Market, string>()

let baseUrl = ''
const PRODUCT = /^\/[a-z]+-[a-z]+\/products\/(?!type\/)[a-z0-9-]+$/

const KINDS: Kind[] = [
  { name: 'landing', scope: 'brand', locate: async () => '/' },
  { name: 'home', locate: async (_, m) => `/${m}` },
  { name: 'listing', locate: async (_, m) => `/${m}/products` },
  {
    name: 'type-listing',
    locate: async (page, m) => firstLink(page, `/${m}/products`, /\/products\/type\/[a-z0-9-]+$/),
  },
  { name: 'product', locate: async (page, m) => firstLink(page, `/${m}/products`, PRODUCT) },
  { name: 'news-index', locate: async (_, m) => `/${m}/news` },
  { name: 'article', locate: async (page, m) => firstLink(page, `/${m}/news`, /\/news\/details\//) },
  { name: 'content-page', locate: contentPage('about-us') },
  { name: 'contact-form', locate: contentPage('contact-us') },
  { name: 'test-ride-form', switchedOffBy: 'test_ride_inquiry', locate: contentPage('test-drive') },
  { name: 'dealer-form', switchedOffBy: 'become_a_partner', locate: contentPage('become-a-dealer') },
  { name: 'distributor-form', switchedOffBy: 'become_a_partner', locate: contentPage('become-a-distributor') },
  { name: 'job-form', switchedOffBy: 'work_with_us', locate: contentPage('work-with-us') },
  { name: 'dealer-locator', locate: contentPage('dealer-locator') },
  {
    name: 'dealer-page',
    locate: async (page, m) => {
      const locator = await contentPage('dealer-locator')(page, m)
      return locator ? firstLink(page, locator, /\/dealers\/[a-z0-9-]+$/) : null
    },
  },
  { name: 'search', locate: async (_, m) => `/${m}/search/all?q=aurora` },
  { name: 'cart-empty', locate: async (_, m) => `/${m}/cart` },
  {
    name: 'cart-full',
    locate: async (page, m) => ((await addABike(page, m, baseUrl)) ? `/${m}/cart` : null),
  },
  { name: 'login', locate: async (_, m) => `/login?redirect=${encodeURIComponent(`/${m}/my-account`)}` },
  { name: 'register', locate: async (_, m) => `/login/register?redirect=${encodeURIComponent(`/${m}/my-account`)}` },
  {
    name: 'forgot-password-answer',
    locate: async (page, m) => {
      await page.goto(`/login?redirect=${encodeURIComponent(`/${m}/my-account`)}`)
      await page.locator('details.forgot summary').click()
      await page.locator('input[name="forgot_email"]').fill('nobody@example.com')
      await page.locator('details.forgot button[type="submit"]').click()
      await page.waitForLoadState('load')
      return page.url()
    },
  },
  { name: 'account', customer: true, locate: async (_, m) => `/${m}/my-account` },
  { name: 'account-orders', customer: true, locate: async (_, m) => `/${m}/my-account/orders` },
  {
    name: 'account-order',
    customer: true,
    locate: async (page, m) => firstLink(page, `/${m}/my-account/orders`, /\/my-account\/orders\/[A-Z0-9-]+$/),
  },
  { name: 'account-addresses', customer: true, locate: async (_, m) => `/${m}/my-account/addresses` },
  { name: 'account-bikes', customer: true, locate: async (_, m) => `/${m}/my-account/bikes` },
  { name: 'account-profile', customer: true, locate: async (_, m) => `/${m}/my-account/profile` },
  { name: 'account-password', customer: true, locate: async (_, m) => `/${m}/my-account/profile/password` },
  { name: 'account-delete', customer: true, locate: async (_, m) => `/${m}/my-account/profile/delete` },
  { name: 'account-newsletter', customer: true, locate: async (_, m) => `/${m}/my-account/newsletter` },
  { name: 'account-deleted', locate: async (_, m) => `/${m}/account-deleted` },
  {
    name: 'checkout',
    customer: true,
    locate: async (page, m) => {
      if (!(await addABike(page, m, baseUrl))) return null
      return firstLink(page, `/${m}/cart`, /\/checkout\/[A-Za-z0-9_-]+$/)
    },
    cleanUp: (page, m) => removeTheBike(page, m, baseUrl),
  },
  { name: 'newsletter', locate: async (_, m) => `/${m}/newsletter` },
  { name: 'whistleblower-form', locate: async (_, m) => `/${m}/whistleblower-form` },
  { name: 'not-found', status: 404, locate: async (_, m) => `/${m}/no-such-page-here` },
  { name: 'unknown-market', scope: 'brand', status: 404, locate: async () => '/xx-yy' },
  { name: 'maintenance', scope: 'brand', status: 503, locate: async () => '/nl-nl' },
  { name: 'privacy-policy', locate: contentPage('privacy-policy') },
  { name: 'cookie-policy', locate: contentPage('cookie-policy') },
  { name: 'terms-of-sale', locate: contentPage('terms-of-sale') },
  { name: 'legal-notice', locate: contentPage('legal-notice') },
  { name: 'warranty', locate: contentPage('warranty') },
  { name: 'delivery-returns', locate: contentPage('delivery-returns') },
]

/** The markets of the sweep whose demo site record switches a kind's page off (a switch is on unless said). */
function switchedOffIn(kind: Kind): Market[] {
  const setting = kind.switchedOffBy
  return setting ? MARKETS.filter((market) => demoMarketOf(market).settings?.[setting] === false) : []
}

/** Where a kind is checked, for its test's name: once, or each market (and those that must answer 404). */
function sweepOf(kind: Kind): string {
  if (kind.scope === 'brand') return 'once'
  const off = switchedOffIn(kind)
  const shown = MARKETS.filter((market) => !off.includes(market)).join(', ')
  return off.length ? `${shown}; 404 in ${off.join(', ')}, switched off` : shown
}

async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

test.beforeEach(async ({ page, baseURL }) => {
  baseUrl = baseURL!
  // Each test a visitor of its own address (fixtures/offline.ts: logins and forms are rate-limited per client), who
  // chose "reject all" before: the consent banner (tracking.spec.ts checks it at both widths) does not cover the page.
  await chooseCookies(page.request, baseURL!, 'reject')
})

// One test a kind: each market's page visited once and measured at a phone's width, then at a desktop's (the page
// resized in place: no island reads the width, so what differs between the two is CSS, which the resize re-applies),
// instead of a test and a visit a width (docs/decisions/076-suite-wall-time.md).
// The kinds are independent of each other: both workers take them, so that the file leaves no tail at the suite's end.
test.describe.configure({ mode: 'parallel', timeout: 300_000 })
for (const kind of KINDS) {
  test(`${kind.name} at ${WIDTHS.map((w) => w.width).join(' and ')} px: no sideways scroll, every box inside the viewport, no clipped text, axe clean (${sweepOf(kind)})`, async ({
    page,
    baseURL,
  }) => {
    if (kind.customer) await logIn(page.request, baseURL!)
    const markets: Market[] = kind.scope === 'brand' ? [MARKETS[0]] : [...MARKETS]
    for (const market of markets) {
      try {
        await visit(market)
      } finally {
        await kind.cleanUp?.(page, market)
      }
    }

    /** Visits the kind's page in a market: a page switched off there must answer 404, any other must be there. */
    async function visit(market: Market) {
      await page.setViewportSize(WIDTHS[0])
      const path = await kind.locate(page, market)
      expect.soft(path, `${kind.name} has a page in ${market}`).not.toBeNull()
      if (!path) return
      // The forgot-password answer is the answer of a post, where `locate` left the page.
      const answer = kind.name === 'forgot-password-answer' ? null : await page.goto(path)
      if (switchedOffIn(kind).includes(market)) {
        expect.soft(answer?.status(), `${kind.name} switched off in ${market} (${path})`).toBe(404)
        return
      }
      if (answer) expect.soft(answer.status(), `${kind.name} in ${market} (${path})`).toBe(kind.status ?? 200)
      const locale = kind.scope === 'brand' ? await page.locator('html').getAttribute('lang') : market
      // A notice's toast (the cart's "added") fades out a second after the page opens: the page is measured once it
      // has gone, never halfway through its fade (where axe finds its text too faint), whatever the machine's speed.
      await page.evaluate(() =>
        Promise.all(
          [...document.querySelectorAll('.toast')].flatMap((toast) =>
            toast.getAnimations().map((animation) => animation.finished.catch(() => null)),
          ),
        ),
      )
      for (const viewport of WIDTHS) {
        await page.setViewportSize(viewport)
        await measure(path, locale, market, viewport.width)
      }
    }

    /** The page as it is at the viewport's width: its layout, what lies outside it, axe (LTR and RTL markets). */
    async function measure(path: string, locale: string | null, market: Market, width: number) {
      const t0 = Date.now()
      expect
        .soft(await page.evaluate(layoutProblems), `layout of ${kind.name} in ${locale} at ${width} px (${path})`)
        .toEqual([])
      // checkPage's measure too, which unlike the layout's leaves in a closed disclosure's panel: the header's
      // closed panels take no room outside the page.
      expect
        .soft(
          await page.evaluate(outsideThePage, ''),
          `outside the page: ${kind.name} in ${locale} at ${width} px (${path})`,
        )
        .toEqual([])
      const t1 = Date.now()
      if (kind.scope === 'brand' || AXE_IN.includes(market)) {
        expect.soft(await axeViolations(page), `axe on ${kind.name} in ${locale} at ${width} px (${path})`).toEqual([])
      }
      const t2 = Date.now()
      await keepScreenshot(page, `${SCREENS}/${kind.name}-${locale}-${width}.png`, { fullPage: true })
      if (process.env.PK_TIMING)
        console.log(
          `${kind.name} ${locale} ${width}: layout ${t1 - t0} ms, axe ${t2 - t1} ms, screenshot ${Date.now() - t2} ms`,
        )
    }
  })
}
