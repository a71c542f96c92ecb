import { beforeEach, describe, expect, it } from 'vitest'
import { clearCaches, ORIGIN, visit } from '../fixtures/worker'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const pick = (market: string, origin = ORIGIN) =>
  visit('/_market', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ market }).toString(),
  })

beforeEach(clearCaches)

describe('the remembered market (PRODUCT.md §3.12)', () => {
  it('is set by an explicit pick, which goes to the market', async () => {
    const { status, headers } = await pick('ch-fr')
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/ch-fr')
    const cookie = headers.get('Set-Cookie') ?? ''
    expect(cookie).toMatch(/^CountryLocale=ch-fr;/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('Secure')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
  })

  it('refuses a pick posted from another site', async () => {
    const { status, headers } = await pick('ch-fr', 'https://evil.example')
    expect(status).toBe(403)
    expect(headers.get('Set-Cookie')).toBeNull()
  })

  it('refuses to remember a market that is unknown or under maintenance', async () => {
    for (const market of ['nl-nl', 'xx-yy', 'it-en', '<script>', '']) {
      const { status, headers } = await pick(market)
      expect(status, market).toBe(400)
      expect(headers.get('Set-Cookie'), market).toBeNull()
    }
  })

  it('is never set on ordinary page views', async () => {
    for (const path of ['/', '/it-it', '/it-it/chi-siamo', '/it-it/nowhere']) {
      expect((await visit(path)).headers.get('Set-Cookie'), path).toBeNull()
    }
  })

  it('sends a visitor from / to the remembered live market', async () => {
    const { status, headers } = await visit('/', { headers: { Cookie: 'CountryLocale=ae-ar' } })
    expect(status).toBe(302)
    expect(headers.get('Location')).toBe('/ae-ar')
    expect(headers.get('Cache-Control')).toContain('no-store')
  })

  it('never redirects a crawler, nor to a market under maintenance or unknown', async () => {
    expect((await visit('/', { headers: { Cookie: 'CountryLocale=ae-ar', 'User-Agent': GOOGLEBOT } })).status).toBe(200)
    expect((await visit('/', { headers: { Cookie: 'CountryLocale=nl-nl' } })).status).toBe(200)
    expect((await visit('/', { headers: { Cookie: 'CountryLocale=zz-zz' } })).status).toBe(200)
    expect((await visit('/', { headers: { Cookie: 'CountryLocale=../../etc' } })).status).toBe(200)
  })

  it('suggests a market on / from Accept-Language without redirecting', async () => {
    const { status, text } = await visit('/', { headers: { 'Accept-Language': 'fr-CH,fr;q=0.9,en;q=0.5' } })
    expect(status).toBe(200)
    expect(text).toMatch(/<html lang="fr"/)
    expect(text).toMatch(/class="suggestion"[\s\S]*value="ch-fr"/)
  })

  it("suggests the market of the edge's country first, in the best language the visitor accepts", async () => {
    const { text } = await visit('/', {
      headers: { 'Accept-Language': 'it-IT,it;q=0.9' },
      cf: { country: 'CH' },
    } as RequestInit)
    expect(text).toMatch(/class="suggestion"[\s\S]*value="ch-it"/)
  })

  it('suggests the language of a market even without a region', async () => {
    const { text } = await visit('/', { headers: { 'Accept-Language': 'he' } })
    expect(text).toMatch(/class="suggestion"[\s\S]*value="il-he"/)
    expect(text).toMatch(/<html lang="he" dir="rtl"/)
  })

  it('makes no suggestion when nothing matches, in int-en', async () => {
    const { text } = await visit('/', { headers: { 'Accept-Language': 'ja-JP' } })
    expect(text).not.toContain('class="suggestion"')
    expect(text).toMatch(/<html lang="en"/)
  })
})
