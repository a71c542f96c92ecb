import type { APIRequestContext, BrowserContext } from '@playwright/test'
import { addToCart } from './fixtures/cart'
import { createAccount, logIn, remember } from './fixtures/customer'
import { sendForm } from './fixtures/forms'
import { checkHtml, describeFinding, type RenderedPage, renderedPage } from './fixtures/nu-checker'
import { chooseCookies, expect, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import type { StaffSessions } from './fixtures/staff'

/**
 * Valid HTML on every page kind (issue 32): the server's HTML of each kind, fetched by request with the sessions it
 * needs, checked by the Nu HTML Checker (vnu-jar, one JVM start for them all): no error, in an LTR market (it-it) and an
 * RTL one (ae-ar), and on the pages without a market and the staff console. Warnings are printed, never failed on.
 * The HTML is what the server sends (what the checker sees of a crawl); what the islands change is the browser
 * tests' and axe's.
 */

const PRODUCT = /^\/[a-z]+-[a-z]+\/products\/(?!type\/)[a-z0-9-]+$/

/** The first link in a page's HTML whose `href` matches `pattern`, or null. */
async function firstLink(request: APIRequestContext, from: string, pattern: RegExp): Promise<string | null> {
  const html = await (await request.get(from)).text()
  for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
    const path = (href ?? '').replaceAll('&amp;', '&')
    if (pattern.test(path)) return path
  }
  return null
}

/** The market's slug of a content page by its pageLinks key (per language where the market has several). */
async function slugOf(request: APIRequestContext, market: string, key: string): Promise<string | null> {
  const [country, locale] = market.split('-') as [string, string]
  const links = (await (await request.get(`/api/sites/${country}`)).json()).data.pageLinks ?? {}
  const link = links[key]
  if (typeof link === 'string') return link
  return link && typeof link === 'object' ? ((link as Record<string, string>)[locale] ?? null) : null
}

/** The first size of the market's first bike that can be bought: its product's slug and SKU. */
async function aBike(request: APIRequestContext, market: string): Promise<{ product: string; sku: string }> {
  const product = (await firstLink(request, `/${market}/products`, PRODUCT)) ?? ''
  const html = await (await request.get(product)).text()
  const sku = [...html.matchAll(/<input [^>]*>/g)]
    .map(([input]) => input)
    .find((input) => /name="sku(?:-[a-z0-9-]+)?"/.test(input) && !/ disabled/.test(input))
    ?.match(/value="([^"]+)"/)?.[1]
  expect(sku, `a bike to buy in ${market}`).toBeTruthy()
  return { product: product.split('/').pop() ?? '', sku: sku ?? '' }
}

/** A checkout's home delivery in each market's address format (docs/decisions/058). */
const DELIVERY: Record<string, Record<string, string>> = {
  'it-it': {
    ship_first_name: 'Chiara',
    ship_last_name: 'Bianchi',
    ship_line1: 'Via Tasso 8',
    ship_postal_code: '24121',
    ship_city: 'Bergamo',
    ship_country_code: 'IT',
    ship_phone: '+39 035 555 0199',
  },
  'ae-ar': {
    ship_first_name: 'ليلى',
    ship_last_name: 'حداد',
    ship_line1: 'شارع الوصل 12',
    ship_city: 'دبي',
    ship_region: 'دبي',
    ship_country_code: 'AE',
    ship_phone: '+971 4 555 0199',
  },
}

