import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { remember } from './fixtures/customer'
import { expect, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import { keepScreenshot } from './fixtures/screenshots'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }
const PASSWORD = 'Gravel-Roads-2027'
const SCREENSHOTS = 'test-results/screenshots'

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Checks a page with axe and keeps its screenshot. */
async function check(page: Page, name: string) {
  expect(await axeViolations(page), name).toEqual([])
  await keepScreenshot(page, `${SCREENSHOTS}/sign-up-${name}.png`, { fullPage: true })
}

type Texts = typeof italian

/**
 * From the login page to "check your mailbox": the form sent once with a weak password, then right. The login page
 * and the empty form are axed by page-kinds.spec.ts (login, register) at this width and direction.
 */
async function createAccount(page: Page, t: Texts, market: string, email: string) {
  await page.goto(`/login?redirect=%2F${market}%2Fmy-account`)
  await page.getByRole('link', { name: t.register.title }).click()
  await expect(page).toHaveURL(`/login/register?redirect=%2F${market}%2Fmy-account`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.register.title)

  await page.locator('#field-first_name').fill('Chiara')
  await page.locator('#field-last_name').fill('Bianchi')
  await page.locator('#field-email').fill(email)
  await page.locator('#field-password').fill('short')
  await page.locator('#field-consent').check()
  await page.getByRole('button', { name: t.register.submit }).click()
  await expect(page.locator('#field-password')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#field-password-error')).toHaveText(t.validation.password_rules)
  await expect(page.locator('#field-email')).toHaveValue(email)
  await expect(page.locator('#field-last_name')).toHaveValue('Bianchi')
  await expect(page.locator('#field-password')).toHaveValue('')
  await check(page, `${market}-form-errors`)

  await page.locator('#field-password').fill(PASSWORD)
  await page.getByRole('button', { name: t.register.submit }).click()
  await expect(page).toHaveURL('/login/register/sent')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.register.sent_title)
  await check(page, `${market}-sent`)
}

/** An account's confirmation link (sign-up's mail) from the outbox; with `not`, a new one (the link sent again). */
const confirmationLinkMailedTo = async (outbox: Outbox, email: string, not?: string) =>
  (await outbox.linkMailedTo(email, 'email_confirmation', /\/confirm-email\/\S+/, { not })).link

async function logIn(page: Page, t: Texts, email: string) {
  await page.getByLabel(t.auth.email).first().fill(email)
  await page.getByLabel(t.auth.password, { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: t.auth.submit, exact: true }).click()
}

test.describe('creating an account', () => {
  // Each journey fills a form twice as a person does, reads the outbox and runs axe on five pages.
  test.describe.configure({ timeout: 90_000 })

  test('in it-it at phone width: from the login page, confirmed from the mailed link, then logged in', async ({
    page,
    context,
    baseURL,
    outbox,
  }) => {
    await page.setViewportSize(PHONE)
    await remember(context, 'it-it', baseURL!)
    const email = `e2e-it-${Date.now()}@example.com`
    await createAccount(page, italian, 'it-it', email)

    // Opening the link confirms nothing: the visitor presses the button.
    await page.goto(await confirmationLinkMailedTo(outbox, email))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(italian.confirm.title)
    await check(page, 'it-it-confirm')
    await page.getByRole('button', { name: italian.confirm.submit }).click()
    await expect(page).toHaveURL(/\/login\?redirect=%2Fit-it%2Fmy-account$/)
    await expect(page.getByRole('status')).toHaveText(italian.notice.email_confirmed)

    await logIn(page, italian, email)
    await expect(page).toHaveURL('/it-it/my-account')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Salve, Chiara')
    await expect(page.locator('.confirm-banner')).toHaveCount(0)
    await check(page, 'it-it-account')
  })

  test('in il-he at phone width: logged in before confirming, the banner sends the link again, confirmed while logged in', async ({
    page,
    context,
    baseURL,
    outbox,
  }) => {
    await page.setViewportSize(PHONE)
    await remember(context, 'il-he', baseURL!)
    const email = `e2e-he-${Date.now()}@example.com`
    await createAccount(page, hebrew, 'il-he', email)
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
    const first = await confirmationLinkMailedTo(outbox, email)

    await page.getByRole('link', { name: hebrew.register.back_to_login }).click()
    await logIn(page, hebrew, email)
    await expect(page).toHaveURL('/il-he')
    await page.goto('/il-he/my-account')
    const banner = page.locator('.confirm-banner')
    await expect(banner.getByRole('heading', { level: 2 })).toHaveText(hebrew.confirm.banner_title)
    await expect(banner.locator('bdi[dir="ltr"]')).toHaveText(email)
    await check(page, 'il-he-account-unconfirmed')
    await keepScreenshot(banner, `${SCREENSHOTS}/sign-up-il-he-banner.png`)
    await banner.getByRole('button', { name: hebrew.confirm.resend }).click()
    await expect(page).toHaveURL('/il-he/my-account')
    await expect(page.getByRole('status')).toHaveText(hebrew.notice.confirmation_sent)
    const second = await confirmationLinkMailedTo(outbox, email, first)

    await page.goto(second)
    await check(page, 'il-he-confirm')
    await page.getByRole('button', { name: hebrew.confirm.submit }).click()
    await expect(page).toHaveURL('/il-he/my-account')
    await expect(page.locator('.confirm-banner')).toHaveCount(0)
    // Spent: the first link no longer works either.
    await page.goto(first)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hebrew.confirm.invalid_title)
    await check(page, 'il-he-link-spent')
  })

  test('the form at desktop width, left to right and right to left', async ({ page, context, baseURL }) => {
    await page.setViewportSize(DESKTOP)
    for (const [market, t] of [
      ['it-it', italian],
      ['il-he', hebrew],
    ] as const) {
      await context.clearCookies()
      await remember(context, market, baseURL!)
      await page.goto('/login/register')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.register.title)
      await page.getByRole('button', { name: t.register.submit }).click()
      await expect(page.locator('#field-first_name')).toHaveAttribute('aria-invalid', 'true')
      await expect(page.locator('#field-consent-error')).toHaveText(t.validation.register_consent)
      // An empty password is only told it is required.
      await expect(page.locator('#field-password-error')).toHaveText(t.validation.required)
      await check(page, `${market}-form-errors-desktop`)
    }
  })
})
