import { expect, test } from './fixtures/offline'

test('a failed chunk load reloads the page, at most once in 10 seconds', async ({ page }) => {
  let navigations = 0
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++
  })
  await page.route('**/assets/market-picker-*.js', (route) => route.abort())
  await page.goto('/it-it')
  await expect.poll(() => navigations).toBe(2)
  await page.waitForLoadState('load')
  await page.waitForTimeout(1500)
  expect(navigations).toBe(2)
  expect(await page.evaluate(() => sessionStorage.getItem('chunk-reload-at'))).not.toBeNull()
  // The page still works without the island: the picker is a plain form.
  await page.locator('details.market-picker summary').click()
  await page.getByRole('button', { name: 'Deutschland' }).click()
  await expect(page).toHaveURL(/\/de-de$/)
})

test('the market picker hydrates from its own lazy chunk; first-load JavaScript stays small', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await page.goto('/it-it')
  await expect.poll(() => scripts.some((s) => /market-picker-/.test(s))).toBe(true)
  const report = await (await page.request.get('/assets/first-load.json')).json()
  expect(report.gzipBytes).toBeLessThanOrEqual(75 * 1024)
  expect(report.lazy.some((file: string) => file.includes('market-picker-'))).toBe(true)
  await page.goto('/zz-zz')
  expect(scripts.filter((s) => s.includes('entry-')).length).toBe(1)
})
