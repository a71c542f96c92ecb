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
    expect(painted.family, market).toMatch(/^"Inter Variable", "Inter Fallback", "Noto Sans Hebrew Variable"/)
    expect(painted.loaded, `${market}: ${face} loaded`).toBe(true)
    expect(painted.available, market).toBe(true)
  }
  expect(problems).toEqual([])
})
