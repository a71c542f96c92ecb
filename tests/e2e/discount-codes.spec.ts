import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { addToCart } from './fixtures/cart'
import { rejectTracking } from './fixtures/consent'
import { createAccount, logIn, remember } from './fixtures/customer'
import { expect, test } from './fixtures/offline'
import type { Outbox } from './fixtures/outbox'
import { keepScreenshot } from './fixtures/screenshots'
import { staffMember, withAFreshCode } from './fixtures/staff'

const SCREENSHOTS = 'test-results/screenshots'
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 900 }
type Texts = typeof italian

/** Codes of this run: staff create them in the first test, customers use them in the others. */
const STAMP = Date.now().toString(36).toUpperCase()
const CODES = { it: `E2E-IT-${STAMP}`, il: `E2E-IL-${STAMP}`, gone: `E2E-OFF-${STAMP}` }

let clients = 0
test.beforeEach(async ({ page }, info) => {
  await page.setExtraHTTPHeaders({ 'CF-Connecting-IP': `203.0.113.${((clients++ + 60 + info.retry * 50) % 250) + 1}` })
})

async function axeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Signs the demo editor in on the console's sign-in page with a code not used yet (fixtures/staff.ts). */
async function signInAsEditor(page: Page) {
  const editor = staffMember('editor')
  await page.goto('/_console/login')
  await withAFreshCode(editor.totp_secret, async (code) => {
    await page.locator('#email').fill(editor.email)
    await page.locator('#password').fill(editor.password)
    await page.locator('#code').fill(code)
    const [answer] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/_console/login',
      ),
      page.locator('form.sign-in button[type="submit"]').click(),
    ])
    return answer.status() === 303
  })
  await expect(page.locator('.console-who')).toContainText(editor.name)
}

/** Fills the console's new-code form and sends it; the list then says the code was created. */
async function createCode(
  page: Page,
  code: { market: string; code: string; kind: 'percentage' | 'amount'; value: string },
) {
  await page.locator('#field-new-market').selectOption(code.market)
  await page.locator('#field-code').fill(code.code)
  await page.locator(`input[name="kind"][value="${code.kind}"]`).check()
  await page.locator('#field-value').fill(code.value)
  await page.getByRole('button', { name: 'Create the code' }).click()
  await expect(page.locator('.flash-ok')).toContainText(`Code ${code.code} created.`)
}

/**
 * A new customer's cart in `market` (the account made by request) with one pump in it, opened at phone width: a wrong code, then the
 * right one, each sent from the cart's own form; the discount line then on the cart and on the checkout's review.
 */
