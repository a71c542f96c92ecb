import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { configOf } from '../../src/config'

afterEach(() => vi.restoreAllMocks())

/** The configuration of a fresh environment (configOf reads each environment once) and the error lines it logged. */
function configWith(MAP_TILE_URL: string | undefined) {
  const errors: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
  const config = configOf({ ...env, MAP_TILE_URL } as typeof env)
  return {
    mapTiles: config.mapTiles,
    logged: errors.map((line) => JSON.parse(line) as Record<string, unknown>),
    errors,
  }
}

describe('MAP_TILE_URL', () => {
  it.each([
    ['https://tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://tile.openstreetmap.org'],
    ['https://tiles.example.com:8443/styles/bright/{z}/{x}/{y}@2x.png?key=abc', 'https://tiles.example.com:8443'],
  ])('accepts an HTTPS template on one host: %s', (url, origin) => {
    const { mapTiles, logged } = configWith(url)
    expect(mapTiles).toEqual({ url, origin })
    expect(logged).toEqual([])
  })

  it.each([
    ['plain http', 'http://tile.openstreetmap.org/{z}/{x}/{y}.png'],
    ['{s} subdomains', 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png'],
    ['a placeholder in the host', 'https://{z}.tiles.example.com/{x}/{y}.png'],
    ['no URL at all', 'tiles please'],
    ['a script URL', 'javascript:alert(1)//{z}/{x}/{y}'],
    ['a data URL', 'data:image/png;base64,AAAA'],
  ])('refuses %s, and logs config_invalid naming the variable but not its value', (_, url) => {
    const { mapTiles, logged, errors } = configWith(url)
    expect(mapTiles).toBeNull()
    expect(logged).toEqual([{ level: 'error', event: 'config_invalid', variable: 'MAP_TILE_URL' }])
    // A tile URL may carry an API key: the line names the variable only.
    expect(errors.join('\n')).not.toContain(url)
  })

  it('leaves the map without tiles, quietly, when it is not set', () => {
    for (const url of [undefined, '']) {
      const { mapTiles, logged } = configWith(url)
      expect(mapTiles).toBeNull()
      expect(logged).toEqual([])
    }
  })

  it('is read once per environment: a second look logs nothing again', () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const bindings = { ...env, MAP_TILE_URL: 'http://tiles.example.com/{z}/{x}/{y}.png' } as typeof env
    expect(configOf(bindings)).toBe(configOf(bindings))
    expect(errors).toHaveLength(1)
  })
})

/** The tracking configuration of a fresh environment with some variables changed, and the error and warning lines it logged. */
function trackingWith(
  vars: Partial<Record<'GTM_FALLBACKS' | 'MEXICO_TAG_URL' | 'CONSENT_POLICY_URL' | 'CONSENT_POLICY_IDS', string>>,
) {
  const errors: string[] = []
  for (const level of ['error', 'warn'] as const)
    vi.spyOn(console, level).mockImplementation((line: unknown) => void errors.push(String(line)))
  const config = configOf({ ...env, ...vars } as typeof env)
  return { tracking: config.tracking, logged: errors.map((line) => JSON.parse(line) as Record<string, unknown>) }
}

