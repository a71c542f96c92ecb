import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { slugOf } from '../fixtures/page-slugs'
import { queryLocalD1 } from './fixtures/local-d1'
import { expect, test } from './fixtures/offline'
import { keepScreenshot } from './fixtures/screenshots'
import arabic from '../../demo/messages/ar.json' with { type: 'json' }
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import pages from '../../demo/content/pages.json' with { type: 'json' }

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }
const SCREENSHOTS = 'test-results/screenshots'

type Texts = typeof italian

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/**
 * Nothing of the page sticks out of the viewport or is cut: no horizontal scroll, every visible box of the main content
 * and the footer inside the viewport's width, no text box narrower than its text where it would be clipped.
 */
async function fitsTheViewport(page: Page, name: string) {
  const measured = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const outside: string[] = []
    const clipped: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>('main *, footer *')) {
      if (el.closest('.honeypot, .visually-hidden, svg')) continue
      const box = el.getBoundingClientRect()
      if (box.width === 0 && box.height === 0) continue
      const label = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`
      if (box.left < -1 || box.right > width + 1) outside.push(label)
      if (
        getComputedStyle(el).overflowX !== 'visible' &&
        el.scrollWidth > el.clientWidth + 1 &&
        !['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)
      )
        clipped.push(label)
    }
    return {
      overflow: document.documentElement.scrollWidth - width,
      outside: outside.slice(0, 5),
      clipped: clipped.slice(0, 5),
    }
  })
  expect(measured, name).toEqual({ overflow: 0, outside: [], clipped: [] })
}

/**
 * Checks a page with axe and its fit, and keeps its screenshot. `axe: false` where the page, at this width and in this
 * direction, is axed elsewhere already: a page kind of page-kinds.spec.ts (the legal pages, the newsletter's form), or
 * a state another test here axes (right to left at phone width: ae-ar's).
 */
async function check(page: Page, name: string, { axe = true } = {}) {
  if (axe) expect(await axeViolations(page), name).toEqual([])
  await fitsTheViewport(page, name)
  await keepScreenshot(page, `${SCREENSHOTS}/trust-${name}.png`, { fullPage: true })
}

/** Answers the consent banner (it sits over the page until the visitor chooses). */
async function rejectTracking(page: Page, t: Texts) {
  const reject = page.getByRole('button', { name: t.consent.reject_all })
  if (await reject.isVisible()) await reject.click()
}

test.describe('the newsletter sign-up', () => {
  for (const [market, t, viewport, size, axe] of [
    ['it-it', italian, PHONE, 'phone', true],
    ['ae-ar', arabic as unknown as Texts, PHONE, 'phone', true],
    ['it-it', italian, DESKTOP, 'desktop', true],
    ['il-he', hebrew as unknown as Texts, PHONE, 'phone', false],
    ['il-he', hebrew as unknown as Texts, DESKTOP, 'desktop', true],
  ] as const) {
    test(`from the footer in ${market} (${size}): once wrong then right, confirmed from the outbox's mail`, async ({
      page,
      outbox,
    }) => {
      await page.setViewportSize(viewport)
      await page.goto(`/${market}`)
      await rejectTracking(page, t)
      const email = `e2e-newsletter-${market}-${size}-${Date.now()}@example.com`

      // Wrong: the address mistyped. The form comes back on its own page with the message, the address kept.
      const footer = page.locator('footer form.newsletter-form')
      await footer.getByRole('textbox', { name: t.auth.email }).fill('rider-at-example.com')
      await footer.getByLabel(t.newsletter.consent).check()
      await footer.getByRole('button', { name: t.newsletter.submit }).click()
      await expect(page).toHaveURL(`/${market}/newsletter`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.title)
      const form = page.locator('main form.newsletter-form')
      await expect(form.getByRole('textbox', { name: t.auth.email })).toHaveAttribute('aria-invalid', 'true')
      await expect(form.getByRole('textbox', { name: t.auth.email })).toHaveValue('rider-at-example.com')
      await expect(page.locator('#newsletter-page-email-error')).toHaveText(t.validation.email)
      await expect(page.locator('footer form')).toHaveCount(0)
      await check(page, `${market}-${size}-form-errors`, { axe })

      // Right.
      await form.getByRole('textbox', { name: t.auth.email }).fill(email)
      await form.getByRole('button', { name: t.newsletter.submit }).click()
      await expect(page).toHaveURL(`/${market}/newsletter/sent`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.sent_title)
      await check(page, `${market}-${size}-sent`, { axe })

      // The mail, in the market's language, and its link: the page shows a button and subscribes nobody by itself.
      const mail = await outbox.linkMailedTo(email, 'newsletter_confirmation', /\/newsletter\/confirm\/[A-Za-z0-9_-]+/)
      expect(mail.subject).toBe(t.mail.newsletter_confirm_subject)
      await page.goto(mail.link)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.confirm_title)
      await expect(page.locator('main bdi')).toHaveText(email)
      await check(page, `${market}-${size}-confirm`, { axe })

      // Subscribed by the button, in the market and its language: nothing over HTTP tells who is subscribed (the
      // site answers alike whether or not an address is), so the table is read, once. Its row dates from the press
      // of the button, not from the page's visit before it (D1's clock is this machine's).
      const pressed = new Date().toISOString()
      await page.getByRole('button', { name: t.newsletter.confirm_submit }).click()
      await expect(page).toHaveURL(`/${market}/newsletter/confirmed`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.confirmed_title)
      await check(page, `${market}-${size}-confirmed`, { axe })
      expect(
        await queryLocalD1(
          `SELECT site, locale, confirmed_at >= '${pressed}' AS after_the_button FROM newsletter_subscribers WHERE email = '${email}'`,
        ),
      ).toEqual([{ site: market.split('-')[0], locale: market.split('-')[1], after_the_button: 1 }])

      // The link is spent.
      await page.goto(mail.link)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.invalid_title)
      await check(page, `${market}-${size}-spent`, { axe })
    })
  }
})

/** The footer's "Legal" column, in its order. */
const LEGAL = [
  'legal-notice',
  'terms-of-sale',
  'delivery-returns',
  'warranty',
  'privacy-policy',
  'cookie-policy',
] as const

test.describe('the trust and legal pages', () => {
  for (const [market, t] of [
    ['it-it', italian],
    ['il-he', hebrew as unknown as Texts],
  ] as const) {
    for (const [viewport, size] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      // Axe on these pages in their plain state, at both widths and in both directions: page-kinds.spec.ts.
      test(`${market} (${size}): every legal page from the footer, nothing outside the viewport, the unknown link axe clean`, async ({
        page,
      }) => {
        await page.setViewportSize(viewport)
        await page.goto(`/${market}`)
        await rejectTracking(page, t)
        const locale = market.split('-')[1] as 'it' | 'he'
        for (const key of LEGAL) {
          await page.goto(`/${market}`)
          await page.locator('footer').getByRole('link', { name: t.pages[key], exact: true }).click()
          await expect(page).toHaveURL(`/${market}/${slugOf(market, key)}`)
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(pages[key][locale].title)
          await check(page, `${market}-${size}-${key}`, { axe: false })
        }
        // The sign-up's own page and an unknown link.
        await page.goto(`/${market}/newsletter`)
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.title)
        await check(page, `${market}-${size}-newsletter`, { axe: false })
        await page.goto(`/${market}/newsletter/confirm/${'A'.repeat(43)}`)
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.newsletter.invalid_title)
        await check(page, `${market}-${size}-newsletter-invalid`)
      })
    }
  }
})
