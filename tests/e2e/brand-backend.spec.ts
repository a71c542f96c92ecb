import { readFileSync } from 'node:fs'
import type { APIRequestContext, Page } from '@playwright/test'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { sendForm } from './fixtures/forms'
import { expect, recordProblems, problemsOf, test } from './fixtures/offline'
import { queryLocalD1 } from './fixtures/local-d1'
import { keepScreenshot } from './fixtures/screenshots'

// The site on the stand-in of the brand's own backend (project "brand backend", playwright.config.ts): exactly the
// original's eight calls, `UPSTREAM_AREAS=none`. What it lacks is held by the Worker on D1 (lead forms, the
// whistleblower channel) or switched off everywhere; no page links to one that errors. Each journey at phone width and
// wide, in an LTR and an RTL market.

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'wide', width: 1280, height: 900 },
] as const

type Messages = Record<string, Record<string, string>>
const messagesOf = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../demo/messages/${lang}.json`, import.meta.url), 'utf8')) as Messages

/** The menu's product of the stand-in (demo/content/products.json), as the menu-only product page shows it. */
const PRODUCT = 'aurora-strada-9'
const catalogue = JSON.parse(readFileSync(new URL('../../demo/content/products.json', import.meta.url), 'utf8')) as {
  types: Array<{ id: number; names: Record<string, string> }>
  products: Array<{
    slug: string
    type_id: number
    names: Record<string, { name: string; tagline: string }>
  }>
}
const menuProduct = (lang: string) => {
  const product = catalogue.products.find(({ slug }) => slug === PRODUCT)
  const type = catalogue.types.find(({ id }) => id === product?.type_id)
  const names = product?.names[lang]
  return {
    name: names?.name ?? '',
    tagline: names?.tagline ?? '',
    type: type?.names[lang] ?? '',
  }
}

/** Both demo customers, plain Laravel users at the stand-in (`id`, `name`, `email`): one per market, so that each
 * account's refused logins of a run stay under its limit. */
const MARKETS = [
  {
    segment: 'it-it',
    lang: 'it',
    dir: 'ltr',
    contact: '/it-it/contatti',
    customer: { email: 'customer@example.com', first: 'Giulia' },
  },
  {
    segment: 'il-he',
    lang: 'he',
    dir: 'rtl',
    contact: '/il-he/tsor-kesher',
    customer: { email: 'second@example.com', first: 'Lukas' },
  },
] as const

/** The same-site links of the page (header, menu, body, footer) or of the part `within`, as paths; each once. */
async function linksOf(page: Page, within = 'a[href]'): Promise<string[]> {
  const hrefs = await page.locator(within).evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
  const origin = new URL(page.url()).origin
  return [
    ...new Set(
      hrefs
        .map((href) => new URL(href))
        .filter((url) => url.origin === origin)
        .map((url) => url.pathname + url.search),
    ),
  ]
}

/** The links that answer an error (400 or more), requested as the browser's context would (its cookies), unfollowed. */
async function failingLinks(request: APIRequestContext, links: string[]): Promise<string[]> {
  const failing: string[] = []
  for (const link of links) {
    const answer = await request.get(link, { maxRedirects: 0 })
    if (answer.status() >= 400) failing.push(`${link} ${answer.status()}`)
  }
  return failing
}

/** The page's console errors but the one each refusal here is (a form or a login sent wrong answers 422). */
const problemsButRefusals = (page: Page) => problemsOf(page).filter((problem) => !/status of 422\b/.test(problem))

// Every test sets up its own state (its customer, its forms): the two workers share the file's tests.
test.describe.configure({ mode: 'parallel' })

test.beforeEach(({ page }) => recordProblems(page))

for (const market of MARKETS) {
  const t = messagesOf(market.lang)
  for (const viewport of VIEWPORTS) {
    test.describe(`${market.segment} at ${viewport.width} px`, () => {
      test.beforeEach(({ page }) => page.setViewportSize(viewport))

      test('the home page has its header, product menu and footer, and links nothing that errors', async ({ page }) => {
        await page.goto(`/${market.segment}`)
        await expect(page.locator('html')).toHaveAttribute('lang', market.lang)
        await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
        await expect(page.locator('header.site-header .brand')).toBeVisible()
        await expect(page.locator('footer.site-footer')).toBeAttached()
        const menu = page.locator('details.product-menu')
        if (viewport.name === 'phone') {
          const button = page.locator('.mobile-menu-button')
          await button.click()
          await expect(button).toHaveAttribute('aria-expanded', 'true')
        } else {
          await menu.locator('summary').click()
        }
        await expect(menu).toHaveAttribute('open', '')
        const product = menu.locator(`a[href="/${market.segment}/products/${PRODUCT}"]`)
        await expect(product).toBeVisible()
        await expect(product).toHaveText(menuProduct(market.lang).name)
        // The server's HTML is the same at every width: its links are requested once per market, at the wide one.
        if (viewport.name === 'wide') {
          const links = await linksOf(page)
          expect(links.length).toBeGreaterThan(5)
          expect(await failingLinks(page.request, links)).toEqual([])
        }
        expect(problemsOf(page)).toEqual([])
      })

      test('a product named only in the menu has its page: name, picture, type, tagline, a test ride', async ({
        page,
      }) => {
        const expected = menuProduct(market.lang)
        await page.goto(`/${market.segment}/products/${PRODUCT}`)
        await expect(page.locator('html')).toHaveAttribute('dir', market.dir)
        await expect(page.locator('article.product h1')).toHaveText(expected.name)
        await expect(page.locator('article.product .lead')).toHaveText(expected.tagline)
        await expect(page.locator('.breadcrumbs')).toContainText(expected.type)
        const picture = page.locator('article.product img')
        await expect(picture).toBeVisible()
        expect(await picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
        const testRide = page.locator('.actions a', { hasText: t.product?.book_test_ride })
        await expect(testRide).toBeVisible()
        await expect(testRide).toHaveAttribute('href', new RegExp(`\\?model=${PRODUCT}$`))
        // The stand-in serves no dealers: no "find a dealer" to a page that would answer 404.
        await expect(page.locator('.actions a', { hasText: t.product?.find_dealer })).toHaveCount(0)
        // Its own links (the header's and the footer's are the home's): the test ride's form and the way home answer.
        const own = await linksOf(page, 'article.product a[href], .breadcrumbs a[href]')
        expect(own.length).toBeGreaterThan(1)
        expect(await failingLinks(page.request, own)).toEqual([])
        if (viewport.name === 'phone' && market.dir === 'rtl')
          await keepScreenshot(
            page,
            `test-results/screenshots/brand-backend-menu-product-${market.segment}-phone.png`,
            {
              fullPage: true,
            },
          )
        expect(problemsOf(page)).toEqual([])
      })

      test('a wrong password (401 at the backend) is refused on the login page; the right one greets by the split name', async ({
        page,
      }) => {
        await page.goto(`/login?market=${market.segment}`)
        await page.locator('input[name="email"]').fill(market.customer.email)
        await page.locator('input[name="password"]').fill('Not-Her-Password-1')
        const [refused] = await Promise.all([
          page.waitForResponse((answer) => answer.request().method() === 'POST'),
          page.locator('form[action="/login"] button[type="submit"]').click(),
        ])
        expect(refused.status()).toBeGreaterThanOrEqual(400)
        expect(refused.status()).toBeLessThan(500)
        await expect(page.locator('form[action="/login"] .form-error[role="alert"]')).toHaveText(t.auth?.failed ?? '')
        await expect(page.locator('html')).toHaveAttribute('lang', market.lang)
        expect(new URL(page.url()).pathname).toBe('/login')

        await page.locator('input[name="password"]').fill(ORIGINAL_PASSWORD)
        await page.locator('form[action="/login"] button[type="submit"]').click()
        await page.waitForURL(new RegExp(`/${market.segment}$`))
        await page.goto(`/${market.segment}/my-account`)
        await expect(page.locator('h1')).toHaveText(
          (t.account?.welcome ?? '').replace('{{name}}', market.customer.first),
        )
        await expect(page.locator('main')).toContainText(market.customer.email)
        // Which of the account's pages it links is the account area's business; that none errors is this one's.
        expect(await failingLinks(page.request, await linksOf(page))).toEqual([])
        expect(problemsButRefusals(page)).toEqual([])
      })

      test('the contact form is held by the Worker on D1: once wrong, then sent with a reference', async ({ page }) => {
        await page.goto(market.contact)
        const form = page.locator('form.lead-form')
        await form.locator('#field-email').fill('not-an-address')
        await form.locator('textarea[name="message"]').fill('The bell of my Strada rattles.')
        await form.locator('button[type="submit"]').click()
        await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
        await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'true')

        await page.locator('input[name="topic"]').first().check()
        await page.locator('#field-name').fill('Giulia Rossi')
        await page.locator('#field-email').fill('giulia@example.com')
        await page.locator('#field-consent').check()
        await page.locator('form.lead-form button[type="submit"]').click()
        await expect(page).toHaveURL(new RegExp(`${market.contact}/sent\\?reference=CT-`))
        const reference = new URL(page.url()).searchParams.get('reference') ?? ''
        await expect(page.locator('.reference strong')).toHaveText(reference)
        const stored = await queryLocalD1<{ kind: string }>(
          `SELECT kind FROM form_submissions WHERE reference = '${reference.replaceAll("'", '')}'`,
          '.wrangler/e2e-brand-backend-state',
        )
        expect(stored).toEqual([{ kind: 'contact' }])
        expect(problemsButRefusals(page)).toEqual([])
      })

      test('the whistleblower report is held by the Worker on D1: once wrong, then a receipt that opens the case', async ({
        page,
        baseURL,
      }) => {
        await page.goto(`/${market.segment}/whistleblower-form`)
        await page.locator('#field-what').fill('Frame invoices are paid twice to the same supplier.')
        await page.locator('form.wb-form button[type="submit"]').click()
        await expect(page.locator('.wb-form .form-error[role="alert"]')).toBeVisible()
        await expect(page.locator('#field-when_where')).toHaveAttribute('aria-invalid', 'true')

        await page.locator('#field-category-0').check()
        await page.locator('#field-when_where').fill('Since March 2026, the purchasing office.')
        await page.locator('form.wb-form button[type="submit"]').click()
        const code = (await page.locator('#wb-receipt-code').textContent()) ?? ''
        expect(code).toMatch(/^WB-([0-9A-Z]{4}-){3}[0-9A-Z]{4}$/)
        // The case opens with the receipt's pair: the report is the Worker's own (the stand-in knows no such call).
        const passphrase = (await page.locator('#wb-passphrase').textContent()) ?? ''
        const opened = await sendForm(page.request, baseURL ?? '', `/${market.segment}/whistleblower-form/status`, {
          code,
          passphrase,
        })
        expect(opened.status()).toBe(200)
        expect(await opened.text()).toMatch(new RegExp(`class="wb-code"[^>]*>${code}<`))
        expect(problemsButRefusals(page)).toEqual([])
      })
    })
  }
}
