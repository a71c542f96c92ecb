import { chooseCookies, expect, test } from './fixtures/offline'

const T0 = Date.parse('2026-05-04T10:00:00Z')

test('a failed chunk load reloads the page; not again within 10 s, again after 10 s', async ({ page }) => {
  // Each reload the page asks for, counted as it asks (the Navigation API's event comes with location.reload()).
  await page.addInitScript(() => {
    ;(window as unknown as { navigation?: EventTarget }).navigation?.addEventListener('navigate', (event) => {
      if ((event as Event & { navigationType: string }).navigationType === 'reload') {
        sessionStorage.setItem('reloads-asked', String(Number(sessionStorage.getItem('reloads-asked') ?? 0) + 1))
      }
    })
  })
  let documents = 0
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) documents++
  })
  const refused: string[] = []
  await page.route('**/assets/listing-updates-*.js', (route) => {
    refused.push(route.request().url())
    return route.abort()
  })

  /**
   * Once the page's own import of the refused chunk has failed (the same import, asked again here, fails after it),
   * what the reload guard did: how many reloads were asked for, and when the last one was.
   */
  async function afterTheFailure(expectedDocuments: number) {
    await expect.poll(() => documents).toBe(expectedDocuments)
    await expect.poll(() => refused.length).toBeGreaterThanOrEqual(expectedDocuments)
    await page.waitForLoadState('load')
    const chunk = refused.at(-1)!
    const read = () =>
      page.evaluate(async (url) => {
        await import(url).catch(() => null)
        await new Promise((resolve) => {
          const channel = new MessageChannel()
          channel.port1.onmessage = resolve
          channel.port2.postMessage(null)
        })
        return {
          asked: Number(sessionStorage.getItem('reloads-asked') ?? 0),
          at: Number(sessionStorage.getItem('chunk-reload-at')),
        }
      }, chunk)
    const state = await read()
    expect(documents, 'no document but those counted').toBe(expectedDocuments)
    return state
  }

  // The first failure reloads; the reloaded page fails too, at the same moment, and stays as it is.
  await page.clock.setFixedTime(T0)
  await page.goto('/it-it/products')
  expect(await afterTheFailure(2)).toEqual({ asked: 1, at: T0 })

  // 9.999 s later another page's chunk fails: within the guard's 10 s, no reload.
  await page.clock.setFixedTime(T0 + 9_999)
  await page.goto('/it-it/products')
  expect(await afterTheFailure(3)).toEqual({ asked: 1, at: T0 })

  // Past 10 s it reloads again, once.
  await page.clock.setFixedTime(T0 + 10_001)
  await page.goto('/it-it/products')
  expect(await afterTheFailure(5)).toEqual({ asked: 2, at: T0 + 10_001 })

  // The page still works without the island: the filters are a plain form, and so is the picker.
  await page.locator('details.market-picker summary').click()
  await page.getByRole('button', { name: 'Deutschland' }).click()
  await expect(page).toHaveURL(/\/de-de\/products$/)
})

for (const [market, width] of [
  ['it-it', 1366],
  ['il-he', 390],
] as const) {
  test(`a toast on ${market} at ${width} px: dark, at the bottom centre, gone after a second`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    // A choice made as the banner's form makes it: its redirect carries the notice in a one-time cookie.
    await chooseCookies(page.request, baseURL as string, 'reject', { keepNotice: true })
    await page.goto(`/${market}`)
    const toast = page.locator('.toast')
    await expect(toast).toBeAttached()
    /** The toast held at `ms` of its own timeline (paused there): what it looks like then, and its delay. */
    const at = (ms: number) =>
      toast.evaluate((element, time) => {
        const [animation] = element.getAnimations()
        animation!.pause()
        animation!.currentTime = time
        const style = getComputedStyle(element)
        return {
          visibility: style.visibility,
          opacity: Number(style.opacity),
          delay: animation!.effect!.getTiming().delay,
        }
      }, ms)

    // Its look, held at half a second (a loaded machine may take longer than its second to hand the page over).
    await at(500)
    await expect(toast).toBeVisible()
    const look = await toast.evaluate((element) => {
      const style = getComputedStyle(element)
      const box = element.getBoundingClientRect()
      return {
        background: style.backgroundColor,
        colour: style.color,
        left: box.left,
        right: box.right,
        bottom: box.bottom,
      }
    })
    // Dark: a background of low luminance under light text.
    expect(luminance(look.background)).toBeLessThan(0.05)
    expect(luminance(look.colour)).toBeGreaterThan(0.7)
    // Bottom centre of the viewport, whatever the writing direction.
    expect(Math.abs((look.left + look.right) / 2 - width / 2)).toBeLessThanOrEqual(1)
    expect(800 - look.bottom).toBeGreaterThan(0)
    expect(800 - look.bottom).toBeLessThanOrEqual(32)

    // On its own timeline, shown for the whole first second: visible at 0.99 s, hidden from 1.3 s…
    expect(await at(990)).toEqual({ visibility: 'visible', opacity: 1, delay: 1000 })
    expect(await at(1_300)).toMatchObject({ visibility: 'hidden', opacity: 0 })
    // …and gone by itself when let run from the start: hidden, not only transparent.
    await toast.evaluate((element) => {
      const [animation] = element.getAnimations()
      animation!.currentTime = 0
      animation!.play()
    })
    await expect(toast).toBeHidden()
  })
}

/** The relative luminance (WCAG) of a computed `rgb()` colour. */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
    const channel = Number(part) / 255
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

test("each page loads only its islands' JavaScript, and its full stylesheet applies after its first paint", async ({
  page,
}) => {
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  const loaded = async (path: string) => {
    scripts.length = 0
    await page.goto(path)
    // The header's script has run, and the stylesheet loaded without blocking has been swapped in.
    await expect(page.locator('.site-header')).toHaveAttribute('data-hydrated', '')
    await expect(page.locator('link[data-swap]').first()).toHaveAttribute('media', 'all')
    expect(
      await page.evaluate(() => [...document.styleSheets].some((sheet) => /\/styles-/.test(sheet.href ?? ''))),
    ).toBe(true)
    return scripts
  }
  // A page without islands: the entry only, no React.
  expect((await loaded('/it-it')).filter((s) => /hydrate-|add-to-cart-|listing-updates-/.test(s))).toEqual([])
  // The listing's filters are a plain island: their chunk, still no React.
  const listing = await loaded('/it-it/products')
  await expect(page.locator('#listing-form')).toHaveAttribute('data-hydrated', '')
  expect(listing.some((s) => s.includes('listing-updates-'))).toBe(true)
  expect(listing.some((s) => s.includes('hydrate-'))).toBe(false)
  // The product page's buy box needs the runtime.
  const product = await loaded('/it-it/products/aurora-strada-9')
  expect(product.some((s) => s.includes('hydrate-')) && product.some((s) => s.includes('add-to-cart-'))).toBe(true)
  const report = await (await page.request.get('/assets/first-load.json')).json()
  expect(report.entryBytes).toBeLessThanOrEqual(4 * 1024)
  // The runtime is Preact (docs/decisions/078): React's 60 KiB would break this.
  expect(report.gzipBytes).toBeLessThanOrEqual(12 * 1024)
  // An error page runs no script at all.
  scripts.length = 0
  await page.goto('/zz-zz')
  expect(scripts).toEqual([])
})
