import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Page } from '@playwright/test'
import { sendForm } from './fixtures/forms'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import { type Role, staffMember as member, totp, withAFreshCode } from './fixtures/staff'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }

/** The first day at least `from` days ahead that falls on `weekday` (Monday 0 … Sunday 6), `YYYY-MM-DD`. */
function dayAhead(weekday: number, from = 3): string {
  for (let days = from; ; days++) {
    const date = new Date(Date.now() + days * 86_400_000)
    if ((date.getUTCDay() + 6) % 7 === weekday) return date.toISOString().slice(0, 10)
  }
}

let clients = 0
test.beforeEach(async ({ page }, info) => {
  await page.setExtraHTTPHeaders({ 'CF-Connecting-IP': `192.0.2.${((clients++ + info.retry * 50) % 250) + 1}` })
})

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Axe finds nothing, nothing sticks out sideways (tables scroll in their own box), and a screenshot is kept. */
async function checkPage(page: Page, name: string) {
  expect(await axeViolations(page), name).toEqual([])
  const width = page.viewportSize()?.width ?? 0
  const outside = await page.evaluate(
    () =>
      [...document.querySelectorAll('body *')]
        .filter((element) => !element.closest('.table-scroll, .console-nav, .skip'))
        .map((element) => element.getBoundingClientRect())
        .filter((box) => box.width > 0 && (box.left < -1 || box.right > document.documentElement.clientWidth + 1))
        .length,
  )
  expect(outside, `${name}: elements outside the page`).toBe(0)
  await keepScreenshot(page, `${SCREENSHOTS}/console-${name}-${width}.png`, { fullPage: true })
}

/**
 * Signs a demo member in on the sign-in page the browser is on, with a code not used yet (fixtures/staff.ts: a code is
 * good once, and the staff sessions of other tests use codes too).
 */
async function signIn(page: Page, role: Role) {
  const staff = member(role)
  await withAFreshCode(staff.totp_secret, async (code) => {
    await page.locator('#email').fill(staff.email)
    await page.locator('#password').fill(staff.password)
    await page.locator('#code').fill(code)
    const [answer] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/_console/login',
      ),
      page.locator('form.sign-in button[type="submit"]').click(),
    ])
    return answer.status() === 303
  })
  await expect(page.locator('.console-who')).toContainText(staff.name)
}

/** A test ride request in it-it, sent by request as its form posts it (test-ride.spec.ts fills the form): answers its reference. */
async function requestTestRide(request: APIRequestContext, baseURL: string, email: string): Promise<string> {
  const answer = await sendForm(request, baseURL, '/it-it/prova-su-strada?model=aurora-strada-9', {
    dealer: 'cicli-bergamasca',
    date: dayAhead(1),
    part_of_day: 'afternoon',
    first_name: 'Giulia',
    last_name: 'Rossi',
    email,
    phone: '+39 035 555 0101',
    consent: 'on',
  })
  return referenceOf(answer.headers().location, /^\/it-it\/prova-su-strada\/sent\?reference=(TR-[^&]+)$/)
}

/** A job application with a PDF in it-it, sent by request as its form posts it (job-form.spec.ts fills the form): answers its reference. */
async function applyForJob(request: APIRequestContext, baseURL: string, email: string): Promise<string> {
  const answer = await sendForm(request, baseURL, '/it-it/lavora-con-noi', {
    name: 'Lukas Meyer',
    email,
    phone: '+49 30 555 0102',
    cv: {
      name: 'Lukas Meyer CV.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      ),
    },
    consent: 'on',
  })
  return referenceOf(answer.headers().location, /^\/it-it\/lavora-con-noi\/sent\?reference=(JB-[^&]+)$/)
}

/** The reference in the address a sent form leads to. */
function referenceOf(location: string | undefined, pattern: RegExp): string {
  const reference = pattern.exec(location ?? '')?.[1]
  expect(reference, `the form was sent (${location})`).toBeTruthy()
  return decodeURIComponent(reference!)
}

