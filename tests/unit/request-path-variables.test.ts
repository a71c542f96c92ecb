import { describe, expect, it } from 'vitest'
import { sources } from '../fixtures/sources'

/**
 * The files every uncached page runs through: the middleware, the market's resolution, the page cache, the render and
 * what it writes for every page (tracking, the home's alternates, the footer's form token).
 */
const EVERY_PAGE = [
  'src/request-context.ts',
  'src/market/resolve-market.ts',
  'src/market/request-availability.ts',
  'src/page-cache/page-cache.ts',
  'src/page-cache/cacheable.ts',
  'src/page-cache/render-request.ts',
  'src/render/respond.ts',
  'src/tracking/page-tracking.ts',
  'src/seo/alternates.ts',
  'src/forms/newsletter-token.ts',
]

describe("the request's variables on every page's path (docs/decisions/073)", () => {
  it('are read one at a time with c.get: Hono makes an object of all of them at each read of c.var', () => {
    const readers = EVERY_PAGE.filter((path) => {
      const text = sources.get(path)
      expect(text, path).toBeDefined()
      // Code only: the JSDoc may name a variable as `c.var.market`.
      return (text ?? '').split('\n').some((line) => !/^\s*(\*|\/\/)/.test(line) && /\bc\.var\b/.test(line))
    })
    expect(readers).toEqual([])
  })
})
