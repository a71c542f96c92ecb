import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/offline'
import { addAddress, deleteAddress, DEMO_CUSTOMER as DEMO, logIn, logInFrom } from './fixtures/customer'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }

const violationsOf = async (page: Page) =>
  (
    await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze()
  ).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)

test('the demo customer logs in, uses the whole account, logs out, and the account is closed again', {
  tag: '@over-http',
}, async ({ page, context }) => {
  await logInFrom(page, '/it-it/my-account')
  await expect(page).toHaveURL('/it-it/my-account')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Salve, Giulia')
  await expect(page.getByText('customer@example.com')).toBeVisible()

  // The browser holds an opaque id only: HttpOnly, so no script can read it either.
  const [cookie] = (await context.cookies()).filter((c) => c.name === '__Host-AuthTkn')
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' })
  expect(await page.evaluate(() => document.cookie)).not.toContain('AuthTkn')

  // Add an address, then delete it.
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Indirizzi' }).click()
  await expect(page).toHaveURL('/it-it/my-account/addresses')
  const label = `Garage ${Date.now()}`
  await page.getByLabel(/Nome dell.indirizzo/).fill(label)
  await page.getByLabel('Nome', { exact: true }).fill('Giulia')
  await page.getByLabel('Cognome').fill('Rossi')
  await page.getByLabel('Via e numero civico').fill('Via Borgo Palazzo 90')
  await page.getByLabel('CAP').fill('24125')
  await page.getByLabel('Città').fill('Bergamo')
  await page.getByRole('button', { name: /Salva/ }).click()
  await expect(page).toHaveURL(/\/it-it\/my-account\/addresses$/)
  await expect(page.getByRole('status')).toBeVisible()
  const card = page.locator('.address-card', { has: page.getByRole('heading', { name: label }) })
  await expect(card).toContainText('Via Borgo Palazzo 90')
  await card.getByRole('link', { name: /Elimina/ }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Eliminare questo indirizzo?')
  await page.getByRole('button', { name: "Elimina l'indirizzo" }).click()
  await expect(page.locator('.toast[data-notice="address_deleted"]')).toBeAttached()
  await expect(page.getByRole('heading', { name: label })).toHaveCount(0)

  // Register a bike.
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Bici registrate' }).click()
  const serial = `E2E${Date.now()}`.slice(0, 16)
  await page.getByLabel('Numero di telaio').fill(serial)
  await page.getByLabel('Modello').selectOption({ label: 'Aurora Strada 9' })
  await page.getByLabel('Data di acquisto').fill('2026-04-18')
  await page.getByRole('button', { name: 'Registra la bici' }).click()
  await expect(page.locator('.toast[data-notice="bike_registered"]')).toBeAttached()
  const bike = page.locator('.bike', { hasText: serial })
  await expect(bike).toContainText('Aurora Strada 9')
  await expect(bike).toContainText('18 aprile 2031')

  // Open an order.
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Ordini' }).click()
  await page.getByRole('link', { name: /AUR-10004/ }).click()
  await expect(page).toHaveURL('/it-it/my-account/orders/AUR-10004')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('AUR-10004')
  await expect(page.getByText('Cicli Bergamasca').first()).toBeVisible()

  // Log out from the header: the account is closed again, even to the old cookie.
  await page.locator('.account-menu summary').click()
  await page.getByRole('button', { name: 'Esci' }).click()
  await expect(page).toHaveURL(/\/it-it$/)
  await expect(page.getByRole('link', { name: 'Accedi' })).toBeVisible()
  await context.addCookies([{ ...cookie!, sameSite: 'Lax' }])
  await page.goto('/it-it/my-account/orders')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fit-it%2Fmy-account%2Forders$/)
})

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 800 }

