import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CONSENT_COOKIE } from '../../src/tracking/consent'
import { policyUrlOf } from '../../src/tracking/page-tracking'
import { cookieHeader, formPost, logIn } from '../fixtures/session'
import { clearCaches, ORIGIN, visit } from '../fixtures/worker'

beforeEach(clearCaches)
afterEach(() => vi.restoreAllMocks())

const ACCEPTED = `${CONSENT_COOKIE}=v1.a1.m1.f1`
const REFUSED = `${CONSENT_COOKIE}=v1.a0.m0.f0`
const withConsent = (value: string, headers: Record<string, string> = {}) => ({
  headers: { Cookie: value, ...headers },
})

const cspOf = (headers: Headers) => headers.get('Content-Security-Policy') ?? ''
/** The page's scripts, in document order. */
const scriptsOf = (html: string) => [...html.matchAll(/<script\b[^>]*>[\s\S]*?<\/script>/g)].map(([script]) => script)
/** The trackers a page loads (its `<script id="trackers">`), by name and delay. */
const trackersOf = (html: string) => {
  const json = /<script type="application\/json" id="trackers"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1]
  return json
    ? (JSON.parse(json) as Array<{ name: string; delayMs: number; src: string; id: string }>).map(
        ({ name, delayMs, src }) => ({ name, delayMs, src }),
      )
    : []
}
const containerOf = (html: string) => /\(window,document,"(GTM-[A-Z0-9]+)"\)/.exec(html)?.[1] ?? null

async function updateSettings(site: string, change: Record<string, unknown>) {
  const row = await env.DB.prepare('SELECT settings FROM sites WHERE slug = ?').bind(site).first<{ settings: string }>()
  await env.DB.prepare('UPDATE sites SET settings = ? WHERE slug = ?')
    .bind(JSON.stringify({ ...JSON.parse(row!.settings), ...change }), site)
    .run()
}

describe('the tag manager (PRODUCT.md §5)', () => {
  it('runs first of all scripts: Consent Mode v2 defaults all denied with wait_for_update 2000; before a choice nothing more, no container and no Google origin (docs/decisions/064)', async () => {
    const { text, headers } = await visit('/it-it')
    const [first] = scriptsOf(text)
    // A page the page cache keeps: the snippet is allowed by its hash, not by a nonce.
    expect(first).toMatch(/^<script>/)
    const code = first!.replace(/^<script>|<\/script>$/g, '')
    const hash = btoa(
      String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(code)))),
    )
    expect(cspOf(headers)).toContain(`'sha256-${hash}'`)
    expect(first).toContain(
      `gtag('consent','default',{"ad_storage":"denied","ad_user_data":"denied","ad_personalization":"denied","analytics_storage":"denied","wait_for_update":2000});`,
    )
    expect(first).not.toContain("'consent','update'")
    expect(first).not.toContain('gtm.js')
    expect(containerOf(text)).toBeNull()
    expect(cspOf(headers)).not.toContain('googletagmanager')
  })

  it("loads the site's own container once the visitor allowed something: the defaults, their choice, then the container", async () => {
    const { text, headers } = await visit('/it-it', withConsent(ACCEPTED))
    const [first] = scriptsOf(text)
    expect(first!.indexOf("'consent','default'")).toBeLessThan(first!.indexOf("'consent','update'"))
    expect(first!.indexOf("'consent','update'")).toBeLessThan(first!.indexOf('gtm.js'))
    expect(containerOf(first!)).toBe('GTM-IT00001')
    expect(first).toContain("'https://www.googletagmanager.com/gtm.js?id='")
    expect(cspOf(headers)).toContain('https://www.googletagmanager.com')
  })

  it.each([
    ['a refusal', withConsent(REFUSED)],
    ['Global Privacy Control over an acceptance', withConsent(ACCEPTED, { 'Sec-GPC': '1' })],
  ])('loads no container after %s, and names no Google origin in the CSP', async (_, init) => {
    const { text, headers } = await visit('/it-it', init)
    expect(containerOf(text)).toBeNull()
    expect(text).not.toContain('gtm.js')
    expect(cspOf(headers)).not.toContain('googletagmanager')
  })

  it.each([
    ['au-en', 'oceania', 'GTM-OCEANIA'],
    ['za-en', 'africa', 'GTM-AFRICA01'],
  ])(
    'on %s, whose site names no container, loads the %s fallback of the deployment (%s)',
    async (market, _, container) => {
      expect(containerOf((await visit(`/${market}`, withConsent(ACCEPTED))).text)).toBe(container)
    },
  )

  it("uses the region's fallback for a malformed container id, and writes nothing of it into the page", async () => {
    await updateSettings('es', { google_tag_manager: "GTM-X');alert(1);//" })
    const { text } = await visit('/es-es', withConsent(ACCEPTED))
    expect(containerOf(text)).toBe('GTM-EUROPE1')
    expect(text).not.toContain('alert(1)')
  })

  it('has no tag manager where neither the site nor its region has one, and its origin is then not in the CSP', async () => {
    const { text, headers } = await visit('/au-en', withConsent(ACCEPTED), {
      GTM_FALLBACKS: '{"europe":"GTM-EUROPE1"}',
    })
    expect(containerOf(text)).toBeNull()
    expect(text).toContain("gtag('consent','default'")
    expect(cspOf(headers)).not.toContain('googletagmanager')
  })
})

