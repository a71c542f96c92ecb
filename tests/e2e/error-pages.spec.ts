import hebrew from '../../demo/messages/he.json' with { type: 'json' }
import italian from '../../demo/messages/it.json' with { type: 'json' }
import { checkPage } from './fixtures/page-checks'
import { expect, test } from './fixtures/offline'

test("a page that does not exist, in it-it and il-he at 390 and 1366 px: the market's header and footer, the exact message, a search that leads on", async ({
  page,
}) => {
  for (const [market, messages, dir] of [
    ['it-it', italian, 'ltr'],
    ['il-he', hebrew, 'rtl'],
  ] as const) {
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 })
      const answer = await page.goto(`/${market}/no-such-page-here`)
      expect(answer?.status()).toBe(404)
      await expect(page.locator('html')).toHaveAttribute('dir', dir)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(messages.common.not_found_title)
      await expect(page.getByText(`Page Not Found: /${market}/no-such-page-here`, { exact: true })).toBeVisible()
      await expect(page.locator('header.site-header')).toBeVisible()
      await expect(page.locator('footer.site-footer')).toBeVisible()
      await expect(page.getByRole('link', { name: messages.header.all_products })).toHaveAttribute(
        'href',
        `/${market}/products`,
      )
      await checkPage(page, `${market}`, { prefix: 'error-page' })
    }
    // The way on: a search of the market from the page itself.
    await page.getByRole('searchbox', { name: messages.header.search_label }).last().fill('Strada')
    await page.getByRole('button', { name: messages.search.submit, exact: true }).last().click()
    await expect(page).toHaveURL(new RegExp(`/${market}/search/all\\?q=Strada$`))
    expect((await page.request.get(page.url())).status()).toBe(200)
  }
})
