import AxeBuilder from '@axe-core/playwright'
import type { Browser, Page } from '@playwright/test'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import type { StaffSessions } from './fixtures/staff'

/**
 * A whistleblower case from both sides: reporters send anonymous reports (it-it, and ae-ar right to left on a phone)
 * and write down their receipts; a case handler (signed in with the case handler's session of fixtures/staff.ts: the
 * sign-in form is console.spec.ts's) acknowledges a case and asks a question; the reporter reads it on the status page
 * and answers; the handler sees the answer. axe on the console's case pages at 1280 and 390 px.
 */

const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }

const shot = (page: Page, name: string) =>
  keepScreenshot(page, `test-results/screenshots/cases-${name}.png`, { fullPage: true })

/** Sends an anonymous report through the market's form and answers the receipt the page shows once. */
async function sendAnonymousReport(page: Page, market: string, what: string) {
  await page.goto(`/${market}/whistleblower-form`)
  const form = page.locator('form:has(textarea[name="what"])')
  await form.locator('input[name="category"][value="product_safety"]').check()
  await form.locator('textarea[name="what"]').fill(what)
  await form.locator('textarea[name="when_where"]').fill('Bergamo, 2026-11-02')
  await expect(form.locator('input[name="identity"][value="anonymous"]')).toBeChecked()
  await form.locator('button[type="submit"]').click()
  const code = (await page.locator('#wb-receipt-code').innerText()).trim()
  const passphrase = (await page.locator('#wb-passphrase').innerText()).trim()
  expect(code).toMatch(/^WB(-[0-9A-Z]{4}){4}$/)
  expect(passphrase).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){5}$/)
  return { code, passphrase }
}

/** A console page of a case handler, in a browser of its own with the case handler's session: the list of cases. */
async function handlerPage(browser: Browser, staffSessions: StaffSessions): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP })
  await context.addCookies(await staffSessions.cookies('case_handler'))
  const page = await context.newPage()
  await page.goto('/_console/cases')
  await expect(page).toHaveURL(/\/_console\/cases$/)
  return page
}

/** Opens a reporter's case on the status page with the receipt they wrote down. */
async function openStatus(page: Page, market: string, receipt: { code: string; passphrase: string }) {
  await page.goto(`/${market}/whistleblower-form/status`)
  // Typed back as a person would: lower case, spaces for dashes.
  await page.locator('#field-code').fill(receipt.code.toLowerCase().replace(/-/g, ' '))
  await page.locator('#field-passphrase').fill(receipt.passphrase)
  await page.locator('form:has(#field-passphrase) button[type="submit"]').click()
}

const axeViolations = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )

test.describe.configure({ mode: 'serial' })

test('a reporter and a case handler follow a case to its answer (it-it and ae-ar)', async ({
  page,
  browser,
  staffSessions,
}) => {
  await page.setViewportSize(DESKTOP)
  const italian = await sendAnonymousReport(
    page,
    'it-it',
    'I freni del lotto 42 si crepano sotto carico; i risultati dei test sono stati modificati.',
  )
  await shot(page, 'receipt-it-it')
  const reporterPhone = await (await browser.newContext({ viewport: PHONE })).newPage()
  const arabic = await sendAnonymousReport(
    reporterPhone,
    'ae-ar',
    'تتشقق مكابح الدفعة 42 تحت الحمل، وقد تم تغيير نتائج الاختبار.',
  )
  await shot(reporterPhone, 'receipt-ae-ar-390')

  // The case handler signs in and finds both new cases in the list.
  const console_ = await handlerPage(browser, staffSessions)
  const list = console_.locator('table')
  await expect(list).toContainText(italian.code)
  await expect(list).toContainText(arabic.code)
  await expect(list.locator('tr', { hasText: arabic.code })).toContainText('ae-ar')
  await shot(console_, 'list-1280')

  // The Arabic case: opened, its report readable right to left inside the English console.
  await console_.getByRole('link', { name: arabic.code }).click()
  await expect(console_.locator('#report ~ dl, section[aria-labelledby="report"]').first()).toContainText(
    'تتشقق مكابح الدفعة 42',
  )
  await expect(console_.locator('section[aria-labelledby="report"] .text[dir="auto"]').first()).toBeVisible()
  await shot(console_, 'case-ae-ar-1280')

  // The Italian case: acknowledged, then a question.
  await console_.goto('/_console/cases')
  await console_.getByRole('link', { name: italian.code }).click()
  await expect(console_.getByRole('heading', { level: 1 })).toHaveText(`Case ${italian.code}`)
  await expect(console_.locator('section[aria-labelledby="report"]')).toContainText('I freni del lotto 42')
  await console_.getByRole('button', { name: 'Acknowledge receipt' }).click()
  await expect(console_.getByRole('status')).toContainText('The case is acknowledged')
  await console_.getByLabel('Write to the reporter').fill('Grazie. In quale stabilimento è stato montato il lotto 42?')
  await console_.getByRole('button', { name: 'Send to the reporter' }).click()
  await expect(console_.getByRole('status')).toContainText('on its way to the reporter')
  await console_.getByLabel('Add a note').fill('Chiedere al laboratorio i risultati originali.')
  await console_.getByRole('button', { name: 'Add the note' }).click()
  await expect(console_.locator('section[aria-labelledby="trail"]')).toContainText('Acknowledged the case')
  await expect(console_.locator('section[aria-labelledby="trail"]')).toContainText('Wrote to the reporter')
  await shot(console_, 'case-1280')

  // The reporter opens the status page with the receipt, reads the question (never the note) and answers.
  await openStatus(page, 'it-it', italian)
  await expect(page.locator('main')).toContainText('In quale stabilimento è stato montato il lotto 42?')
  await expect(page.locator('main')).not.toContainText('laboratorio')
  await page.locator('textarea[name="message"]').fill('Nello stabilimento di Bergamo, linea 3.')
  await page.locator('form.wb-reply button[type="submit"]').click()
  await expect(page.locator('main')).toContainText('Nello stabilimento di Bergamo, linea 3.')
  await shot(page, 'status-it-it')

  // The handler sees the answer in the conversation and the reporter's visits in the trail.
  await console_.reload()
  await expect(console_.locator('section[aria-labelledby="conversation"]')).toContainText(
    'Nello stabilimento di Bergamo, linea 3.',
  )
  await expect(console_.locator('section[aria-labelledby="trail"]')).toContainText('Answered')
  expect(await axeViolations(console_)).toEqual([])

  // The same case and the list on a phone, and axe on both.
  // (The same signed-in handler, on a phone's width.)
  const phone = console_
  await phone.setViewportSize(PHONE)
  await phone.goto('/_console/cases')
  expect(await axeViolations(phone)).toEqual([])
  await shot(phone, 'list-390')
  await phone.getByRole('link', { name: italian.code }).click()
  await expect(phone.locator('section[aria-labelledby="conversation"]')).toContainText('linea 3')
  expect(await axeViolations(phone)).toEqual([])
  await shot(phone, 'case-390')
  await phone.setViewportSize(DESKTOP)
  await phone.goto('/_console/cases')
  expect(await axeViolations(phone)).toEqual([])
})