describe('before a choice', () => {
  it('loads no tracker, asks with the banner, allows no other origin, and stays cacheable without a cookie', async () => {
    const { text, headers } = await visit('/it-it')
    expect(trackersOf(text)).toEqual([])
    expect(text).not.toContain('/assets/tracking-')
    expect(text).toMatch(/<body[^>]*><section id="cookie-settings" class="consent" aria-labelledby="consent-title">/)
    for (const value of ['accept', 'reject', 'save'])
      expect(text).toMatch(new RegExp(`<button type="submit" value="${value}"[^>]* name="choice">`))
    expect(text).toContain('<a href="#cookie-settings">Impostazioni dei cookie</a>')
    expect(cspOf(headers)).not.toMatch(/googletagmanager|google-analytics|facebook|clarity|intercom/)
    expect(headers.get('Cache-Control')).toBe('no-cache')
    expect(headers.get('Set-Cookie')).toBeNull()
  })
})

describe('after a choice', () => {
  it('loads the allowed trackers of the market after their delays, tells the tag manager, and keeps the answer to the visitor', async () => {
    const { text, headers } = await visit('/it-it', withConsent(ACCEPTED))
    expect(trackersOf(text)).toEqual([
      { name: 'google-analytics', delayMs: 6000, src: 'https://www.googletagmanager.com/gtag/js?id=G-IT0000001' },
      { name: 'facebook-pixel', delayMs: 7000, src: 'https://connect.facebook.net/en_US/fbevents.js' },
    ])
    expect(scriptsOf(text)[0]).toContain(
      `gtag('consent','update',{"ad_storage":"granted","ad_user_data":"granted","ad_personalization":"granted","analytics_storage":"granted"});`,
    )
    // The trackers' loader is preloaded, then started as a module by the page's loader (allowed by its hash).
    expect(text).toMatch(/<link rel="modulepreload" href="\/assets\/tracking-[\w-]+\.js"\/>/)
    expect(text).toMatch(/<script>\["\/assets\/entry-[\w-]+\.js","\/assets\/tracking-[\w-]+\.js"\]\.forEach\(/)
    expect(cspOf(headers)).toMatch(
      /connect-src [^;]*https:\/\/\*\.google-analytics\.com[^;]*https:\/\/www\.facebook\.com/,
    )
    expect(headers.get('Cache-Control')).toBe('private, no-cache')
    // The banner is closed, reopened from the footer with the choice ticked.
    expect(text).toContain('class="consent consent-closed"')
    expect(text).toMatch(/<input type="checkbox" id="consent-analytics"[^>]* name="analytics" checked=""/)
  })

  it.each([
    [
      'us-en',
      'v1.a0.m0.f1',
      [{ name: 'intercom', delayMs: 5000, src: 'https://widget.intercom.io/widget/icus0001' }],
      'https://*.intercom.io',
    ],
    [
      'de-de',
      'v1.a1.m0.f0',
      [{ name: 'clarity', delayMs: 6000, src: 'https://www.clarity.ms/tag/clarity-de-01' }],
      'https://*.clarity.ms',
    ],
    [
      'mx-es',
      'v1.a0.m1.f0',
      [{ name: 'mexico-tag', delayMs: 6000, src: 'https://tag.mexico.aurora-cycles.example/tag.js?id=MX-TAG-0001' }],
      'https://tag.mexico.aurora-cycles.example',
    ],
    [
      'it-it',
      'v1.a1.m0.f0',
      [{ name: 'google-analytics', delayMs: 6000, src: 'https://www.googletagmanager.com/gtag/js?id=G-IT0000001' }],
      'https://*.google-analytics.com',
    ],
  ])(
    "on %s with %s loads only the chosen categories' trackers, and the CSP names only their origins",
    async (market, value, trackers, origin) => {
      const { text, headers } = await visit(`/${market}`, withConsent(`${CONSENT_COOKIE}=${value}`))
      expect(trackersOf(text)).toEqual(trackers)
      const csp = cspOf(headers)
      expect(csp).toContain(origin)
      for (const other of ['facebook', 'clarity', 'intercom', 'google-analytics', 'mexico'].filter(
        (name) => !origin.includes(name),
      )) {
        expect(csp, other).not.toContain(other)
      }
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/)
    },
  )

  describe('the Mexico-specific tag (seed §9), which the site record has no setting for (docs/decisions/024)', () => {
    const MARKETING = withConsent(`${CONSENT_COOKIE}=v1.a0.m1.f0`)
    const tagsOf = (html: string) => trackersOf(html).filter((tracker) => tracker.name === 'mexico-tag')

    it("loads on the market of Mexico from the deployment's MEXICO_TAG_URL, whatever its settings hold", async () => {
      const row = await env.DB.prepare("SELECT settings FROM sites WHERE slug = 'mx'").first<{ settings: string }>()
      expect(Object.keys(JSON.parse(row!.settings))).not.toContain('mexico_tag')
      await updateSettings('mx', { mexico_tag: { integrate: false, id: 'OTHER' } })
      const { text, headers } = await visit('/mx-es', MARKETING, {
        MEXICO_TAG_URL: 'https://tag.example.mx/t.js?id=MX-DEPLOY-1',
      })
      expect(tagsOf(text)).toEqual([
        { name: 'mexico-tag', delayMs: 6000, src: 'https://tag.example.mx/t.js?id=MX-DEPLOY-1' },
      ])
      expect(cspOf(headers)).toMatch(/script-src [^;]*https:\/\/tag\.example\.mx/)
    })

    it('never loads on another market, even one in Spanish in the Americas, nor when the deployment names no script', async () => {
      for (const market of ['us-es', 'es-es', 'it-it']) {
        const { text, headers } = await visit(`/${market}`, MARKETING)
        expect(tagsOf(text), market).toEqual([])
        expect(cspOf(headers), market).not.toContain('tag.mexico')
      }
      const { text, headers } = await visit('/mx-es', MARKETING, { MEXICO_TAG_URL: '' })
      expect(tagsOf(text)).toEqual([])
      expect(cspOf(headers)).not.toContain('tag.mexico')
    })
  })

  it('loads none after a refusal, and tells the tag manager everything stays denied', async () => {
    const { text, headers } = await visit('/it-it', withConsent(REFUSED))
    expect(trackersOf(text)).toEqual([])
    expect(scriptsOf(text)[0]).toContain(
      `gtag('consent','update',{"ad_storage":"denied","ad_user_data":"denied","ad_personalization":"denied","analytics_storage":"denied"});`,
    )
    expect(cspOf(headers)).not.toMatch(/google-analytics|facebook/)
  })

  it('asks again when the cookie is not a choice it knows (old or tampered), and then the page is the same for everyone', async () => {
    const { text, headers } = await visit('/it-it', withConsent(`${CONSENT_COOKIE}=v2.everything`))
    expect(text).toContain('class="consent" aria-labelledby')
    expect(trackersOf(text)).toEqual([])
    expect(headers.get('Cache-Control')).toBe('no-cache')
  })

  it('ignores a tracker whose id in the settings is malformed', async () => {
    await updateSettings('it', { facebook_pixel_code: '1"><script>alert(1)</script>' })
    const { text } = await visit('/it-it', withConsent(ACCEPTED))
    expect(trackersOf(text).map((tracker) => tracker.name)).toEqual(['google-analytics'])
    expect(text).not.toContain('alert(1)')
  })
})