test('an editor signs in (a wrong code, then the right one), reads a test-ride request, marks it handled, downloads a CV, switches a market into maintenance and back, purges', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(DESKTOP)
  const run = Date.now().toString(36)
  const ride = await requestTestRide(page.request, baseURL!, `ride-${run}@example.com`)
  const job = await applyForJob(page.request, baseURL!, `job-${run}@example.com`)

  // Signing in: the console is closed, then a wrong code is refused with the one message.
  await page.goto('/_console/leads')
  await expect(page).toHaveURL(/\/_console\/login\?next=%2F_console%2Fleads$/)
  await checkPage(page, 'sign-in')
  const editor = member('editor')
  await page.locator('#email').fill(editor.email)
  await page.locator('#password').fill(editor.password)
  const wrong = String((Number(totp(editor.totp_secret)) + 500_000) % 1_000_000).padStart(6, '0')
  await page.locator('#code').fill(wrong)
  await page.locator('form.sign-in button[type="submit"]').click()
  await expect(page.locator('.flash-error')).toHaveText('The e-mail address, the password or the code is not right.')
  await expect(page.locator('#email')).toHaveValue(editor.email)
  await checkPage(page, 'sign-in-refused')
  await signIn(page, 'editor')
  await expect(page).toHaveURL(/\/_console\/leads$/)
  await expect(page.locator('h1')).toHaveText('Leads')

  // The test ride request, found by the filters, read in full and marked handled.
  await page.locator('#field-market').selectOption('it')
  await page.locator('#field-kind').selectOption('test_ride')
  await page.locator('#field-handled').selectOption('no')
  await page.locator('form.filters button[type="submit"]').click()
  await expect(page).toHaveURL(/market=it&kind=test_ride/)
  await checkPage(page, 'leads')
  await page.locator(`a:text-is("${ride}")`).click()
  await expect(page.locator('h1')).toHaveText(`Test ride ${ride}`)
  const facts = page.locator('dl.facts').nth(1)
  await expect(facts).toContainText('aurora-strada-9')
  await expect(facts).toContainText(`ride-${run}@example.com`)
  await expect(facts).toContainText('Afternoon')
  await checkPage(page, 'lead')
  await page.locator('button:text-is("Mark as handled")').click()
  await expect(page.locator('.flash')).toHaveText('Marked as handled.')
  await expect(page.locator('dl.facts').first()).toContainText(`by ${editor.name}`)
  await checkPage(page, 'lead-handled')

  // The job application's CV, downloaded.
  await page.goto('/_console/leads?kind=job')
  await page.locator(`a:text-is("${job}")`).click()
  await expect(page.locator('dl.facts').nth(1)).toContainText('Lukas Meyer CV.pdf')
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('a:text-is("Download the CV")').click(),
  ])
  expect(download.suggestedFilename()).toBe(`${job}-cv.pdf`)
  const cv = await page.request.get(`${page.url().replace(/\?.*$/, '')}/cv`)
  expect(cv.status()).toBe(200)
  expect(cv.headers()['content-type']).toBe('application/pdf')
  expect(cv.headers()['content-disposition']).toBe(`attachment; filename="${job}-cv.pdf"`)
  expect(cv.headers()['cache-control']).toMatch(/no-store/)
  expect(cv.headers()['x-content-type-options']).toBe('nosniff')
  expect((await cv.body()).subarray(0, 5).toString()).toBe('%PDF-')

  // The outbox holds the ride's mails.
  await page.locator('.console-nav a:text-is("Outbox")').click()
  await checkPage(page, 'outbox')
  await page.locator(`a:has-text("${ride}")`).first().click()
  await expect(page.locator('pre.mail')).toContainText(ride)
  await checkPage(page, 'outbox-mail')

  // Italy into maintenance: its next request answers 503; and back.
  await page.locator('.console-nav a:text-is("Markets")').click()
  await checkPage(page, 'markets')
  const italy = page.locator('#market-it')
  await italy.locator('input[name="under_maintenance"]').check()
  await italy.locator('button[type="submit"]').click()
  await expect(page.locator('.flash')).toContainText('Italia: saved, and its cache purged.')
  expect((await page.request.get('/it-it')).status()).toBe(503)
  await expect(page.locator('#market-it .history li').first()).toContainText(`${editor.name}: Under maintenance on`)
  await page.locator('#market-it input[name="under_maintenance"]').uncheck()
  await page.locator('#market-it button[type="submit"]').click()
  await expect(page.locator('#market-it .history li').first()).toContainText('Under maintenance off')
  expect((await page.request.get('/it-it')).status()).toBe(200)

  // One market's cache purged, recorded.
  await page.locator('.console-nav a:text-is("Purge")').click()
  await checkPage(page, 'purge')
  await page.locator('#field-scope').selectOption('it')
  await page.locator('button:text-is("Purge")').click()
  await expect(page.locator('.flash')).toContainText('Italia: purged')

  await page.locator('.console-nav a:text-is("Home")').click()
  await checkPage(page, 'home')

  // Signing out closes the console.
  await page.locator('button:text-is("Sign out")').click()
  await expect(page.locator('.flash')).toHaveText('You are signed out.')
  await page.goto('/_console/markets')
  await expect(page).toHaveURL(/\/_console\/login\?next=/)
})

