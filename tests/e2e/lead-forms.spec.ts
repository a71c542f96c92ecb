import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/offline'

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

test.describe('the contact form without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  for (const [market, path, viewport] of [
    ['it-it', '/it-it/contatti', PHONE],
    ['il-he', '/il-he/tsor-kesher', DESKTOP],
  ] as const) {
    test(`sends a message in ${market} at ${viewport.width} px, once wrong then right`, async ({ page }) => {
      await page.setViewportSize(viewport)
      await page.goto(path)
      const form = page.locator('form.lead-form')
      await form.locator('#field-email').fill('not-an-address')
      await form.locator('textarea[name="message"]').fill('Il campanello della mia Strada vibra.')
      await form.locator('button[type="submit"]').click()
      await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
      await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'true')
      await expect(page.locator('#field-email')).toHaveValue('not-an-address')
      await expect(page.locator('textarea[name="message"]')).toHaveValue('Il campanello della mia Strada vibra.')

      await page.locator('#field-topic-2').check()
      await page.locator('#field-name').fill('Giulia Rossi')
      await page.locator('#field-email').fill('giulia@example.com')
      await page.locator('#field-consent').check()
      await page.locator('form.lead-form button[type="submit"]').click()
      await expect(page).toHaveURL(new RegExp(`${path}/sent\\?reference=CT-`))
      await expect(page.locator('h1')).toBeVisible()
      const reference = new URL(page.url()).searchParams.get('reference')!
      await expect(page.locator('.reference strong')).toHaveText(reference)
    })
  }
})

test.describe('the partner forms', () => {
  test('a dealer applies in it-it at phone width: services kept after an error, focus on the first field with a message', {
    tag: '@over-http',
  }, async ({ page }) => {
    await page.setViewportSize(PHONE)
    await page.goto('/it-it/diventa-rivenditore')
    await page.locator('#field-company_name').fill('Cicli Aurora Bergamo')
    await page.getByRole('checkbox', { name: /.+/ }).first().check()
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page.locator('#field-registration_number')).toBeFocused()
    await expect(page.locator('#field-company_name')).toHaveValue('Cicli Aurora Bergamo')
    await expect(page.locator('input[name="services"]').first()).toBeChecked()

    await page.locator('#field-registration_number').fill('IT 01234567890')
    await page.locator('#field-address_line').fill('Via Borgo Palazzo 10')
    await page.locator('#field-postal_code').fill('24125')
    await page.locator('#field-city').fill('Bergamo')
    await page.locator('#field-contact_name').fill('Marco Bianchi')
    await page.locator('#field-email').fill('marco@cicliaurora.example')
    await page.locator('#field-phone').fill('+39 035 555 0199')
    await page.locator('#field-brands').fill('Bianchi, Wilier')
    await page.locator('#field-consent').check()
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page).toHaveURL(/\/it-it\/diventa-rivenditore\/sent\?reference=DL-/)
  })

  test('a distributor applies in ae-ar (right to left) at phone width, once wrong then right', async ({ page }) => {
    await page.setViewportSize(PHONE)
    await page.goto('/ae-ar/kun-muwazzian')
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    await page.locator('#field-company_name').fill('شركة الدراجات الخليجية')
    await page.locator('#field-email').fill('not-an-address')
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page.locator('#field-registration_number')).toBeFocused()
    await expect(page.locator('#field-email')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.locator('#field-company_name')).toHaveValue('شركة الدراجات الخليجية')

    await page.locator('#field-registration_number').fill('AE 100234567800003')
    await page.locator('#field-address_line').fill('Sheikh Zayed Road 12')
    await page.locator('#field-postal_code').fill('00000')
    await page.locator('#field-city').fill('دبي')
    await page.locator('#field-contact_name').fill('ليلى حداد')
    await page.locator('#field-email').fill('layla@gulfbikes.example')
    await page.locator('#field-phone').fill('+971 4 555 0101')
    await page.locator('#field-territory').fill('الإمارات، عُمان')
    await page.locator('#field-yearly_volume').selectOption('100_500')
    await page.locator('#field-consent').check()
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page).toHaveURL(/\/ae-ar\/kun-muwazzian\/sent\?reference=DS-/)
    await expect(page.locator('.reference strong')).toHaveAttribute('dir', 'ltr')
  })

  for (const [path, viewport] of [
    ['/ae-ar/kun-muwazzian', PHONE],
    ['/int-en/become-a-distributor', DESKTOP],
  ] as const) {
    // The form as it opens is axed by page-kinds.spec.ts (distributor-form) at this width and direction.
    test(`${path} at ${viewport.width} px has no accessibility violations, with its errors shown`, async ({ page }) => {
      await page.setViewportSize(viewport)
      await page.goto(path)
      await page.locator('form.lead-form button[type="submit"]').click()
      await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
      expect(await axeViolations(page)).toEqual([])
    })
  }
})

for (const [path, viewport] of [
  ['/it-it/contatti', PHONE],
  ['/il-he/tsor-kesher', PHONE],
  ['/it-it/diventa-rivenditore', PHONE],
  ['/it-it/diventa-rivenditore', DESKTOP],
] as const) {
  test(`${path} at ${viewport.width} px has no accessibility violations with its errors shown`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await page.goto(path)
    await page.locator('form.lead-form button[type="submit"]').click()
    await expect(page.locator('.lead-form .form-error[role="alert"]')).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
  })
}
