import { chooseCookies, expect, test } from './fixtures/offline'

test('the size guide link has a line of its own above the size chips at 390 px, in it-it and il-he', async ({
  page,
  baseURL,
}) => {
  await chooseCookies(page.request, baseURL!, 'reject')
  await page.setViewportSize({ width: 390, height: 844 })
  for (const market of ['it-it', 'il-he']) {
    await page.goto(`/${market}/products/aurora-strada-9`)
    const group = page.locator('.size-group:visible').first()
    const link = group.locator('.size-guide-link')
    await expect(link).toBeVisible()
    const boxes = await group.evaluate((fieldset) => {
      const box = (element: Element | null) => element?.getBoundingClientRect().toJSON() as DOMRect
      return {
        link: box(fieldset.querySelector('.size-guide-link')),
        title: box(fieldset.querySelector('legend')),
        chips: [...fieldset.querySelectorAll('.buy-size')].map((chip) => box(chip)),
      }
    })
    // Below the title, above every chip, and at least a thumb's height tall.
    expect(boxes.link.top, market).toBeGreaterThanOrEqual(boxes.title.bottom - 1)
    for (const chip of boxes.chips) expect(boxes.link.bottom, market).toBeLessThanOrEqual(chip.top + 1)
    expect(boxes.link.height, market).toBeGreaterThanOrEqual(44)
  }
})
