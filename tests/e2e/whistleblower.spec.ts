import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, problemsOf, recordProblems, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

async function expectNoAxeViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    what,
  ).toEqual([])
}

const shot = (page: Page, name: string) =>
  keepScreenshot(page, `test-results/screenshots/whistleblower-${name}.png`, { fullPage: true })

test.beforeEach(({ page }) => recordProblems(page))

const JOURNEYS = [
  {
    market: 'it-it',
    what: 'Le fatture dei telai vengono pagate due volte allo stesso fornitore.',
    whenWhere: 'Da marzo 2026, ufficio acquisti di Bergamo.',
    sent: 'La segnalazione è stata inviata',
    noCase: 'Non è stato possibile aprire un caso con questo codice di ricevuta e questa passphrase.',
    replySent: 'Il Suo messaggio è stato inviato.',
  },
  {
    market: 'ae-ar',
    what: 'تُدفع فواتير الإطارات مرتين للمورّد نفسه.',
    whenWhere: 'منذ مارس 2026، قسم المشتريات.',
    sent: 'تم إرسال بلاغك',
    noCase: 'تعذّر فتح قضية بهذا الرمز وعبارة المرور هذه.',
    replySent: 'تم إرسال رسالتك.',
  },
] as const

for (const journey of JOURNEYS) {
  test(`a reporter sends an anonymous report in ${journey.market} at phone width, keeps the receipt and follows the case`, {
    tag: '@over-http',
  }, async ({ page, context, thirdParties }) => {
    test.setTimeout(60_000)
    await page.setViewportSize(PHONE)
    const form = await page.goto(`/${journey.market}/whistleblower-form`)
    expect(form!.headers()['cache-control']).toBe('no-store')
    expect(form!.headers()['referrer-policy']).toBe('no-referrer')
    await expect(page.locator('html')).toHaveAttribute('dir', journey.market === 'ae-ar' ? 'rtl' : 'ltr')
    await expectNoAxeViolations(page, 'the report form')
    await shot(page, `form-${journey.market}-phone`)

    // Once wrong: nothing chosen, the "when and where" left empty.
    await page.locator('#field-what').fill(journey.what)
    await page.locator('form.wb-form button[type="submit"]').click()
    await expect(page.locator('.wb-form .form-error[role="alert"]')).toBeVisible()
    await expect(page.locator('#field-what')).toHaveValue(journey.what)
    await expect(page.locator('#field-when_where')).toHaveAttribute('aria-invalid', 'true')
    await expectNoAxeViolations(page, 'the report form with its messages')

    // Then right, with an attachment; anonymous is the default, so name and contact stay hidden.
    await page.locator('#field-category-0').check()
    await page.locator('#field-when_where').fill(journey.whenWhere)
    await expect(page.locator('#field-name')).toBeHidden()
    await page
      .locator('#field-attachments')
      .setInputFiles({ name: 'ledger.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 ledger') })
    await page.locator('form.wb-form button[type="submit"]').click()
    await expect(page.locator('h1')).toHaveText(journey.sent)
    const code = (await page.locator('#wb-receipt-code').textContent())!
    const passphrase = (await page.locator('#wb-passphrase').textContent())!
    expect(code).toMatch(/^WB-([0-9A-Z]{4}-){3}[0-9A-Z]{4}$/)
    expect(passphrase).toMatch(/^([0-9A-Z]{4}-){5}[0-9A-Z]{4}$/)
    // Nothing of it is in the address bar: the receipt is the POST's own answer.
    expect(page.url()).toMatch(new RegExp(`/${journey.market}/whistleblower-form$`))
    await expect(page.locator('.wb-receipt-actions button')).toBeVisible()
    await expectNoAxeViolations(page, 'the receipt')
    await shot(page, `receipt-${journey.market}-phone`)

    // The follow-up: a wrong passphrase first, then the pair as written down (lower case, spaces).
    await page.goto(`/${journey.market}/whistleblower-form/status`)
    await expectNoAxeViolations(page, 'the follow-up form')
    await page.locator('#field-code').fill(code)
    await page.locator('#field-passphrase').fill('AAAA-BBBB-CCCC-DDDD-EEEE-FFFF')
    await page.locator('form.stacked-form button[type="submit"]').click()
    await expect(page.locator('.form-error[role="alert"]')).toContainText(journey.noCase)
    await expectNoAxeViolations(page, 'the follow-up form refused')
    await page.locator('#field-code').fill(code.toLowerCase().replace(/-/g, ' '))
    await page.locator('#field-passphrase').fill(passphrase.toLowerCase())
    await page.locator('form.stacked-form button[type="submit"]').click()
    await expect(page.locator('.wb-case-code .wb-code')).toHaveText(code)
    await expect(page.locator('.wb-states li[aria-current="step"]')).toBeVisible()
    await expect(page.locator('.wb-report')).toContainText('ledger.pdf')
    await expectNoAxeViolations(page, 'the case')

    // An answer, without typing the pair again.
    await page
      .locator('#field-message')
      .fill(journey.market === 'ae-ar' ? 'المستودع هو مستودع دبي.' : 'Il magazzino è quello di Seriate.')
    await page.locator('form.wb-reply button[type="submit"]').click()
    await expect(page.locator('.wb-notice[role="status"]')).toContainText(journey.replySent)
    await expect(page.locator('.wb-message.reporter')).toHaveCount(1)
    await shot(page, `case-${journey.market}-phone`)

    expect(await context.cookies(), 'no cookie at all').toEqual([])
    expect(thirdParties.requests, 'no other origin').toEqual([])
    // The refused form (422) and the pair that opens no case (404) are answers the browser reports; nothing else.
    expect(problemsOf(page).filter((problem) => !/status of (422|404)\b/.test(problem))).toEqual([])
  })
}

test("the channel's pages at desktop width: the form, the receipt and a case, calm and readable", async ({
  page,
  context,
}) => {
  test.setTimeout(60_000)
  await page.setViewportSize(DESKTOP)
  await page.goto('/it-it/whistleblower-form')
  await shot(page, 'form-it-it-desktop')
  await page.locator('#field-category-1').check()
  await page
    .locator('#field-what')
    .fill('I freni della serie 2026 si crepano sotto carico; i rapporti di prova sono stati modificati.')
  await page.locator('#field-when_where').fill('Laboratorio qualità, ottobre 2026.')
  await page.locator('#field-identity-1').check()
  await expect(page.locator('#field-name')).toBeVisible()
  await page.locator('#field-name').fill('Giulia Rossi')
  await page.locator('#field-contact').fill('+39 035 555 0101, dopo le 18')
  await expectNoAxeViolations(page, 'the named report form')
  await page.locator('form.wb-form button[type="submit"]').click()
  const code = (await page.locator('#wb-receipt-code').textContent())!
  const passphrase = (await page.locator('#wb-passphrase').textContent())!
  await shot(page, 'receipt-it-it-desktop')
  await page.goto('/it-it/whistleblower-form/status')
  await page.locator('#field-code').fill(code)
  await page.locator('#field-passphrase').fill(passphrase)
  await page.locator('form.stacked-form button[type="submit"]').click()
  await expect(page.locator('.wb-case-code .wb-code')).toHaveText(code)
  await page.locator('.wb-report summary').click()
  await expect(page.locator('.wb-report')).toContainText('Giulia Rossi')
  await shot(page, 'case-it-it-desktop')
  await expectNoAxeViolations(page, 'the case at desktop width')
  expect(await context.cookies()).toEqual([])
})
