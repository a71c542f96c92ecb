import type { Page } from '@playwright/test'
import { logIn } from './fixtures/customer'
import { chooseCookies, expect, problemsOf, recordProblems, test } from './fixtures/offline'

/** Opens a page twice (the first visit fills the page cache) and answers the second answer's policy. */
async function fromTheCache(page: Page, path: string): Promise<string> {
  await page.goto(path)
  const response = await page.goto(path)
  return response?.headers()['content-security-policy'] ?? ''
}

/**
 * Answers the page once more from the page cache with an inline script and an external one slipped into its markup
 * on the way (as a markup injection would: the cached answer's own headers and policy kept), and tells whether either
 * ran and what the browser refused.
 */
async function withInjectedScripts(page: Page, path: string) {
  await page.route(`**${path}`, async (route) => {
    const response = await route.fetch()
    const html = (await response.text()).replace(
      '</body>',
      '<script>window.injected = true</script><script src="/assets/injected.js"></script></body>',
    )
    await route.fulfill({ response, body: html })
  })
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) refused.push(message.text())
  })
  await page.goto(path)
  await expect(page.locator('header[data-hydrated], .site-header[data-hydrated]').first()).toBeAttached()
  await page.unroute(`**${path}`)
  return { ran: await page.evaluate(() => 'injected' in window), refused }
}

for (const [market, width] of [
  ['it-it', 1366],
  ['il-he', 390],
] as const) {
  test.describe(`a page from the page cache in ${market} at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } })
    test.beforeEach(({ page }) => recordProblems(page))

    test("has no nonce, runs its own scripts (the tag manager's inline snippet by its hash) and refuses an injected one", async ({
      page,
      baseURL,
    }) => {
      await chooseCookies(page.request, baseURL as string, 'accept')
      const policy = await fromTheCache(page, `/${market}/products`)
      expect(policy).not.toContain('nonce')
      expect(policy).not.toContain('unsafe-inline')
      expect(policy).toMatch(/script-src 'self' ('sha256-[^']+' )+'strict-dynamic'/)
      // The entry ran (the header is hydrated) and so did the inline snippet allowed by its hash (Consent Mode first).
      await expect(page.locator('header[data-hydrated]')).toBeAttached()
      expect(await page.evaluate(() => Array.isArray((window as { dataLayer?: unknown }).dataLayer))).toBe(true)
      // Nothing of the page's own was refused: its modules, their preloads, the islands' chunks.
      expect(problemsOf(page)).toEqual([])
      const injected = await withInjectedScripts(page, `/${market}/products`)
      expect(injected.ran).toBe(false)
      expect(injected.refused.some((text) => /inline script/i.test(text))).toBe(true)
      expect(injected.refused.some((text) => /injected\.js/.test(text))).toBe(true)
    })

    test('shows a logged-in visitor their own account menu on a cached page', async ({ page, baseURL }) => {
      await page.goto(`/${market}/products`)
      await logIn(page.request, baseURL!, undefined, `/${market}/my-account`)
      await page.goto(`/${market}/my-account`)
      await expect(page).toHaveURL(new RegExp(`/${market}/my-account$`))
      await page.goto(`/${market}/products`)
      const menu = page.locator('details.account-menu')
      await expect(menu).toBeAttached()
      await expect(page.locator('[data-account]')).toHaveCount(0)
      await menu.locator('summary').click()
      await expect(menu.locator('.account-panel-name')).toContainText('Giulia')
      await expect(menu.locator(`a[href="/${market}/my-account"]`)).toBeVisible()
    })
  })
}
