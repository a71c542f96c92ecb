import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, inject, it } from 'vitest'
import { referenceOf, sendForm, storedSubmission } from '../fixtures/lead-forms'
import { ANONYMOUS_REPORT, postReport, reportRow } from '../fixtures/whistleblower'
import { clearCaches, ORIGIN, textOf, visit } from '../fixtures/worker'
import { MARKET_COOKIE } from '../../src/market/remembered-market'
import { ORIGINAL_PASSWORD } from '../fixtures/original-backend.mjs'
import { formPost, logIn, nextClient, sessionIdOf, visitAs } from '../fixtures/session'
import { sitemapIndexEntries, sitemapUrls } from '../fixtures/xml'

/**
 * The site against the stand-in of the brand's backend (tests/fixtures/original-backend.mjs, exactly the original's
 * eight calls) with its areas configured as none beyond them (`UPSTREAM_AREAS=none`): what the backend lacks is held by
 * the embedded API on D1 (lead forms, the whistleblower channel…) or switched off everywhere; no link leads to an error.
 */
const bindings = { UPSTREAM_URL: inject('originalBackendUrl'), UPSTREAM_AREAS: 'none' }
const onOriginal = (path: string, init: RequestInit = {}) => visit(path, init, bindings)

/** The same-site links of a page (href attributes), as paths, without fragments; assets left out. */
function linksOf(html: string): string[] {
  const links = new Set<string>()
  for (const [, href = ''] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
    const url = new URL(href.replaceAll('&amp;', '&'), ORIGIN)
    if (url.origin !== ORIGIN) continue
    links.add(url.pathname + url.search)
  }
  return [...links]
}

beforeEach(clearCaches)