async function wrongThenRight(page: Page, baseURL: string, outbox: Outbox, market: string, t: Texts, code: string) {
  await page.setViewportSize(PHONE)
  const account = {
    email: `e2e-discount-${market}-${Date.now()}@example.com`,
    password: 'Gravel-Roads-2027',
    first_name: market === 'il-he' ? 'נועה' : 'Chiara',
    last_name: market === 'il-he' ? 'לוי' : 'Bianchi',
  }
  await remember(page.context(), market, baseURL)
  await createAccount(page.request, baseURL, outbox, account)
  await logIn(page.request, baseURL, account, `/${market}/cart`)
  expect(await addToCart(page.request, baseURL, market, 'aurora-pompa-mini', 'POMP-OS-GRY')).toBe(true)
  await page.goto(`/${market}/cart`)
  await rejectTracking(page)

  await page.locator('#discount-code').fill('NO-SUCH-CODE')
  await page.getByRole('button', { name: t.cart.discount_apply }).click()
  await expect(page).toHaveURL(`/${market}/cart?discount=discount_unknown`)
  await expect(page.locator('#discount-code')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('#discount-code-error')).toHaveText(t.cart.discount_error.unknown)
  expect(await axeViolations(page), `${market} cart, code refused`).toEqual([])
  await keepScreenshot(page, `${SCREENSHOTS}/discount-${market}-refused-390.png`, { fullPage: true })

  await page.locator('#discount-code').fill(code.toLowerCase())
  await page.getByRole('button', { name: t.cart.discount_apply }).click()
  await expect(page.locator('.toast')).toHaveText(t.cart.discount_applied)
  // The toast fades after a second (client.spec.ts): axe looks at the page once it has gone.
  await expect(page.locator('.toast')).toBeHidden({ timeout: 2_500 })
  const line = page.locator('.cart-summary .discount-line')
  await expect(line.locator('dt')).toHaveText(t.cart.discount_line.replace('{{code}}', code))
  await expect(line.locator('dd')).toContainText('−')
  const off = (await line.locator('dd').textContent()) ?? ''
  expect(await axeViolations(page), `${market} cart, code applied`).toEqual([])
  await keepScreenshot(page, `${SCREENSHOTS}/discount-${market}-applied-390.png`, { fullPage: true })

  // To the review: pick-up at the first dealer, billed to a new address, by card.
  await page.locator('a.cart-checkout').click()
  await page.locator('label[for="delivery-pickup"]').click()
  await page.locator('.checkout-dealers .checkout-option').first().click()
  await page.locator('#field-bill_first_name').fill(account.first_name)
  await page.locator('#field-bill_last_name').fill(account.last_name)
  await page.locator('#field-bill_line1').fill(market === 'il-he' ? 'רחוב דיזנגוף 50' : 'Via Tasso 8')
  await page.locator('#field-bill_postal_code').fill(market === 'il-he' ? '6433222' : '24121')
  await page.locator('#field-bill_city').fill(market === 'il-he' ? 'Tel Aviv-Yafo' : 'Bergamo')
  await page.locator('#field-bill_phone').fill(market === 'il-he' ? '+972 3 555 0199' : '+39 035 555 0199')
  await page.locator('label[for="payment-card"]').click()
  await page.getByRole('button', { name: t.checkout.continue }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.checkout.review_title)
  const reviewed = page.locator('.checkout-summary .discount-line')
  await expect(reviewed.locator('dt')).toHaveText(t.cart.discount_line.replace('{{code}}', code))
  await expect(reviewed.locator('dd')).toHaveText(off)
  await keepScreenshot(page, `${SCREENSHOTS}/discount-${market}-review-390.png`, { fullPage: true })
}

test.describe('discount codes', () => {
  test.describe.configure({ mode: 'serial' })

  test('staff create codes and disable one in the console at 1280 px', async ({ page }) => {
    await page.setViewportSize(DESKTOP)
    await signInAsEditor(page)
    await page.getByRole('link', { name: 'Discount codes' }).first().click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Discount codes')
    await createCode(page, { market: 'it', code: CODES.it, kind: 'percentage', value: '10' })
    await createCode(page, { market: 'il', code: CODES.il, kind: 'amount', value: '25.00' })
    await createCode(page, { market: 'it', code: CODES.gone, kind: 'percentage', value: '50' })
    const row = page.locator('tr').filter({ hasText: CODES.gone })
    await expect(row.locator('.badge')).toHaveText('Active')
    await expect(page.locator('tr').filter({ hasText: CODES.il })).toContainText('25.00 ILS')
    await row.getByRole('button', { name: `Disable ${CODES.gone}` }).click()
    await expect(page.locator('.flash-ok')).toContainText(`Code ${CODES.gone} disabled`)
    await expect(page.locator('tr').filter({ hasText: CODES.gone }).locator('.badge')).toHaveText('Disabled')
    expect(await axeViolations(page), 'console discount codes').toEqual([])
    await keepScreenshot(page, `${SCREENSHOTS}/console-discount-codes-1280.png`, { fullPage: true })
  })

  test('it-it at 390 px: a code wrong then right in the cart, the discount on the review', async ({
    page,
    baseURL,
    outbox,
  }) => {
    await wrongThenRight(page, baseURL!, outbox, 'it-it', italian, CODES.it)
  })

  test('il-he at 390 px, right to left: a code wrong then right in the cart, the discount on the review', async ({
    page,
    baseURL,
    outbox,
  }) => {
    await wrongThenRight(page, baseURL!, outbox, 'il-he', hebrew, CODES.il)
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  })

  test('a disabled code is refused in the cart', async ({ page, baseURL }) => {
    await page.setViewportSize(PHONE)
    expect(await addToCart(page.request, baseURL!, 'it-it', 'aurora-pompa-mini', 'POMP-OS-GRY')).toBe(true)
    await page.goto('/it-it/cart')
    await rejectTracking(page)
    await page.locator('#discount-code').fill(CODES.gone)
    await page.getByRole('button', { name: italian.cart.discount_apply }).click()
    await expect(page.locator('#discount-code-error')).toHaveText(italian.cart.discount_error.unknown)
  })
})
