import { chooseCookies, expect, test } from './fixtures/offline'

/** Each market's first-painting face (docs/decisions/056) and a word of its script. */
const MARKETS = [
  { market: 'it-it', face: 'Inter Variable', sample: 'Bici' },
  { market: 'il-he', face: 'Noto Sans Hebrew Variable', sample: 'אופניים' },
] as const

test('the body is set in the brand typeface once loaded, in it-it and il-he, with no CSP error', async ({
  page,
  baseURL,
}) => {
  await chooseCookies(page.request, baseURL!, 'reject')
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  for (const { market, face, sample } of MARKETS) {
    await page.goto(`/${market}`)
    await page.evaluate(() => document.fonts.ready)
    const painted = await page.evaluate(
      ([face, sample]) => ({
        family: getComputedStyle(document.body).fontFamily,
        loaded: [...document.fonts].some((font) => font.family.replace(/"/g, '') === face && font.status === 'loaded'),
        available: document.fonts.check(`16px "${face}"`, sample),
      }),
      [face, sample] as const,
    )
    expect(painted.family, market).toMatch(
      /^"Inter Variable", "Inter Fallback", "Inter Fallback DejaVu", "Noto Sans Hebrew Variable"/,
    )
    expect(painted.loaded, `${market}: ${face} loaded`).toBe(true)
    expect(painted.available, market).toBe(true)
  }
  expect(problems).toEqual([])
})

test('the fallback a page paints in before the brand face arrives takes the same lines: the swap moves nothing', async ({
  page,
}) => {
  // No choice made: the consent banner's text is above the page, on a phone the likeliest text to be rewrapped.
  await page.setViewportSize({ width: 412, height: 823 })
  for (const path of ['/it-it/dealers/ruota-capitolina', '/it-it/products/aurora-strada-9', '/il-he', '/ae-ar']) {
    await page.goto(path)
    await page.evaluate(() => document.fonts.ready)
    const { brand, fallback } = await page.evaluate(async () => {
      const main = document.querySelector('main')
      const at = () => Math.round(main?.getBoundingClientRect().top ?? Number.NaN)
      const brand = at()
      // The page's own family without its brand faces: what it paints in until they arrive.
      const stack = getComputedStyle(document.documentElement).getPropertyValue('--font-brand')
      const fallbacks = stack
        .split(',')
        .filter((family) => !family.includes('Variable'))
        .join(',')
      document.documentElement.style.setProperty('--font-brand', fallbacks)
      await document.fonts.ready
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      return { brand, fallback: at() }
    })
    expect(fallback, `${path}: where the main content starts in the fallback`).toBe(brand)
  }
})
