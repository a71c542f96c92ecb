import type { APIRequestContext, Page } from '@playwright/test'
import { chooseCookies, expect, problemsOf, recordProblems, test } from './fixtures/offline'
import { checkPage } from './fixtures/page-checks'

/**
 * What a page asks for before consent (docs/decisions/064-before-consent.md): a visitor who has not chosen meets the
 * home, a product, the dealer locator and a lead form asking nothing of any origin but the site's own (or a `data:` or
 * `blob:` URL), in a market with a tag manager container (it-it) and one without (za-en: the browser tests' site has
 * no container for Africa); the locator's street map comes once they press its button, the tag manager once they
 * allowed its tags. No page shows a console error for a resource. Every other origin is answered here
 * (fixtures/offline.ts), nothing reaches the network.
 */

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }
const TILE_SERVER = /^https:\/\/tile\.openstreetmap\.org\//
const TAG_MANAGER = 'https://www.googletagmanager.com/gtm.js?id=GTM-IT00001'

/** One transparent pixel for the tile server's answers. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

/** Every URL the page's browser asked for, from the moment it is called. */
function recordRequests(page: Page): string[] {
  const urls: string[] = []
  page.on('request', (request) => urls.push(request.url()))
  return urls
}

/** The requests that left the site's own origin (a `data:` or `blob:` URL stays in the page). */
const offSite = (urls: readonly string[], origin: string) =>
  urls.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin)

/** The market's slug of a content page by its pageLinks key, else the language's default (demo/page-slugs.json). */
async function slugOf(request: APIRequestContext, market: string, key: string, fallback: string): Promise<string> {
  const country = market.split('-')[0]
  const links = (await (await request.get(`/api/sites/${country}`)).json()).data.pageLinks ?? {}
  return typeof links[key] === 'string' ? links[key] : fallback
}

/** The home, its first product, the dealer locator and the contact form of a market, as a visitor opens them. */
async function pagesOf(page: Page, market: string): Promise<string[]> {
  const listing = await (await page.request.get(`/${market}/products`)).text()
  const product = /href="(\/[a-z]+-[a-z]+\/products\/(?!type\/)[a-z0-9-]+)"/.exec(listing)?.[1]
  expect(product, `a product in ${market}`).toBeTruthy()
  return [
    `/${market}`,
    product ?? '',
    `/${market}/${await slugOf(page.request, market, 'dealer-locator', 'dealer-locator')}`,
    `/${market}/${await slugOf(page.request, market, 'contact-us', 'contact-us')}`,
  ]
}

/** Opens each page and waits until it has loaded what it asks for (its islands hydrated, the network quiet). */
async function visitAll(page: Page, paths: readonly string[]) {
  for (const path of paths) {
    const answer = await page.goto(path)
    expect(answer?.status(), path).toBe(200)
    await page.waitForLoadState('networkidle')
  }
}

test.beforeEach(async ({ page }) => {
  recordProblems(page)
  await page.route(TILE_SERVER, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TILE }))
})

test('it-it, with a container: nothing off the site before consent; the street map on its button, the tag manager once its tags are allowed', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(PHONE)
  const origin = new URL(baseURL ?? '').origin
  const requests = recordRequests(page)
  const [home, , locator] = await pagesOf(page, 'it-it')
  await visitAll(page, await pagesOf(page, 'it-it'))
  expect(offSite(requests, origin), 'requests before consent').toEqual([])

  // The locator's map: the dealers' markers on a plain ground, and why there are no streets.
  await page.goto(locator ?? '')
  await page.locator('.locator-views input[value="map"]').check()
  const map = page.locator('.dealer-map')
  await expect(map).toHaveAttribute('data-ready', 'true')
  await expect(map.locator('.map-tiles-notice')).toContainText('OpenStreetMap')
  await checkPage(page, 'locator-before-consent', { prefix: 'before-consent' })
  await page.getByRole('button', { name: 'Mostra la mappa stradale' }).click()
  await expect(page).toHaveURL(locator ?? '')
  await page.locator('.locator-views input[value="map"]').check()
  await expect(page.locator('.dealer-map .leaflet-tile-loaded').first()).toBeAttached()
  await expect(page.locator('.map-tiles-notice')).toHaveCount(0)
  expect(
    offSite(requests, origin).every((url) => TILE_SERVER.test(url)),
    'only tiles, once allowed',
  ).toBe(true)
  expect(requests.some((url) => url.startsWith('https://www.googletagmanager.com/'))).toBe(false)

  // Everything allowed: the tag manager is asked for.
  await chooseCookies(page.request, baseURL ?? '', 'accept')
  await page.goto(home ?? '')
  await expect.poll(() => requests.includes(TAG_MANAGER)).toBe(true)
  expect(problemsOf(page)).toEqual([])
})

test('za-en, without a container: nothing off the site before consent nor after allowing everything; the RTL locator asks the same (il-he)', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(DESKTOP)
  const origin = new URL(baseURL ?? '').origin
  const requests = recordRequests(page)
  const paths = await pagesOf(page, 'za-en')
  await visitAll(page, paths)
  expect(offSite(requests, origin), 'requests before consent').toEqual([])
  await chooseCookies(page.request, baseURL ?? '', 'accept')
  // The home, the product and the lead form (the locator's street map is the one thing everything allowed brings).
  await visitAll(page, [paths[0] ?? '', paths[1] ?? '', paths[3] ?? ''])
  expect(offSite(requests, origin), 'requests after allowing everything').toEqual([])
  await page.context().clearCookies()

  const locator = `/il-he/${await slugOf(page.request, 'il-he', 'dealer-locator', 'dealer-locator')}`
  await page.goto(locator)
  await expect(page.locator('.dealer-map')).toHaveAttribute('data-ready', 'true')
  await page.waitForLoadState('networkidle')
  await expect(page.locator('.map-tiles-notice bdi')).toHaveText('OpenStreetMap')
  expect(offSite(requests, origin), 'requests of the RTL locator before consent').toEqual([])
  await checkPage(page, 'locator-before-consent-rtl', { prefix: 'before-consent' })
  expect(problemsOf(page)).toEqual([])
})