/** Every page kind of a market that anyone may see, from the request's context (no session). */
async function publicPages(request: APIRequestContext, market: string, baseURL: string): Promise<RenderedPage[]> {
  const page = (name: string, path: string) => renderedPage(request, name, path)
  const content = async (key: string) => {
    const slug = await slugOf(request, market, key)
    return slug ? [await page(key, `/${market}/${slug}`)] : []
  }
  const locator = await slugOf(request, market, 'dealer-locator')
  const dealer = locator ? await firstLink(request, `/${market}/${locator}`, /\/dealers\/[a-z0-9-]+$/) : null
  const product = await firstLink(request, `/${market}/products`, PRODUCT)
  const type = await firstLink(request, `/${market}/products`, /\/products\/type\/[a-z0-9-]+$/)
  const article = await firstLink(request, `/${market}/news`, /\/news\/details\//)
  const contact = await slugOf(request, market, 'contact-us')
  const pages = [
    await page('home', `/${market}`),
    await page('listing', `/${market}/products`),
    await page('listing filtered and sorted', `/${market}/products?discipline=road&sort=price-asc`),
    ...(type ? [await page('type listing', type)] : []),
    ...(product ? [await page('product', product)] : []),
    await page('news', `/${market}/news`),
    ...(article ? [await page('article', article)] : []),
    await page('search with results', `/${market}/search/all?q=aurora`),
    await page('search without results', `/${market}/search/all?q=zzzzqqq`),
    ...(locator ? [await page('dealer locator', `/${market}/${locator}`)] : []),
    ...(locator ? [await page('dealer locator near a place', `/${market}/${locator}?near=Roma`)] : []),
    ...(dealer ? [await page('dealer', dealer)] : []),
    ...(await content('about-us')),
    ...(await content('contact-us')),
    ...(await content('test-drive')),
    ...(await content('become-a-dealer')),
    ...(await content('become-a-distributor')),
    ...(await content('work-with-us')),
    ...(await content('privacy-policy')),
    ...(await content('cookie-policy')),
    await page('whistleblower form', `/${market}/whistleblower-form`),
    await page('whistleblower status', `/${market}/whistleblower-form/status`),
    await page('newsletter', `/${market}/newsletter`),
    await page('newsletter sent', `/${market}/newsletter/sent`),
    await page('newsletter confirm (unknown link)', `/${market}/newsletter/confirm/not-a-token`),
    await page('update password (unknown link)', `/${market}/update-password/not-a-token`),
    await page('cart empty', `/${market}/cart`),
    await page('not found', `/${market}/no-such-page-here`),
  ]
  if (contact) {
    // A form sent empty: the page again with its messages (invalid fields, the summary).
    const refused = await sendForm(request, baseURL, `/${market}/${contact}`, { name: '', email: '', message: '' })
    pages.push({
      name: 'contact form with errors',
      path: `/${market}/${contact}`,
      status: refused.status(),
      html: await refused.text(),
    })
  }
  return pages
}

/** The demo customer's account pages, logged in through the request's context. */
async function accountPages(request: APIRequestContext, market: string): Promise<RenderedPage[]> {
  const page = (name: string, path: string) => renderedPage(request, name, path)
  const order = await firstLink(request, `/${market}/my-account/orders`, /\/my-account\/orders\/[A-Z0-9-]+$/)
  const edit = await firstLink(request, `/${market}/my-account/addresses`, /\/my-account\/addresses\/[^/]+\/edit$/)
  const erase = await firstLink(request, `/${market}/my-account/addresses`, /\/my-account\/addresses\/[^/]+\/delete$/)
  return [
    await page('account overview', `/${market}/my-account`),
    await page('orders', `/${market}/my-account/orders`),
    ...(order ? [await page('order', order)] : []),
    await page('addresses and the new address form', `/${market}/my-account/addresses`),
    ...(edit ? [await page('address edit form', edit)] : []),
    ...(erase ? [await page('address delete', erase)] : []),
    await page('bikes', `/${market}/my-account/bikes`),
    await page('profile', `/${market}/my-account/profile`),
    await page('password', `/${market}/my-account/profile/password`),
    await page('account delete', `/${market}/my-account/profile/delete`),
    await page('account newsletter', `/${market}/my-account/newsletter`),
  ]
}

/**
 * A new customer's purchase by request, each step's page kept: the cart with a bike, the checkout form, the review,
 * the test provider's page and the payment's result.
 */
async function checkoutPages(request: APIRequestContext, market: string, baseURL: string): Promise<RenderedPage[]> {
  const { product, sku } = await aBike(request, market)
  expect(await addToCart(request, baseURL, market, product, sku), `a bike added in ${market}`).toBe(true)
  const pages = [await renderedPage(request, 'cart full', `/${market}/cart`)]
  const checkout = await firstLink(request, `/${market}/cart`, /\/checkout\/[A-Za-z0-9_-]+$/)
  expect(checkout, `the cart leads to checkout in ${market}`).toBeTruthy()
  if (!checkout) return pages
  pages.push(await renderedPage(request, 'checkout form', checkout))
  const refused = await sendForm(request, baseURL, checkout, { delivery: 'home', ship_choice: 'new' }, checkout)
  pages.push({
    name: 'checkout form with errors',
    path: checkout,
    status: refused.status(),
    html: await refused.text(),
  })
  const chosen = await sendForm(
    request,
    baseURL,
    checkout,
    { delivery: 'home', ship_choice: 'new', ...DELIVERY[market], billing_same: 'on', payment_method: 'card' },
    checkout,
  )
  expect(chosen.headers().location, `the checkout form leads to the review in ${market}`).toBe(`${checkout}/review`)
  pages.push(await renderedPage(request, 'checkout review', `${checkout}/review`))
  const placed = await sendForm(request, baseURL, `${checkout}/review`, {}, `${checkout}/review`)
  const payment = new URL(placed.headers().location ?? '/', baseURL).pathname
  pages.push(await renderedPage(request, 'test payment page', payment))
  await sendForm(request, baseURL, payment, { action: 'succeed' }, payment)
  pages.push(await renderedPage(request, 'payment result', `${checkout}/result`))
  return pages
}

/** Fails with every error, each named by page and line; prints the warnings. */
function expectValid(pages: readonly RenderedPage[], where: string) {
  const { errors, warnings } = checkHtml(pages)
  if (warnings.length)
    console.log(`Nu HTML Checker, ${where}: ${warnings.length} warning(s)\n${warnings.map(describeFinding).join('\n')}`)
  expect(errors.map(describeFinding), `the Nu HTML Checker's errors on ${pages.length} pages of ${where}`).toEqual([])
}

/**
 * The pages of one part of the check from an address of their own (`CF-Connecting-IP`): the site's limits per client
 * (sign-ins, sign-ups, the forgotten password) count each part's attempts as a test of its own would.
 */
async function asNewVisitor(context: BrowserContext, part: number): Promise<void> {
  await context.clearCookies()
  const run = (Date.now() % 0x10000).toString(16)
  await context.setExtraHTTPHeaders({ 'CF-Connecting-IP': `2001:db8:4e75:${part}::${run}` })
}

/** A market's pages: the public ones, the demo customer's account, a new customer's purchase to its result. */
async function marketPages(
  request: APIRequestContext,
  context: BrowserContext,
  market: string,
  baseURL: string,
  outbox: Outbox,
): Promise<RenderedPage[]> {
  await chooseCookies(request, baseURL, 'reject')
  const pages = await publicPages(request, market, baseURL)
  await logIn(request, baseURL)
  pages.push(...(await accountPages(request, market)))
  await context.clearCookies()
  // A customer of the test's own for the purchase, so the demo customer's orders stay as they are.
  const account = {
    email: `e2e-valid-${market}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`,
    password: 'Valid-Markup-2026!',
    first_name: 'Chiara',
    last_name: 'Bianchi',
  }
  await remember(context, market, baseURL)
  await createAccount(request, baseURL, outbox, account)
  await logIn(request, baseURL, account)
  pages.push(...(await checkoutPages(request, market, baseURL)))
  return pages
}

/** The pages without a market (the landing page first: once a market is remembered it sends the visitor there). */
async function brandPages(
  request: APIRequestContext,
  context: BrowserContext,
  baseURL: string,
): Promise<RenderedPage[]> {
  const pages = [await renderedPage(request, 'landing (the market picker)', '/')]
  await remember(context, 'ae-ar', baseURL)
  pages.push(
    await renderedPage(request, 'login', '/login?redirect=%2Fae-ar%2Fmy-account'),
    await renderedPage(request, 'register', '/login/register'),
    await renderedPage(request, 'register sent', '/login/register/sent'),
    await renderedPage(request, 'unknown market', '/xx-yy'),
    await renderedPage(request, 'maintenance', '/nl-nl'),
  )
  const forgot = await sendForm(request, baseURL, '/login', { forgot_email: 'nobody@example.com' }, '/login/forgot')
  const answered = forgot.headers().location
  if (answered) pages.push(await renderedPage(request, 'forgot password answer', answered))
  return pages
}

/** The console: every page its home links, and the first of each list, for each role. */
async function consolePages(staffSessions: StaffSessions): Promise<RenderedPage[]> {
  const pages: RenderedPage[] = []
  for (const role of ['editor', 'case_handler'] as const) {
    const staff = await staffSessions.request(role)
    const seen = new Set<string>()
    const queue = ['/_console']
    while (queue.length && seen.size < 40) {
      const path = queue.shift() ?? ''
      const shape = path.replace(/\?.*$/, '').replace(/\/[^/]*[0-9][^/]*$/, '/:id')
      if (seen.has(shape)) continue
      seen.add(shape)
      const answer = await staff.get(path, { maxRedirects: 0 })
      // A download (a job application's CV, an export) is no page.
      if (!(answer.headers()['content-type'] ?? '').startsWith('text/html')) continue
      const rendered = { name: `console (${role}) ${shape}`, path, status: answer.status(), html: await answer.text() }
      pages.push(rendered)
      for (const [, href] of rendered.html.matchAll(/<a [^>]*href="(\/_console[^"#]*)"/g)) {
        queue.push((href ?? '').replaceAll('&amp;', '&'))
      }
    }
  }
  return pages
}

// One test, one checker: the pages of every part gathered first, then one JVM start for them all (a start costs
// 5–10 s on this machine; docs/decisions/076-suite-wall-time.md).
test.describe.configure({ timeout: 360_000 })

test('every page kind is valid HTML: it-it and ae-ar (public pages, lead forms, account, cart, checkout to the result), the pages without a market and the staff console', async ({
  page,
  context,
  baseURL,
  outbox,
  staffSessions,
}) => {
  const request = page.request
  const site = baseURL ?? ''
  const pages: RenderedPage[] = []
  await asNewVisitor(context, 1)
  pages.push(...(await brandPages(request, context, site)))
  for (const [index, market] of ['it-it', 'ae-ar'].entries()) {
    await asNewVisitor(context, index + 2)
    pages.push(...(await marketPages(request, context, market, site, outbox)))
  }
  pages.push(...(await consolePages(staffSessions)))
  expectValid(pages, 'it-it, ae-ar, the brand and the console')
})