describe("the areas the brand's backend serves (UPSTREAM_AREAS)", () => {
  it('links nothing from a market home (header, footer, menu, body) that answers an error', async () => {
    for (const market of ['it-it', 'il-he']) {
      const home = await onOriginal(`/${market}`)
      expect(home.status).toBe(200)
      const links = linksOf(home.text)
      expect(links.length).toBeGreaterThan(5)
      const failing: string[] = []
      for (const link of links) {
        const { status } = await onOriginal(link)
        if (status >= 400) failing.push(`${link} ${status}`)
      }
      expect(failing).toEqual([])
    }
  })

  it('lists in the sitemaps only URLs that answer below 400, with none of a missing area', async () => {
    const index = await onOriginal('/sitemap.xml')
    expect(index.status).toBe(200)
    const sitemaps = sitemapIndexEntries(index.text).filter(({ loc }) => /\/(it-it|il-he)\//.test(loc))
    expect(sitemaps.length).toBeGreaterThan(0)
    const failing: string[] = []
    for (const { loc } of sitemaps) {
      const sitemap = await onOriginal(new URL(loc).pathname)
      expect(sitemap.status).toBe(200)
      for (const { loc: page, alternates } of sitemapUrls(sitemap.text)) {
        expect(page).not.toMatch(/\/news|\/dealers\/|\/search/)
        for (const url of [page, ...Object.values(alternates)]) {
          const { status } = await onOriginal(new URL(url).pathname)
          if (status >= 400) failing.push(`${url} ${status}`)
        }
      }
    }
    expect(failing).toEqual([])
  })

  it("answers 404 on the paths of an area the backend lacks and the Worker cannot hold (news, dealers' pages)", async () => {
    expect((await onOriginal('/it-it/news')).status).toBe(404)
    expect((await onOriginal('/it-it/dealers/ciclofficina-roma')).status).toBe(404)
  })

  it('offers no sign-up where the backend lacks the account area: no link on the login page, its path 404', async () => {
    const login = await onOriginal('/login?market=it-it')
    expect(login.status).toBe(200)
    expect(login.text).not.toContain('href="/login/register')
    expect((await onOriginal('/login/register')).status).toBe(404)
    expect((await visit('/login?market=it-it')).text).toContain('href="/login/register')
  })

  it('takes a contact form through the embedded API on D1 (stored, acknowledged with a reference)', async () => {
    const home = await onOriginal('/it-it')
    const contact = linksOf(home.text).find((link) => link === '/it-it/contatti')
    expect(contact).toBe('/it-it/contatti')
    const page = await onOriginal('/it-it/contatti')
    expect(page.status).toBe(200)
    expect(page.text).toMatch(/<form [^>]*method="post"/)
    const { status, headers } = await sendForm(
      '/it-it/contatti',
      'contact',
      {
        topic: 'warranty',
        name: 'Giulia Rossi',
        email: 'giulia@example.com',
        order_code: '',
        message: 'The bell of my Strada rattles.',
        consent: 'on',
      },
      {},
      bindings,
    )
    expect(status).toBe(303)
    const reference = referenceOf(headers.get('Location'))
    expect(reference).toBeTruthy()
    expect(await storedSubmission(reference as string)).toMatchObject({ kind: 'contact', site: 'it' })
    const sent = await onOriginal(headers.get('Location') as string)
    expect(sent.status).toBe(200)
    expect(textOf(sent.text)).toContain(reference as string)
  })

  it('takes a whistleblower report through the embedded API on D1 (stored, a receipt)', async () => {
    const { status, receipt } = await postReport('it-it', ANONYMOUS_REPORT, [], bindings)
    expect(status).toBe(200)
    expect(receipt).not.toBeNull()
    expect(await reportRow(receipt?.code ?? '')).toMatchObject({ site: 'it' })
  })

  it('gives a product the backend names only in its menu a page from the menu, with a test ride (and no dealer locator it lacks)', async () => {
    const page = await onOriginal('/it-it/products/aurora-strada-9')
    expect(page.status).toBe(200)
    expect(textOf(page.text)).toContain('Strada 9')
    expect(page.text).toContain('href="/it-it/prova-su-strada?model=aurora-strada-9"')
    // No dealer locator where the backend serves neither content pages nor dealers: no link to it.
    expect(page.text).not.toContain('href="/it-it/rivenditori"')
  })

  it('leaves the embedded default (no UPSTREAM_URL) with every area', async () => {
    expect(env.UPSTREAM_URL ?? '').toBe('')
    expect((await visit('/it-it/news')).status).toBe(200)
    const home = await visit('/it-it')
    expect(home.text).toContain('action="/it-it/search/all"')
    expect(home.text).toContain('href="/it-it/news"')
  })
})

/** Logs Giulia (a plain Laravel user) in through the stand-in with `UPSTREAM_AREAS=none`: her session's id. */
async function logInOnOriginal(): Promise<string> {
  const login = await onOriginal(
    '/login',
    formPost(
      { email: 'customer@example.com', password: ORIGINAL_PASSWORD, market: 'it-it' },
      { 'CF-Connecting-IP': nextClient(), Cookie: `${MARKET_COOKIE}=it-it` },
    ),
  )
  expect(login.status).toBe(303)
  return sessionIdOf(login.headers) as string
}

/** The account's pages of the areas `account` and `cart-checkout` (orders), and the password reset's and confirmation's. */
const ACCOUNT_SUB_PAGES = [
  '/it-it/my-account/orders',
  '/it-it/my-account/orders/AUR-10001',
  '/it-it/my-account/bikes',
  '/it-it/my-account/addresses',
  '/it-it/my-account/addresses/1/edit',
  '/it-it/my-account/addresses/1/delete',
  '/it-it/update-password/a-token-of-forty-characters-or-so-000000',
  '/it-it/confirm-email/a-token-of-forty-characters-or-so-000000',
]

describe('the account without its area (nor the shop holding the orders)', () => {
  it('answers 404 on every account sub-page, logged in or not, and on the reset and confirmation posts', async () => {
    const session = await logInOnOriginal()
    const failing: string[] = []
    for (const path of ACCOUNT_SUB_PAGES) {
      for (const { status } of [await onOriginal(path), await visitAs(session, path, {}, bindings)])
        if (status !== 404) failing.push(`${path} ${status}`)
    }
    const posts = {
      '/it-it/my-account/confirm-email': {},
      '/it-it/my-account/bikes': { frame_number: 'WAU123456789' },
      '/login/forgot': { forgot_email: 'customer@example.com', market: 'it-it' },
    }
    for (const [path, fields] of Object.entries(posts)) {
      const { status } = await visitAs(session, path, formPost(fields, { 'CF-Connecting-IP': nextClient() }), bindings)
      if (status !== 404) failing.push(`POST ${path} ${status}`)
    }
    expect(failing).toEqual([])
  })

  it('links none of them from the account navigation or the overview, and the login page offers no password reset', async () => {
    const overview = await visitAs(await logInOnOriginal(), '/it-it/my-account', {}, bindings)
    expect(overview.status).toBe(200)
    expect(textOf(overview.text)).toContain('Salve, Giulia')
    expect(overview.text).toContain('href="/it-it/my-account"')
    expect(overview.text).not.toMatch(/href="\/it-it\/my-account\/(orders|bikes|addresses)/)
    expect(overview.text).not.toContain('action="/it-it/my-account/confirm-email"')
    const login = await onOriginal('/login?market=it-it')
    expect(login.status).toBe(200)
    expect(login.text).not.toContain('action="/login/forgot"')
    expect(login.text).not.toMatch(/update-password|register/)
  })

  it("answers below 400 on every link of a logged-in customer's overview", async () => {
    const session = await logInOnOriginal()
    const overview = await visitAs(session, '/it-it/my-account', {}, bindings)
    const links = linksOf(overview.text)
    expect(links).toContain('/it-it/my-account')
    const failing: string[] = []
    for (const link of links) {
      const { status } = await visitAs(session, link, {}, bindings)
      if (status >= 400) failing.push(`${link} ${status}`)
    }
    expect(failing).toEqual([])
  })

  it('leaves the account whole with the embedded API: its pages, their links, the password reset', async () => {
    const session = await logIn()
    const overview = await visitAs(session, '/it-it/my-account')
    for (const page of ['orders', 'bikes', 'addresses']) {
      expect(overview.text).toContain(`href="/it-it/my-account/${page}"`)
      expect((await visitAs(session, `/it-it/my-account/${page}`)).status).toBe(200)
    }
    const login = await visit('/login?market=it-it')
    expect(login.text).toContain('action="/login/forgot"')
    expect(
      (
        await visit(
          '/login/forgot',
          formPost({ forgot_email: 'nobody@example.com', market: 'it-it' }, { 'CF-Connecting-IP': nextClient() }),
        )
      ).status,
    ).toBe(303)
  })
})
