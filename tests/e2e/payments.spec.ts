import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { tool } from '../../scripts/local.mjs'
import { expect, problemsOf, recordProblems, test } from './fixtures/offline'

/**
 * The embedded test provider's page in Chromium. Checkout (which will create payments) comes later, so the order and
 * its payment are written into the e2e server's local D1 (`.wrangler/e2e-state`, playwright.config.ts) with
 * `wrangler d1 execute`, as placement and `createPayment` will write them; no test-only path exists in the Worker.
 */
const PERSIST = ['--local', '--persist-to', '.wrangler/e2e-state']
const SCREENSHOTS = 'test-results/screenshots'

function d1(sql: string): Array<Record<string, unknown>> {
  const out = execFileSync(...tool('wrangler', ['d1', 'execute', 'DB', ...PERSIST, '--json', '--command', sql]), {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const results = JSON.parse(out) as Array<{ results: Array<Record<string, unknown>> }>
  return results.flatMap((result) => result.results)
}

/** An order of the demo customer waiting for its payment, and the test provider's pending payment of it. */
function orderWithPayment(baseURL: string, total = 174900): { code: string; paymentId: string } {
  const code = `AUR-E2E-${randomBytes(3).toString('hex').toUpperCase()}`
  const paymentId = `tp_${randomBytes(12).toString('hex')}`
  d1(
    `INSERT INTO orders (code, user_id, market, status, currency, subtotal, total, billing_address, delivery_method, payment_method, payment_state, placed_at)
       VALUES ('${code}', 1, 'it-it', 'pending_payment', 'EUR', ${total}, ${total}, '{}', 'pickup', 'card', 'pending', '2026-11-23T09:00:00Z');
     INSERT INTO payments (id, order_code, amount, currency, market, description, return_url, idempotency_key)
       VALUES ('${paymentId}', '${code}', ${total}, 'EUR', 'it-it', 'Aurora Cycles order ${code}', '${baseURL}/it-it', '${randomBytes(24).toString('base64url')}');`,
  )
  return { code, paymentId }
}

const orderOf = (code: string) => d1(`SELECT status, payment_state FROM orders WHERE code = '${code}'`)[0]
const paymentOf = (id: string) => d1(`SELECT state FROM payments WHERE id = '${id}'`)[0]

async function checkPage(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page }).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), name).toEqual([])
  const outside = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => !element.closest('.skip'))
      .map((element) => element.getBoundingClientRect())
      .filter((box) => box.width > 0 && (box.left < -1 || box.right > document.documentElement.clientWidth + 1)).length,
  )
  expect(outside, `${name}: elements outside the page`).toBe(0)
  await page.screenshot({ path: `${SCREENSHOTS}/test-payment-${name}-${page.viewportSize()?.width}.png`, fullPage: true })
}

test.beforeEach(({ page }) => {
  // Each `wrangler d1 execute` starts a local runtime of its own: a few seconds apiece on this machine.
  test.setTimeout(120_000)
  recordProblems(page)
})

test('the test payment page says no money moves, passes axe at 390 and 1280 px, and paying settles the order by its webhook', async ({ page, baseURL }) => {
  const { code, paymentId } = orderWithPayment(baseURL as string)
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    const answer = await page.goto(`/_test-payments/${paymentId}`)
    expect(answer?.status()).toBe(200)
    await expect(page.getByText('TEST PAYMENT — no money moves.')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pay €1,749.00 to Aurora Cycles')
    await checkPage(page, 'pending')
  }
  await page.getByRole('button', { name: 'Succeed: pay €1,749.00' }).click()
  await expect(page).toHaveURL(`${baseURL}/it-it`)
  expect(paymentOf(paymentId)).toEqual({ state: 'paid' })
  expect(orderOf(code)).toEqual({ status: 'paid', payment_state: 'paid' })
  // The page now says what happened, and offers only the way back.
  await page.goto(`/_test-payments/${paymentId}`)
  await expect(page.getByText('paid', { exact: true })).toBeVisible()
  await expect(page.getByRole('button')).toHaveCount(0)
  await checkPage(page, 'paid')
  expect(problemsOf(page)).toEqual([])
})

test('a payment left pending is settled later from the same page (failed): the order waits for another payment', async ({ page, baseURL }) => {
  const { code, paymentId } = orderWithPayment(baseURL as string, 249000)
  await page.goto(`/_test-payments/${paymentId}`)
  await page.getByRole('button', { name: 'Leave it pending' }).click()
  await expect(page).toHaveURL(`${baseURL}/it-it`)
  expect(orderOf(code)).toEqual({ status: 'pending_payment', payment_state: 'pending' })
  await page.goto(`/_test-payments/${paymentId}`)
  await expect(page.getByText('This payment was left pending. Settle it now')).toBeVisible()
  await page.getByRole('button', { name: 'Fail the payment' }).click()
  await expect(page).toHaveURL(`${baseURL}/it-it`)
  expect(paymentOf(paymentId)).toEqual({ state: 'failed' })
  expect(orderOf(code)).toEqual({ status: 'pending_payment', payment_state: 'failed' })
  expect(problemsOf(page)).toEqual([])
})
