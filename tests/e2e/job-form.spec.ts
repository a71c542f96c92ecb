import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { slugOf } from '../fixtures/page-slugs'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

/** A small one-page PDF, as a CV. */
const PDF = {
  name: 'Giulia Rossi CV.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  ),
}
/** A Windows program renamed to look like a PDF. */
const RENAMED_PROGRAM = {
  name: 'cv.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]),
}

let clients = 0
/**
 * Each test posts from an address of its own: the forms' rate limit (per client and form, a minute) is not what these
 * tests are about.
 */
const asNewClient = (page: Page) =>
  page.setExtraHTTPHeaders({ 'CF-Connecting-IP': `198.51.100.${(clients++ % 250) + 1}` })

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

for (const [market, viewport] of [
  ['it-it', PHONE],
  ['ae-ar', DESKTOP],
] as const) {
  test(`applies for a job with a PDF in ${market} at ${viewport.width} px, once wrong then right`, async ({ page }) => {
    await asNewClient(page)
    await page.setViewportSize(viewport)
    await page.goto(`/${market}/${slugOf(market, 'work-with-us')}`)
    const firstPosition = page.locator('.job-card').first()
    const title = (await firstPosition.locator('h3').textContent())!
    await firstPosition.locator('.job-apply').click()
    await expect(page).toHaveURL(/\?position=\d+#lead-form-title$/)
    const position = new URL(page.url()).searchParams.get('position')!
    await expect(page.locator('#field-position')).toHaveValue(position)
    await expect(page.locator('#field-position option:checked')).toContainText(title)

    const form = page.locator('form.lead-form')
    await form.locator('#field-name').fill('Giulia Rossi')
    await form.locator('#field-email').fill('giulia.rossi-at-example.com')
    await form.locator('#field-phone').fill('+39 035 555 0199')
    await form.locator('#field-cover_letter').fill('Riparo biciclette da dieci anni.')
    await form.locator('#field-cv').setInputFiles(RENAMED_PROGRAM)
    await form.locator('#field-consent').check()
    await form.locator('button[type="submit"]').click()

    await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
    await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.locator('#field-cv')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.locator('#field-cv-error')).toBeVisible()
    await expect(page.locator('#field-cv-again')).toBeVisible()
    await expect(page.locator('#field-position')).toHaveValue(position)
    await expect(page.locator('#field-name')).toHaveValue('Giulia Rossi')
    await expect(page.locator('#field-cover_letter')).toHaveValue('Riparo biciclette da dieci anni.')
    await keepScreenshot(
      page.locator('.lead-form-section'),
      `${SCREENSHOTS}/job-form-${market}-${viewport.width}-errors.png`,
    )

    await page.locator('#field-email').fill('giulia.rossi@example.com')
    await page.locator('#field-cv').setInputFiles(PDF)
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page).toHaveURL(new RegExp(`/${market}/${slugOf(market, 'work-with-us')}/sent\\?reference=JB-`))
    const reference = new URL(page.url()).searchParams.get('reference')!
    await expect(page.locator('.reference strong')).toHaveText(reference)
  })
}

for (const [path, viewport] of [
  ['/it-it/lavora-con-noi', PHONE],
  ['/il-he/drushim', PHONE],
  ['/ae-ar/al-wazaif', DESKTOP],
  ['/es-es/trabaja-con-nosotros', DESKTOP],
] as const) {
  // The form as it opens is axed by page-kinds.spec.ts (job-form) at each width and direction.
  test(`${path} at ${viewport.width} px has no accessibility violations with its errors shown`, async ({ page }) => {
    await asNewClient(page)
    await page.setViewportSize(viewport)
    await page.goto(path)
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page.locator('#field-cv-error')).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
}

test('the job page at phone and desktop width, left to right and right to left: the positions and the file input inside the viewport', async ({
  page,
}) => {
  for (const market of ['it-it', 'ae-ar', 'il-he', 'es-es']) {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport)
      await page.goto(`/${market}/${slugOf(market, 'work-with-us')}`)
      await expect(page.locator('.job-openings h2')).toBeVisible()
      const direction = await page.locator('html').getAttribute('dir')
      expect(direction).toBe(market === 'ae-ar' || market === 'il-he' ? 'rtl' : 'ltr')
      // Nothing of the positions or the file input sticks out sideways, at phone width either.
      const outside = await page.evaluate(
        () =>
          [...document.querySelectorAll('.job-openings, .job-openings *, .cv-input, .cv-input *')]
            .map((element) => element.getBoundingClientRect())
            .filter((box) => box.left < -1 || box.right > document.documentElement.clientWidth + 1).length,
      )
      expect(outside).toBe(0)
      await keepScreenshot(page, `${SCREENSHOTS}/job-${market}-${viewport.width}.png`, { fullPage: true })
    }
  }
})
