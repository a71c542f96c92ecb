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

describe("MAP_TILE_URL and the dealers' map's CSP (tiles once functional content is allowed: decision 064)", () => {
  const FUNCTIONAL = { headers: { Cookie: '__Host-Consent=v1.a0.m0.f1' } }
  const locator = async (MAP_TILE_URL: string, init: RequestInit = FUNCTIONAL, path = '/it-it/rivenditori') => {
    await clearCaches()
    const answer = await visit(path, init, { MAP_TILE_URL })
    expect(answer.status).toBe(200)
    return answer
  }
  const TILES = 'https://tiles.example.com/osm/{z}/{x}/{y}.png'

  it("lets map images come from a valid tile server's origin, and gives the map its template", async () => {
    const { headers, text } = await locator(TILES)
    expect(imageSources(headers)).toBe("'self' data: https://tiles.example.com")
    expect(text).toContain('https://tiles.example.com/osm/{z}/{x}/{y}.png')
    expect(text).not.toContain('class="map-tiles-notice"')
  })

  it("does the same on a dealer's page, whose map shows that dealer", async () => {
    const { headers, text } = await locator(TILES, FUNCTIONAL, '/it-it/dealers/ruota-capitolina')
    expect(imageSources(headers)).toBe("'self' data: https://tiles.example.com")
    expect(text).toContain('https://tiles.example.com/osm/{z}/{x}/{y}.png')
  })

  it.each([
    ['the locator', '/it-it/rivenditori'],
    ["a dealer's page", '/it-it/dealers/ruota-capitolina'],
  ])(
    'before a choice, on %s: no tile server in the CSP or the page, the markers alone and a button that allows the street map',
    async (_, path) => {
      const { headers, text } = await locator(TILES, {}, path)
      expect(imageSources(headers)).toBe("'self' data:")
      expect(text).not.toContain('tiles.example.com')
      const notice = /<div class="map-tiles-notice">[\s\S]*?<\/form><\/div>/.exec(text)?.[0] ?? ''
      expect(notice).toContain('<bdi>OpenStreetMap</bdi>')
      expect(notice).toContain('<form action="/_consent" method="post">')
      expect(notice).toContain('<input type="hidden" name="choice" value="save"/>')
      expect(notice).toContain(`<input type="hidden" name="return" value="${path}"/>`)
      expect(notice).toContain('<input type="hidden" name="functional" value="on"/>')
      expect(notice).not.toContain('name="analytics"')
      expect(notice).toContain('Mostra la mappa stradale')
    },
  )

  it('asks a visitor who allowed analytics alone the same, keeping analytics; under Global Privacy Control only says why', async () => {
    const analytics = await locator(TILES, { headers: { Cookie: '__Host-Consent=v1.a1.m0.f0' } })
    expect(analytics.text).not.toContain('tiles.example.com')
    expect(analytics.text).toContain('<input type="hidden" name="analytics" value="on"/>')
    expect(analytics.text).toContain('<input type="hidden" name="functional" value="on"/>')
    const gpc = await locator(TILES, { headers: { Cookie: '__Host-Consent=v1.a1.m1.f1', 'Sec-GPC': '1' } })
    expect(gpc.text).not.toContain('tiles.example.com')
    const notice = /<div class="map-tiles-notice">[\s\S]*?<\/div>/.exec(gpc.text)?.[0] ?? ''
    expect(notice).toContain('<bdi>OpenStreetMap</bdi>')
    expect(notice).not.toContain('<form')
  })

  it.each([
    ['plain http', 'http://tiles.example.com/{z}/{x}/{y}.png'],
    ['subdomains', 'https://{s}.tiles.example.com/{z}/{x}/{y}.png'],
    ['garbage', 'not a url'],
  ])(
    'lets no tile origin into img-src for an invalid MAP_TILE_URL (%s), and hands the map no template',
    async (_, url) => {
      const { headers, text } = await locator(url)
      expect(imageSources(headers)).toBe("'self' data:")
      expect(text).not.toContain('tiles.example.com')
      expect(text).not.toContain('not a url')
    },
  )
})
