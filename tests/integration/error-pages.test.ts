import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import { httpUpstream, UPSTREAM_URL } from '../fixtures/http-upstream'
import { clearCaches, textOf, visit } from '../fixtures/worker'

const UNAVAILABLE = 'This page is temporarily unavailable, please try again in a moment.'
const http = { UPSTREAM_URL, UPSTREAM_TIMEOUT_MS: '300' }

beforeEach(clearCaches)
afterEach(() => vi.unstubAllGlobals())

/** The parts of a market's error page (docs/decisions/056): its header with search, its footer, a way on. */
function expectMarketChrome(html: string, segment: string, messages: typeof italian) {
  expect(html).toMatch(/<header class="site-header"/)
  expect(html).toMatch(/<footer class="site-footer/)
  expect(html).toContain(`action="/${segment}/search/all"`) // the header's search
  expect(html).toMatch(
    new RegExp(`<form role="search" class="error-search" action="/${segment}/search/all" method="get">`),
  )
  expect(html).toContain('<input id="error-q" type="search"')
  expect(html).toContain(`<h2 id="error-way-on-title" class="error-way-on-title">${messages.common.error_way_on}</h2>`)
  expect(html).toContain(`<a class="button" href="/${segment}/products">${messages.header.all_products}</a>`)
  expect(html).toMatch(
    new RegExp(`<a class="button secondary" href="/${segment}[^"]*">${messages.common.return_to_home}</a>`),
  )
  expect(html).not.toContain('<script') // an error page runs nothing (its CSP allows no script)
}

describe('the error pages of a market (docs/decisions/056)', () => {
  it('answers 404 in it-it and il-he inside the market header and footer, in its language and direction, with the exact message and a way on', async () => {
    for (const [segment, messages, lang, dir] of [
      ['it-it', italian, 'it', 'ltr'],
      ['il-he', hebrew, 'he', 'rtl'],
    ] as const) {
      const { status, text, headers } = await visit(`/${segment}/pagina-inesistente`)
      expect(status, segment).toBe(404)
      expect(headers.get('Content-Security-Policy')).toContain("script-src 'none'")
      expect(text).toContain(`<html lang="${lang}" dir="${dir}">`)
      expect(text).toContain(`<h1 class="error-title">${messages.common.not_found_title}</h1>`)
      expect(textOf(text)).toContain(messages.common.page_not_found_homepage)
      expect(text).toContain(
        `<p class="error-message" lang="en" dir="ltr">Page Not Found: /${segment}/pagina-inesistente</p>`,
      )
      expectMarketChrome(text, segment, messages)
    }
  })

  it('answers a switched-off page 404 with the same chrome', async () => {
    const { status, text } = await visit('/it-it/products/no-such-bike')
    expect(status).toBe(404)
    expectMarketChrome(text, 'it-it', italian)
  })

  it('answers 503 "temporarily unavailable" in il-he with its header and footer from the caches when the upstream is down', async () => {
    const upstream = httpUpstream()
    await visit('/il-he', {}, http)
    upstream.fail('', 'refused')
    const { status, text, headers } = await visit('/il-he/products/aurora-strada-9', {}, http)
    expect(status).toBe(503)
    expect(headers.get('Retry-After')).toMatch(/^\d+$/)
    expect(text).toContain('<html lang="he" dir="rtl">')
    expect(text).toContain(`<h1 class="error-title">${hebrew.common.unavailable_title}</h1>`)
    expect(text).toContain(`<p class="error-message" lang="en" dir="ltr">${UNAVAILABLE}</p>`)
    expectMarketChrome(text, 'il-he', hebrew)
  })

  it('answers 503 with the header without its menus, never a 500, when the header data hangs', async () => {
    const upstream = httpUpstream()
    await visit('/it-it', {}, http)
    await clearCaches()
    // The site lookup and the texts answer; the product fails, the header's menus never answer.
    upstream.fail('front/products/', 'refused')
    upstream.fail('front/menu', 'slow')
    upstream.fail('front/product-types', 'slow')
    const warn = vi.spyOn(console, 'warn')
    const { status, text } = await visit(
      '/it-it/products/aurora-strada-9',
      {},
      { ...http, UPSTREAM_TIMEOUT_MS: '5000' },
    )
    expect(status).toBe(503)
    // It did not wait for the menus' own timeout: it gave up on them at its deadline.
    const lines = warn.mock.calls.map(([line]) => String(line))
    expect(lines.some((line) => line.includes('"part":"error_page","error":"deadline"'))).toBe(true)
    expect(text).not.toContain('nav-products')
    expect(text).toContain(`<p class="error-message" lang="en" dir="ltr">${UNAVAILABLE}</p>`)
    expectMarketChrome(text, 'it-it', italian)
  })

  it('keeps the plain dark page outside a market and under maintenance', async () => {
    const outside = await visit('/xx-yy/anything')
    expect(outside.status).toBe(404)
    expect(outside.text).toContain('<body class="error">')
    expect(outside.text).not.toContain('site-header')
    const maintenance = await visit('/nl-nl')
    expect(maintenance.status).toBe(503)
    expect(maintenance.text).toContain('<body class="error">')
    expect(maintenance.text).not.toContain('error-way-on')
  })
})
