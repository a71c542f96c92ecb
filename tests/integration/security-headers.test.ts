import { describe, expect, it } from 'vitest'
import { formPost } from '../fixtures/session'
import { clearCaches, visit } from '../fixtures/worker'

/** The headers every answer of the Worker carries, whatever its kind. */
function expectProtected(headers: Headers, what: string) {
  const hsts = headers.get('Strict-Transport-Security') ?? ''
  expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), what).toBeGreaterThanOrEqual(31_536_000)
  expect(hsts, what).toContain('includeSubDomains')
  expect(headers.get('X-Content-Type-Options'), what).toBe('nosniff')
  expect(headers.get('X-Frame-Options'), what).toBe('DENY')
  expect(headers.get('Cross-Origin-Opener-Policy'), what).toBe('same-origin')
  const permissions = headers.get('Permissions-Policy') ?? ''
  for (const feature of ['camera=()', 'microphone=()', 'geolocation=(self)', 'payment=(self)'])
    expect(permissions, what).toContain(feature)
  expect(headers.get('Referrer-Policy'), what).toBe('strict-origin-when-cross-origin')
}

/** The Content-Security-Policy's img-src sources. */
const imageSources = (headers: Headers) =>
  /(?:^|; )img-src ([^;]*)/.exec(headers.get('Content-Security-Policy') ?? '')?.[1]

describe('security headers on every kind of answer', () => {
  it('protect HTML pages (found, not found, maintenance) and give them a CSP', async () => {
    for (const path of ['/', '/it-it', '/it-it/rivenditori', '/it-it/no-such-page', '/nl-nl', '/login']) {
      const { headers } = await visit(path)
      expect(headers.get('Content-Type'), path).toMatch(/^text\/html/)
      expectProtected(headers, path)
      expect(headers.get('Content-Security-Policy'), path).toContain("frame-ancestors 'none'")
    }
  })

  it('protect JSON answers: the health check and the public API', async () => {
    for (const path of ['/_health', '/api/sites', '/api/front/dealers']) {
      const { status, headers } = await visit(path, { headers: { 'X-Tenant': 'it', 'X-Locale': 'it' } })
      expect(status, path).toBe(200)
      expect(headers.get('Content-Type'), path).toMatch(/^application\/json/)
      expectProtected(headers, path)
    }
  })

  it("protect redirects: the remembered market, the account guard, a form's answer", async () => {
    const remembered = await visit('/', { headers: { Cookie: 'CountryLocale=it-it' } })
    const guarded = await visit('/it-it/my-account')
    const picked = await visit('/_market', formPost({ market: 'ch-fr' }))
    for (const [what, answer, status] of [
      ['remembered', remembered, 302],
      ['guard', guarded, 302],
      ['pick', picked, 303],
    ] as const) {
      expect(answer.status, what).toBe(status)
      expect(answer.headers.get('Location'), what).toBeTruthy()
      expectProtected(answer.headers, what)
    }
  })
})

describe('Vary', () => {
  it("the landing page varies with the visitor's language and remembered market", async () => {
    const { status, headers } = await visit('/', { headers: { 'Accept-Language': 'de-DE,de;q=0.9' } })
    expect(status).toBe(200)
    expect(headers.get('Vary')).toBe('Accept-Language, Cookie')
  })

  it("the remembered market's redirect varies with the cookie", async () => {
    const { status, headers } = await visit('/', { headers: { Cookie: 'CountryLocale=ch-fr' } })
    expect(status).toBe(302)
    expect(headers.get('Location')).toBe('/ch-fr')
    expect(headers.get('Vary')).toBe('Cookie')
  })
})

describe("MAP_TILE_URL and the dealer locator's CSP", () => {
  const locator = async (MAP_TILE_URL: string) => {
    await clearCaches()
    const answer = await visit('/it-it/rivenditori', {}, { MAP_TILE_URL })
    expect(answer.status).toBe(200)
    return answer
  }

  it("lets map images come from a valid tile server's origin, and gives the map its template", async () => {
    const { headers, text } = await locator('https://tiles.example.com/osm/{z}/{x}/{y}.png')
    // Beside the tiles, only the market's tag manager (GTM-IT00001), which every visitor's page may load.
    expect(imageSources(headers)).toBe("'self' data: https://tiles.example.com https://www.googletagmanager.com")
    expect(text).toContain('https://tiles.example.com/osm/{z}/{x}/{y}.png')
  })

  it.each([
    ['plain http', 'http://tiles.example.com/{z}/{x}/{y}.png'],
    ['subdomains', 'https://{s}.tiles.example.com/{z}/{x}/{y}.png'],
    ['garbage', 'not a url'],
  ])(
    'lets no tile origin into img-src for an invalid MAP_TILE_URL (%s), and hands the map no template',
    async (_, url) => {
      const { headers, text } = await locator(url)
      expect(imageSources(headers)).toBe("'self' data: https://www.googletagmanager.com")
      expect(text).not.toContain('tiles.example.com')
      expect(text).not.toContain('not a url')
    },
  )
})