describe('Global Privacy Control', () => {
  it('refuses everything but the necessary, whatever the cookie says: no tracker, no consent granted, nothing asked', async () => {
    const { text, headers } = await visit('/it-it', withConsent(ACCEPTED, { 'Sec-GPC': '1' }))
    expect(trackersOf(text)).toEqual([])
    expect(scriptsOf(text)[0]).not.toContain('granted')
    expect(cspOf(headers)).not.toMatch(/google-analytics|facebook/)
    expect(text).toContain('class="consent consent-closed"')
    expect(text).toContain('class="consent-gpc"')
    expect(text).not.toContain('name="choice"')
    expect(headers.get('Cache-Control')).toBe('private, no-cache')
  })
})

describe('POST /_consent', () => {
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    visit('/_consent', formPost(fields, headers))

  it.each([
    [{ choice: 'accept' }, 'v1.a1.m1.f1'],
    [{ choice: 'reject' }, 'v1.a0.m0.f0'],
    [{ choice: 'save', analytics: 'on' }, 'v1.a1.m0.f0'],
    [{ choice: 'save', marketing: 'on', functional: 'on' }, 'v1.a0.m1.f1'],
  ])('stores %o as %s in a first-party cookie for six months, and goes back to the page', async (fields, value) => {
    const { status, headers } = await post({ ...fields, return: '/it-it/products?type=x' })
    expect(status).toBe(303)
    expect(headers.get('Location')).toBe('/it-it/products?type=x')
    const cookie = headers.getSetCookie().find((line) => line.startsWith(`${CONSENT_COOKIE}=`))
    expect(cookie).toBe(`${CONSENT_COOKIE}=${value}; Max-Age=15552000; Path=/; HttpOnly; Secure; SameSite=Lax`)
    expect(headers.get('Cache-Control')).toBe('private, no-store')
  })

  it('says it once: the notice rides a one-time cookie, never the address, and a shared link greets nobody', async () => {
    const { headers } = await post({ choice: 'accept', return: '/it-it/products?type=x' })
    expect(headers.get('Location')).not.toContain('notice')
    const carried = headers.getSetCookie().find((line) => line.startsWith('__Host-Notice='))
    expect(carried).toBe('__Host-Notice=consent_saved; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax')
    const saved =
      '<p class="toast" role="status" data-notice="consent_saved">Le Sue scelte sui cookie sono state salvate.</p>'
    const shown = await visit('/it-it/products?type=x', {
      headers: { Cookie: 'CountryLocale=it-it; __Host-Notice=consent_saved' },
    })
    expect(shown.text).toContain(saved)
    // Shown, the cookie ends: a reload says nothing, and no cache keeps the page that said it.
    expect(shown.headers.getSetCookie().join()).toMatch(/__Host-Notice=; Max-Age=0/)
    expect(shown.headers.get('Cache-Control')).toMatch(/private|no-store/)
    // A link shared with the old query greets nobody.
    const shared = await visit('/it-it/products?type=x&notice=consent_saved')
    expect(shared.text).not.toContain('class="toast"')
  })

  it('goes back to a same-site path only', async () => {
    for (const target of ['//attacker.example/x', 'https://attacker.example/', '/\\attacker.example']) {
      const { headers } = await post({ choice: 'reject', return: target })
      expect(headers.get('Location'), target).toBe('/')
    }
  })

  it('answers 400 for a choice it does not know, and sets nothing', async () => {
    const { status, headers } = await post({ choice: 'everything' })
    expect(status).toBe(400)
    expect(headers.get('Set-Cookie')).toBeNull()
  })

  it('refuses a post from another site', async () => {
    const { status, headers } = await post(
      { choice: 'accept' },
      { Origin: 'https://attacker.example', 'Sec-Fetch-Site': 'cross-site' },
    )
    expect(status).toBe(403)
    expect(headers.get('Set-Cookie')).toBeNull()
  })
})

