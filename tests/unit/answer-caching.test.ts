import { describe, expect, it } from 'vitest'
import { Caching, CachingDecision, cacheControl, stricter } from '../../src/cache/answer-caching'

describe('caching policies', () => {
  it('write each policy as one Cache-Control header', () => {
    expect(cacheControl(Caching.hour)).toBe('public, max-age=3600')
    expect(cacheControl(Caching.shared)).toBe('no-cache')
    expect(cacheControl(Caching.personal)).toBe('private, no-cache')
    expect(cacheControl(Caching.private)).toBe('private, no-store')
    expect(cacheControl(Caching.never)).toBe('no-store')
    // What the edge may keep longer than the browser is said apart.
    const edgeForAMinute = { ...Caching.shared, shared: { keep: true, freshSeconds: 60 } }
    expect(cacheControl(edgeForAMinute)).toBe('no-cache, s-maxage=60')
    expect(cacheControl({ ...Caching.hour, shared: { keep: true, freshSeconds: 86_400 } })).toBe(
      'public, max-age=3600, s-maxage=86400',
    )
  })

  it('lower to the stricter of two, whichever order', () => {
    expect(stricter(Caching.shared, Caching.personal)).toEqual(Caching.personal)
    expect(stricter(Caching.personal, Caching.shared)).toEqual(Caching.personal)
    expect(stricter(Caching.hour, Caching.shared)).toEqual(Caching.shared)
    expect(cacheControl(stricter(Caching.never, Caching.personal))).toBe('private, no-store')
  })
})

describe("a request's caching decision", () => {
  it('keeps nothing its route did not allow', () => {
    expect(new CachingDecision().final(false)).toEqual(Caching.never)
  })

  it('is lowered by anything personal, whatever the page allowed, and by a cookie to nothing', () => {
    const decision = new CachingDecision()
    decision.lower(Caching.personal)
    decision.allow(Caching.shared)
    expect(cacheControl(decision.final(false))).toBe('private, no-cache')
    expect(cacheControl(decision.final(true))).toBe('private, no-store')
    const anonymous = new CachingDecision()
    anonymous.allow(Caching.shared)
    expect(cacheControl(anonymous.final(true))).toBe('no-store')
  })
})