test("every console page at 390 px, an editor's and a case handler's (the cases list and its 403 included; a case's own page in cases.spec.ts): axe, nothing outside the page", async ({
  page,
  context,
  baseURL,
  signInAs,
}) => {
  // A lead and its mails, so that the lead page and a mail page are there to check.
  const ride = await requestTestRide(page.request, baseURL!, `phone-${Date.now().toString(36)}@example.com`)
  await page.setViewportSize(PHONE)
  await page.goto('/_console')
  await checkPage(page, 'sign-in')
  // Signed in with the editor's session (signing in through the form is the test above's); not signed out here, as
  // the session is shared: the test above signs out.
  await signInAs('editor')
  await page.goto('/_console')
  await expect(page.locator('.console-who')).toContainText(member('editor').name)
  await checkPage(page, 'home')
  for (const [name, path] of [
    ['leads', '/_console/leads'],
    ['outbox', '/_console/outbox'],
    ['markets', '/_console/markets'],
    ['purge', '/_console/purge'],
  ]) {
    await page.goto(path as string)
    await checkPage(page, name as string)
  }
  await page.goto('/_console/leads?kind=test_ride')
  const lead = page.locator(`.table-scroll tbody a:text-is("${ride}")`)
  expect(await lead.count()).toBeGreaterThan(0)
  await lead.first().click()
  await expect(page.locator('h1')).toHaveText(`Test ride ${ride}`)
  await checkPage(page, 'lead')
  await page.goto('/_console/outbox')
  const mail = page.locator(`.table-scroll tbody a:has-text("${ride}")`)
  expect(await mail.count()).toBeGreaterThan(0)
  await mail.first().click()
  await expect(page.locator('pre.mail')).toContainText(ride)
  await checkPage(page, 'outbox-mail')

  await context.clearCookies()
  await signInAs('case_handler')
  await page.goto('/_console')
  await expect(page.locator('.console-who')).toContainText(member('case_handler').name)
  await checkPage(page, 'home-case-handler')
  await page.goto('/_console/cases')
  await expect(page.locator('h1')).toBeVisible()
  await checkPage(page, 'cases')
  const refused = await page.goto('/_console/leads')
  expect(refused?.status()).toBe(403)
  await expect(page.locator('h1')).toHaveText('Not for your role')
  await checkPage(page, 'forbidden')
})
