import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type HttpUpstream, httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, textOf, visit } from '../fixtures/worker'

const http = { UPSTREAM_URL }

let upstream: HttpUpstream
let warnings: string[]
beforeEach(async () => {
  upstream = httpUpstream()
  await clearCaches()
  warnings = []
  vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warnings.push(String(line)))
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

/** The parsed warnings of an event. */
const logged = (event: string) =>
  warnings.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === event)

describe('silent fallbacks log', () => {
  it("renders a market in the Worker's English when its texts cannot be loaded, and says so in the log", async () => {
    upstream.fail('country-wise-locale-content', 503)
    const { status, text } = await visit('/it-it', {}, http)
    expect(status).toBe(200)
    expect(textOf(text)).toContain('Skip to content')
    expect(logged('translations_unavailable')).toEqual([expect.objectContaining({ market: 'it-it' })])
  })

  it('shows less in the header when its data fails, never fails the page, and logs which part', async () => {
    upstream.fail('front/menu/products', 503)
    upstream.fail('front/product-types', 'garbage')
    const { status, text } = await visit('/it-it/chi-siamo', {}, http)
    expect(status).toBe(200)
    expect(text).not.toContain('class="product-menu"')
    expect(
      logged('header_data_unavailable')
        .map((line) => line.part)
        .sort(),
    ).toEqual(['product_menu', 'product_types'])
  })
})

describe('error pages', () => {
  it('explain a refused request as one, not as a page that could not be found', async () => {
    const { status, text } = await visit('/login', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Sec-Fetch-Site': 'cross-site',
        Origin: 'https://evil.example',
      },
      body: 'email=a@b.c',
    })
    expect(status).toBe(403)
    expect(textOf(text)).toContain('We could not complete this request.')
    expect(textOf(text)).not.toContain('could not find the page')
    const missing = await visit('/it-it/no-such-page')
    expect(textOf(missing.text)).toContain('non abbiamo trovato la pagina')
  })
})
