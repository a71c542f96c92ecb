import type { Page } from '@playwright/test'
import { expect, test } from './fixtures/offline'
import { addToCart } from './fixtures/cart'
import { rejectTracking } from './fixtures/consent'
import { createAccount, logIn } from './fixtures/customer'
import { checkPage } from './fixtures/page-checks'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }

/**
 * The account's self-service in Chromium (issue 30, item 10): each form sent once wrong and once right at phone width
 * in il-he and it-it, the pages checked at both widths, the deletion journey, the market switch with a cart and an
 * article's bikes. The server's rules are proven in workerd (tests/integration/account-self-service.test.ts).
 */

/** The pages' checks (axe, nothing outside the page, the header's included; a screenshot). */
const CHECKS = { prefix: 'account-self-service' }
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }
const PASSWORD = 'Sella-Rossa-2026!'
/** A surname of 60 letters: every block that shows a name must wrap it. */
const LONG_SURNAME = 'Abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, 60)

async function newCustomer(page: Page, outbox: Parameters<typeof createAccount>[2], baseURL: string) {
  const account = {
    email: `self-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: PASSWORD,
    first_name: 'Noa',
    last_name: LONG_SURNAME,
  }
  await createAccount(page.request, baseURL, outbox, account)
  await logIn(page.request, baseURL, account)
  return account
}

test.describe('account self-service', () => {
  test.describe.configure({ timeout: 120_000 })

  test('a customer edits the profile, changes the password and subscribes, in Hebrew on a phone and Italian on a desktop', async ({
    page,
    baseURL,
    outbox,
  }) => {
    await newCustomer(page, outbox, baseURL!)
    const he = hebrew
    await page.setViewportSize(PHONE)

    // The profile: once without a first name, then right.
    await page.goto('/il-he/my-account/profile')
    await expect(page.getByRole('heading', { level: 1, name: he.profile.title })).toBeVisible()
    await page.getByLabel(he.profile.first_name).fill('')
    await page.getByRole('button', { name: he.profile.save }).click()
    await expect(page.getByText(he.validation.required)).toBeVisible()
    await page.getByLabel(he.profile.first_name).fill('נועה')
    await page.getByRole('button', { name: he.profile.save }).click()
    await expect(page.getByRole('status')).toHaveText(he.notice.profile_saved)
    await checkPage(page, 'profile-he', CHECKS)

    // The password: once with a wrong current one, then right; this session goes on.
    await page.getByRole('link', { name: he.password_change.title }).click()
    await page.getByLabel(he.password_change.current).fill('Not-My-Password-1')
    await page.getByLabel(he.password.new_password, { exact: true }).fill('Sella-Blu-2027!')
    await page.getByLabel(he.password.confirm_password).fill('Sella-Blu-2027!')
    await page.getByRole('button', { name: he.password_change.submit }).click()
    await expect(page.getByText(he.validation.current_password)).toBeVisible()
    await page.getByLabel(he.password_change.current).fill(PASSWORD)
    await page.getByLabel(he.password.new_password, { exact: true }).fill('Sella-Blu-2027!')
    await page.getByLabel(he.password.confirm_password).fill('Sella-Blu-2027!')
    await page.getByRole('button', { name: he.password_change.submit }).click()
    await expect(page.getByRole('status')).toHaveText(he.notice.password_updated)

    // The newsletter: once without the consent, then with it (the confirmation link is mailed).
    await page.goto('/il-he/my-account/newsletter')
    // The footer carries the sign-up too: the account's own form is the main one's.
    const main = page.getByRole('main')
    await expect(page.getByText(he.account_newsletter.not_subscribed)).toBeVisible()
    await main.getByRole('button', { name: he.newsletter.submit }).click()
    await expect(page.getByText(he.validation.newsletter_consent)).toBeVisible()
    await main.getByLabel(he.newsletter.consent).check()
    await main.getByRole('button', { name: he.newsletter.submit }).click()
    await expect(page.getByText(he.account_newsletter.pending)).toBeVisible()
    await checkPage(page, 'newsletter-he', CHECKS)

    // Italian on a desktop: the same pages, checked.
    await page.setViewportSize(DESKTOP)
    const it = italian
    await page.goto('/it-it/my-account/profile')
    await expect(
      page.getByRole('navigation', { name: it.account.navigation }).getByRole('link', { name: it.profile.title }),
    ).toHaveAttribute('aria-current', 'page')
    await checkPage(page, 'profile-it', CHECKS)
    await page.goto('/it-it/my-account/profile/password')
    await checkPage(page, 'password-it', CHECKS)
    await page.goto('/it-it/my-account/newsletter')
    await checkPage(page, 'newsletter-it', CHECKS)
  })

  test('a customer deletes the account: the password asked, a goodbye in Italian, the login refused', async ({
    page,
    baseURL,
    outbox,
  }) => {
    const account = await newCustomer(page, outbox, baseURL!)
    const it = italian
    await page.setViewportSize(PHONE)
    await page.goto('/it-it/my-account/profile')
    await page.getByRole('link', { name: it.erase.title }).click()
    await expect(page.getByRole('heading', { level: 1, name: it.erase.title })).toBeVisible()
    await checkPage(page, 'delete-it', CHECKS)
    await page.getByLabel(it.erase.password).fill('Not-My-Password-1')
    await page.getByRole('button', { name: it.erase.submit }).click()
    await expect(page.getByText(it.validation.current_password)).toBeVisible()
    await page.getByLabel(it.erase.password).fill(PASSWORD)
    await page.getByRole('button', { name: it.erase.submit }).click()
    await expect(page).toHaveURL(/\/it-it\/account-deleted$/)
    await expect(page.getByRole('heading', { level: 1, name: it.erased.title })).toBeVisible()
    await checkPage(page, 'deleted-it', CHECKS)
    // Logged out, and the login no longer works.
    await page.goto('/it-it/my-account')
    await expect(page).toHaveURL(/\/login\?redirect=/)
    await page.locator('#field-email').fill(account.email)
    await page.locator('#field-password').fill(PASSWORD)
    await page.locator('form[action="/login"] button[type="submit"]').click()
    await expect(page.getByText(it.auth.failed)).toBeVisible()
  })

  test('a visitor with a cart picks another country and is told first that the cart stays here', async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(PHONE)
    expect(await addToCart(page.request, baseURL!, 'it-it', 'aurora-strada-9', 'STR9-M-RED')).toBe(true)
    await page.goto('/it-it/products/aurora-strada-9')
    await rejectTracking(page)
    // On a phone the picker sits in the menu.
    const picker = page.locator('details.market-picker')
    await expect(picker).toHaveAttribute('data-hydrated', '')
    await expect(page.locator('.mobile-menu-button')).toHaveAttribute('data-hydrated', '')
    await page.locator('.mobile-menu-button').click()
    await picker.locator('summary').click()
    await picker.getByRole('button', { name: 'Deutschland', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Il Suo carrello resta in Italia' })).toBeVisible()
    await checkPage(page, 'market-switch-it', CHECKS)
    await page.getByRole('button', { name: /Deutschland/ }).click()
    await expect(page).toHaveURL(/\/de-de\/products\/aurora-strada-9$/)
  })

  test('an article shows the bikes it names and the way to a test ride, in Hebrew on a phone and Italian on a desktop', async ({
    page,
  }) => {
    for (const [market, slug, texts, size] of [
      ['il-he', 'ofanei-gravel-aurora-sterrato-gr', hebrew, PHONE],
      ['it-it', 'nuova-gravel-aurora-sterrato-gr', italian, DESKTOP],
    ] as const) {
      await page.setViewportSize(size)
      await page.goto(`/${market}/news/details/${slug}`)
      const block = page.getByRole('region', { name: texts.news.story_bikes })
      await expect(block.getByRole('link', { name: /Aurora Sterrato GR/ }).first()).toHaveAttribute(
        'href',
        `/${market}/products/aurora-sterrato-gr`,
      )
      await expect(
        block.getByRole('link', { name: texts.news.book_test_ride.replace('{{model}}', 'Aurora Sterrato GR') }),
      ).toHaveAttribute('href', /\?model=aurora-sterrato-gr$/)
      await checkPage(page, `article-${market}`, CHECKS)
    }
  })
})