describe('the tracking variables', () => {
  it("reads the tag manager's fallback container per region", () => {
    const { tracking, logged } = trackingWith({ GTM_FALLBACKS: '{"europe":"GTM-EU1","oceania":"GTM-OC1"}' })
    expect(tracking.tagManagerFallbacks).toEqual({ europe: 'GTM-EU1', oceania: 'GTM-OC1' })
    expect(logged).toEqual([])
  })

  it.each([
    ['not JSON', 'GTM-EU1', {}],
    ['a malformed id', '{"europe":"GTM-EU1","asia":"GTM-\'+alert(1)"}', { europe: 'GTM-EU1' }],
    ['an unknown region', '{"antarctica":"GTM-AQ1"}', {}],
  ])('keeps only the valid entries of GTM_FALLBACKS (%s), and logs config_invalid', (_, value, kept) => {
    const { tracking, logged } = trackingWith({ GTM_FALLBACKS: value })
    expect(tracking.tagManagerFallbacks).toEqual(kept)
    expect(logged).toEqual([{ level: 'error', event: 'config_invalid', variable: 'GTM_FALLBACKS' }])
  })

  it("reads the Mexico tag's whole script URL and its origin (no site setting fills it in); refuses plain http, a placeholder or no URL", () => {
    expect(trackingWith({ MEXICO_TAG_URL: 'https://tag.example.mx/t.js?id=MX-1' }).tracking.mexicoTag).toEqual({
      url: 'https://tag.example.mx/t.js?id=MX-1',
      origin: 'https://tag.example.mx',
    })
    for (const value of [
      'http://tag.example.mx/t.js',
      'https://tag.example.mx/t.js?id={id}',
      'https://{id}.example.mx/t.js',
      'tag.example.mx/t.js',
    ]) {
      const { tracking, logged } = trackingWith({ MEXICO_TAG_URL: value })
      expect(tracking.mexicoTag, value).toBeNull()
      expect(logged).toEqual([{ level: 'error', event: 'config_invalid', variable: 'MEXICO_TAG_URL' }])
    }
    expect(trackingWith({ MEXICO_TAG_URL: '' }).tracking.mexicoTag).toBeNull()
  })

  it("reads the cookie policy's template and ids per language; with malformed ids there is no policy link", () => {
    expect(
      trackingWith({ CONSENT_POLICY_URL: 'https://p.example/{id}', CONSENT_POLICY_IDS: '{"en":"1","it":"2"}' }).tracking
        .policies,
    ).toEqual({
      url: 'https://p.example/{id}',
      ids: { en: '1', it: '2' },
    })
    const { tracking, logged } = trackingWith({
      CONSENT_POLICY_URL: 'https://p.example/{id}',
      CONSENT_POLICY_IDS: '{"en":"1\\"><script>"}',
    })
    expect(tracking.policies).toBeNull()
    expect(logged).toEqual([{ level: 'error', event: 'config_invalid', variable: 'CONSENT_POLICY_IDS' }])
  })

  it('leaves out, and logs, a policy id for Slovenian or Croatian: those languages link the English terms, as the original did', () => {
    const { tracking, logged } = trackingWith({
      CONSENT_POLICY_URL: 'https://p.example/{id}',
      CONSENT_POLICY_IDS: '{"en":"1","it":"2","sl":"6","hr":"7"}',
    })
    expect(tracking.policies).toEqual({ url: 'https://p.example/{id}', ids: { en: '1', it: '2' } })
    expect(logged).toEqual([
      { level: 'warn', event: 'config_unused', variable: 'CONSENT_POLICY_IDS', languages: ['sl', 'hr'] },
    ])
  })
})

describe('FORM_MIN_FILL_SECONDS', () => {
  it('takes whole seconds from 0 to 60 and keeps the default (3) for anything else, logged', () => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const seconds = (value: string | undefined) =>
      configOf({ ...env, FORM_MIN_FILL_SECONDS: value } as typeof env).formMinFillSeconds
    expect([seconds(undefined), seconds(''), seconds('0'), seconds('10'), seconds('60')]).toEqual([3, 3, 0, 10, 60])
    expect(errors).toEqual([])
    expect(['-1', '61', '1.5', 'never'].map(seconds)).toEqual([3, 3, 3, 3])
    expect(errors.map((line) => JSON.parse(line))).toEqual(
      Array(4).fill({ level: 'error', event: 'config_invalid', variable: 'FORM_MIN_FILL_SECONDS' }),
    )
  })
})

describe('UPSTREAM_AREAS', () => {
  const areasWith = (UPSTREAM_URL: string, UPSTREAM_AREAS: string) => {
    const errors: string[] = []
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const config = configOf({ ...env, UPSTREAM_URL, UPSTREAM_AREAS } as typeof env)
    return { config, logged: errors.map((line) => JSON.parse(line) as Record<string, unknown>) }
  }
  const BACKEND = 'https://api.brand.example'

  it('serves every area with the embedded API, whatever the list says, and with an empty list', () => {
    expect(areasWith('', 'none').config.upstreamAreas).toBe('all')
    expect(areasWith(BACKEND, '').config.upstreamAreas).toBe('all')
  })

  it('reads a list of areas, "none" as the eight calls only, and leaves an unknown name out (config_invalid)', () => {
    expect([...(areasWith(BACKEND, 'none').config.upstreamAreas as Set<string>)]).toEqual([])
    const { config, logged } = areasWith(BACKEND, ' content, news ,pigeons')
    expect([...(config.upstreamAreas as Set<string>)]).toEqual(['content', 'news'])
    expect(logged).toEqual([{ level: 'error', event: 'config_invalid', variable: 'UPSTREAM_AREAS' }])
  })

  it('keeps the caches of another list of areas apart (the upstream fingerprint)', () => {
    const all = areasWith(BACKEND, '').config.upstream.fingerprint
    expect(areasWith(BACKEND, 'none').config.upstream.fingerprint).not.toBe(all)
    expect(areasWith(BACKEND, '').config.upstream.fingerprint).toBe(all)
  })
})
