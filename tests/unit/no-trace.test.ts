import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { answerCaching, Caching } from '../../src/cache/answer-caching'
import type { AppEnv } from '../../src/env'
import { noTrace } from '../../src/whistleblower/no-trace'

/** The two middleware as the app mounts them, before a route that would set a cookie and let any cache keep it. */
const app = new Hono<AppEnv>()
app.use(answerCaching())
app.use(noTrace())
app.get('*', (c) => {
  c.var.caching.allow(Caching.shared)
  c.header('Set-Cookie', 'CountryLocale=it-it; Path=/')
  return c.text(`noTrace=${c.var.noTrace}`)
})

describe("whether a request is the whistleblower channel's", () => {
  it("is decided once, as c.var.noTrace, for the channel's paths in any market, known or not, and below them", async () => {
    const channel = [
      '/it-it/whistleblower-form',
      '/it-it/whistleblower-form/',
      '/it-it/whistleblower-form/status',
      '/xx-yy/whistleblower-form',
    ]
    for (const path of channel) {
      const answer = await app.request(path)
      expect(await answer.text(), path).toBe('noTrace=true')
      expect(answer.headers.getSetCookie(), path).toEqual([])
      expect(answer.headers.get('Cache-Control'), path).toBe('no-store')
      expect(answer.headers.get('Referrer-Policy'), path).toBe('no-referrer')
    }
  })

  it('is false for every other path, however close, and leaves their answers as their routes made them', async () => {
    const others = [
      '/it-it',
      '/it-it/whistleblower-formx',
      '/it-it/whistleblower',
      '/whistleblower-form',
      '/it-it/pages/whistleblower-form',
    ]
    for (const path of others) {
      const answer = await app.request(path)
      expect(await answer.text(), path).toBe('noTrace=false')
      expect(answer.headers.getSetCookie(), path).toEqual(['CountryLocale=it-it; Path=/'])
      expect(answer.headers.get('Referrer-Policy'), path).toBeNull()
    }
  })
})