describe('the cookie policy', () => {
  /** The href of the banner's policy link. */
  const bannerPolicy = (text: string) =>
    text.match(/<section id="cookie-settings"[\s\S]*?<div class="consent-intro">[\s\S]*?<a href="([^"]+)"/)?.[1]

  it.each([
    ['it-it', '70401003'],
    ['es-es', '70401002'],
    ['gr-el', '70401005'],
    ['pt-pt', '70401004'],
    ['int-en', '70401001'],
  ])("is linked from the banner of %s with its language's own policy id %s", async (market, id) => {
    const { text } = await visit(`/${market}`)
    expect(bannerPolicy(text)).toBe(`https://www.aurora-cycles.example/legal/${id}/cookie-policy`)
  })

  // A language without a policy id of its own links the market's cookie page in that language, not English's policy.
  it.each([
    ['de-de', '/de-de/cookie-richtlinie'],
    ['fr-fr', '/fr-fr/politique-de-cookies'],
    ['il-he', '/il-he/mediniyut-ugiyot'],
    ['ae-ar', '/ae-ar/siyasat-malafat-al-irtibat'],
    ['si-sl', '/si-sl/politika-piskotkov'],
    ['hr-hr', '/hr-hr/politika-kolacica'],
  ])("is the market's own translated cookie page on %s (%s), which answers 200", async (market, path) => {
    const { text } = await visit(`/${market}`)
    expect(bannerPolicy(text)).toBe(path)
    expect((await visit(path)).status).toBe(200)
  })

  it("is English's policy where the market has no cookie page in the language, and none without a deployment's policy", () => {
    const policies = { url: 'https://policies.example/{id}/cookies', ids: { en: '1', it: '3' } }
    expect(policyUrlOf('it', policies, '/it-it/informativa-cookie')).toBe('https://policies.example/3/cookies')
    expect(policyUrlOf('de', policies, null)).toBe('https://policies.example/1/cookies')
    expect(policyUrlOf('de', null, '/ch-de/cookie-richtlinie')).toBe('/ch-de/cookie-richtlinie')
    expect(policyUrlOf('de', null, null)).toBeNull()
  })

  it.each(['si-sl', 'hr-hr'])(
    'never reads an id the deployment names for the language of %s (logged), and links its own page',
    async (market) => {
      const warnings: string[] = []
      vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warnings.push(String(line)))
      const ids = '{"en":"70401001","it":"70401003","sl":"70401006","hr":"70401007"}'
      const { text } = await visit(`/${market}`, {}, { CONSENT_POLICY_IDS: ids })
      expect(bannerPolicy(text)).toMatch(new RegExp(`^/${market}/`))
      expect(text).not.toMatch(/legal\/7040100[67]\//)
      expect(warnings.map((line) => JSON.parse(line))).toContainEqual({
        level: 'warn',
        event: 'config_unused',
        variable: 'CONSENT_POLICY_IDS',
        languages: ['sl', 'hr'],
      })
    },
  )
})