for (const [market, m] of [
  ['it-it', italian],
  ['il-he', hebrew],
] as const) {
  test(`in ${market}, on a wide screen and on a phone, an edited address is saved, or comes back with the field's message and what was typed`, async ({
    page,
    baseURL,
  }) => {
    await logIn(page.request, baseURL!)
    await page.goto(`/${market}/my-account/addresses`)
    await expect(page).toHaveURL(`/${market}/my-account/addresses`)
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport)
      // An address of this test's own, so the demo customer's stay as they are.
      const label = `Edit ${viewport.width} ${Date.now()}`
      await addAddress(page, m, label)
      const card = () => page.locator('.address-card', { has: page.getByRole('heading', { name: label }) })

      await card()
        .getByRole('link', { name: `${m.address.edit}: ${label}` })
        .click()
      await expect(page).toHaveURL(new RegExp(`/${market}/my-account/addresses/\\d+/edit$`))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(m.address.edit_title)
      const id = page.url().match(/addresses\/(\d+)\/edit$/)?.[1]

      // Wrong: a required field emptied. The same form comes back (422) with the translated message, values kept.
      await page.getByLabel(m.address.line1, { exact: true }).fill('Via Angelo Mai 14')
      await page.getByLabel(m.address.city, { exact: true }).fill('')
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: m.address.save }).click(),
      ])
      expect(refused.status()).toBe(422)
      await expect(page).toHaveURL(`/${market}/my-account/addresses/${id}`)
      await expect(page.getByRole('alert')).toHaveText(m.validation.summary)
      const city = page.getByLabel(m.address.city, { exact: true })
      await expect(city).toHaveAttribute('aria-invalid', 'true')
      await expect(city).toHaveAccessibleDescription(m.validation.required)
      await expect(page.getByLabel(m.address.line1, { exact: true })).toHaveValue('Via Angelo Mai 14')
      await expect(page.getByLabel(m.address.label)).toHaveValue(label)

      // Valid: saved, back on the list with the toast, the card showing the change.
      await city.fill('Seriate')
      await page.getByRole('button', { name: m.address.save }).click()
      await expect(page).toHaveURL(`/${market}/my-account/addresses`)
      await expect(page.getByRole('status')).toHaveText(m.notice.address_saved)
      await expect(card()).toContainText('Via Angelo Mai 14')
      await expect(card()).toContainText('Seriate')

      await deleteAddress(page, m, label, card)
    }
  })
}

for (const [market, m] of [
  ['it-it', italian],
  ['il-he', hebrew],
] as const) {
  // Axe on the order, the account and the orders at this width and direction: page-kinds.spec.ts (account-*).
  test(`in ${market} at phone width, the order's lines are cards that need no sideways scroll`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(PHONE)
    await logIn(page.request, baseURL!)
    await page.goto(`/${market}/my-account/orders/AUR-10004`)
    await expect(page).toHaveURL(`/${market}/my-account/orders/AUR-10004`)

    const table = page.getByRole('table', { name: m.order.items })
    // Stacked rows (tests/e2e/account-phone.spec.ts looks closer): nothing to scroll, so nothing for a keyboard to reach.
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth === document.documentElement.clientWidth),
    ).toBe(true)
  })
}

test('a wrong password shows a message that does not say whether the account exists', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail address').first().fill(DEMO.email)
  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('The e-mail address or the password is not right. Please try again.')
  await expect(page.getByLabel('E-mail address').first()).toHaveValue(DEMO.email)
})

// The login, account, orders, order, bikes and addresses pages themselves are axed by page-kinds.spec.ts (login,
// account-*), at 390 and 1366 px, left to right and right to left.
test('an address form that came back with its errors has no accessibility violations (axe)', async ({
  page,
  baseURL,
}) => {
  await logIn(page.request, baseURL!)
  await page.goto('/it-it/my-account/addresses')
  await page.getByRole('button', { name: /Salva/ }).click()
  await expect(page.getByRole('alert')).toBeVisible()
  expect(await violationsOf(page)).toEqual([])
})