describe('pages that load no tracking at all', () => {
  it('are the account pages: no tag manager, no banner, no cookie settings, no third-party origin in the CSP', async () => {
    const session = await logIn()
    const { status, text, headers } = await visit('/it-it/my-account', {
      headers: { Cookie: `${cookieHeader(session).Cookie}; ${ACCEPTED}` },
    })
    expect(status).toBe(200)
    expect(text).not.toContain('gtag(')
    expect(text).not.toContain('id="cookie-settings"')
    expect(text).not.toContain('#cookie-settings')
    expect(trackersOf(text)).toEqual([])
    expect(cspOf(headers)).not.toMatch(/googletagmanager|google-analytics|facebook/)
  })

  it.each([
    ['the error page of a market', '/it-it/no-such-page', 404],
    ['the password page', '/it-it/update-password/not-a-token', 404],
    ['the login page', '/login', 200],
    ['the landing page', '/', 200],
  ])('are %s', async (_, path, status) => {
    const answer = await visit(path, withConsent(ACCEPTED))
    expect(answer.status).toBe(status)
    expect(answer.text).not.toContain('gtag(')
    expect(answer.text).not.toContain('id="cookie-settings"')
    expect(cspOf(answer.headers)).not.toContain('googletagmanager')
  })
})

describe('caching', () => {
  it("keeps a page public for visitors who have not chosen, and the chooser's own page private", async () => {
    expect((await visit('/it-it/products')).headers.get('Cache-Control')).toBe('no-cache')
    expect((await visit('/it-it/products', withConsent(REFUSED))).headers.get('Cache-Control')).toBe(
      'private, no-cache',
    )
    expect(
      (await visit(`${ORIGIN}/it-it/products`, { headers: { 'Sec-GPC': '1' } })).headers.get('Cache-Control'),
    ).toBe('private, no-cache')
  })
})
