import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import arabic from '../../demo/messages/ar.json'
import hebrew from '../../demo/messages/he.json'
import { api } from '../../reference-api'
import type { PageIndex } from '../../contract/page-index-schemas'
import type { Site } from '../../contract/schemas'
import { slugOf } from '../fixtures/page-slugs'
import { DEMO, formPost, nextClient } from '../fixtures/session'
import { textOf, visit } from '../fixtures/worker'

const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  visit(path, formPost(fields, { 'CF-Connecting-IP': nextClient(), ...headers }))

/** The embedded API's answer to a read, as the Worker's client would get it. */
async function apiRead<T>(path: string): Promise<T> {
  const answer = await api.fetch(
    new Request(`http://embedded.invalid/api/${path}`) as Parameters<typeof api.fetch>[0],
    env,
  )
  return ((await answer.json()) as { data: T }).data
}

/**
 * The Italian market's products and articles as the page index knows them (its first sitemap parts, the articles
 * with their stories' translations): the embedded API pages them (decision 071).
 */
async function italianEntries(): Promise<Pick<PageIndex, 'products' | 'news'>> {
  const [products, news] = await Promise.all([
    apiRead<PageIndex['products']>('front/page-index/products?site=it&part=0'),
    apiRead<PageIndex['news']>('front/page-index/news?locale=it&site=it&part=0'),
  ])
  return { products, news }
}

/** The picker's form: a market and the path of the page it was sent from. */
const pick = (market: string, from?: string) => post('/_market', from === undefined ? { market } : { market, from })

/** The `<a>` of "back to the site" on a login page. */
const backLink = (html: string) => /<a href="([^"]*)">[^<]*<\/a>\s*<\/p>\s*<\/div>\s*<\/main>/.exec(html)?.[1]

describe("the login page in the visitor's language", () => {
  it('speaks the market of the redirect target: Arabic, right to left, Arabic texts, back to /ae-ar', async () => {
    const { status, text } = await visit('/login?redirect=%2Fae-ar%2Fmy-account')
    expect(status).toBe(200)
    expect(text).toContain('<html lang="ar" dir="rtl">')
    expect(textOf(text)).toContain(arabic.auth.login_title)
    expect(text).toContain('<input type="hidden" name="market" value="ae-ar"/>')
    expect(text).toContain('<input type="hidden" name="redirect" value="/ae-ar/my-account"/>')
    // My account needs the login: "back to the site" is the market's home.
    expect(backLink(text)).toBe('/ae-ar')
    expect(text).toContain(`href="/login/register?redirect=%2Fae-ar%2Fmy-account"`)
  })

  it('goes back to the public page the visitor came from', async () => {
    const { text } = await visit('/login?redirect=%2Fil-he%2Fproducts%2Faurora-strada-9')
    expect(text).toContain('<html lang="he" dir="rtl">')
    expect(textOf(text)).toContain(hebrew.auth.login_title)
    expect(backLink(text)).toBe('/il-he/products/aurora-strada-9')
  })

  it('speaks the market named by ?market=, before the remembered one, and keeps it in the links to sign up', async () => {
    const { text } = await visit('/login?market=il-he', { headers: { Cookie: 'CountryLocale=it-it' } })
    expect(text).toContain('<html lang="he" dir="rtl">')
    expect(backLink(text)).toBe('/il-he')
    expect(text).toContain('href="/login/register?market=il-he"')
    const register = await visit('/login/register?market=il-he')
    expect(register.text).toContain('<html lang="he" dir="rtl">')
    expect(register.text).toContain('<input type="hidden" name="market" value="il-he"/>')
    expect(register.text).toContain('href="/login?market=il-he"')
  })

  it('ignores a market parameter that is no live market, and a redirect elsewhere: the remembered market or int-en', async () => {
    for (const junk of ['xx-yy', 'nl-nl', 'it-xx', '%3Cscript%3E', 'ae-ar%2F..', '']) {
      const plain = await visit(`/login?market=${junk}`)
      expect(plain.status, junk).toBe(200)
      expect(plain.text, junk).toContain('<html lang="en" dir="ltr">')
      expect(backLink(plain.text), junk).toBe('/int-en')
      expect(plain.text, junk).toContain('<input type="hidden" name="market" value="int-en"/>')
    }
    const remembered = await visit('/login?market=xx-yy&redirect=https%3A%2F%2Fevil.example%2Fae-ar', {
      headers: { Cookie: 'CountryLocale=it-it' },
    })
    expect(remembered.text).toContain('<html lang="it" dir="ltr">')
    expect(backLink(remembered.text)).toBe('/it-it')
  })

  it('keeps the language after a refused POST: wrong password and a missing field answer 422 in Arabic', async () => {
    const wrong = await post('/login', {
      email: DEMO.email,
      password: 'not-the-password',
      market: 'ae-ar',
      redirect: '/ae-ar/my-account',
    })
    expect(wrong.status).toBe(422)
    expect(wrong.text).toContain('<html lang="ar" dir="rtl">')
    expect(textOf(wrong.text)).toContain(arabic.auth.failed)
    const empty = await post('/login', { email: '', password: '', redirect: '/ae-ar/my-account' })
    expect(empty.status).toBe(422)
    expect(empty.text).toContain('<html lang="ar" dir="rtl">')
    const forgot = await post('/login/forgot', { forgot_email: 'not an address', market: 'ae-ar' })
    expect(forgot.status).toBe(422)
    expect(forgot.text).toContain('<html lang="ar" dir="rtl">')
  })

  it('logs in and comes back to the redirect target in its market; "forgot password" mails a link of that market', async () => {
    const answer = await post('/login', { ...DEMO, market: 'ae-ar', redirect: '/ae-ar/my-account' })
    expect(answer.status).toBe(303)
    expect(answer.headers.get('Location')).toBe('/ae-ar/my-account')
    const forgot = await post('/login/forgot', { forgot_email: DEMO.email, market: 'ae-ar' })
    expect(forgot.status).toBe(303)
    expect(forgot.headers.get('Location')).toBe('/login?market=ae-ar')
    const mail = await env.DB.prepare('SELECT body FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1')
      .bind(DEMO.email)
      .first<{ body: string }>()
    expect(mail?.body).toMatch(/https:\/\/site\.test\/ae-ar\/update-password\//)
    expect((await visit(forgot.headers.get('Location') as string)).text).toContain('<html lang="ar" dir="rtl">')
  })
})

describe('the market picker', () => {
  it("sends the page's path with the pick, from the header of every market page", async () => {
    const { text } = await visit('/it-it/products/aurora-strada-9')
    const picker = text.slice(text.indexOf('class="market-picker-panel"'))
    expect(picker).toMatch(
      /^[^>]*action="\/_market"[^>]*><input type="hidden" name="from" value="\/it-it\/products\/aurora-strada-9"\/>/,
    )
  })

  it('lands on the same product, listing, news index and home in the other market', async () => {
    const index = await italianEntries()
    const both = index.products.find((p) => p.sites.includes('it') && p.sites.includes('de'))!
    for (const [from, to] of [
      [`/it-it/products/${both.slug}`, `/de-de/products/${both.slug}`],
      [`/it-it/products/type/${both.type}`, `/de-de/products/type/${both.type}`],
      ['/it-it/products', '/de-de/products'],
      ['/it-it/news', '/de-de/news'],
      ['/it-it', '/de-de'],
    ]) {
      const answer = await pick('de-de', from)
      expect(answer.status, from).toBe(303)
      expect(answer.headers.get('Location'), from).toBe(to)
      expect(answer.headers.getSetCookie().join(), from).toContain('CountryLocale=de-de')
    }
  })

  it("lands on a content page at the other market's own slug, the dealer locator included", async () => {
    for (const [from, market, key] of [
      ['/it-it/chi-siamo', 'ch-fr', 'about-us'],
      ['/it-it/rivenditori', 'il-he', 'dealer-locator'],
      [`/ch-de/${slugOf('ch-de', 'contact-us')}`, 'ae-ar', 'contact-us'],
    ] as const) {
      const answer = await pick(market, from)
      expect(answer.headers.get('Location'), from).toBe(`/${market}/${slugOf(market, key)}`)
    }
  })

  it('lands on the translation of an article, and on the home where the article has none', async () => {
    const index = await italianEntries()
    const story = index.news.find(
      (a) =>
        a.locale === 'it' &&
        a.scope === '*' &&
        a.story &&
        index.news.some((b) => b.story === a.story && b.locale === 'de'),
    )!
    const german = index.news.find((b) => b.story === story.story && b.locale === 'de')!
    expect((await pick('de-de', `/it-it/news/details/${story.slug}`)).headers.get('Location')).toBe(
      `/de-de/news/details/${german.slug}`,
    )
    const lonely = index.news.find(
      (a) =>
        a.locale === 'it' && !index.news.some((b) => b !== a && b.story && b.story === a.story && b.locale === 'de'),
    )
    if (lonely)
      expect((await pick('de-de', `/it-it/news/details/${lonely.slug}`)).headers.get('Location')).toBe('/de-de')
  })

  it('lands on the home where the page does not exist: a product not sold there, a dealer of another market, a switched-off page', async () => {
    const index = await italianEntries()
    const sites = await apiRead<Site[]>('sites')
    const onlyIt = index.products.find((p) => p.sites.includes('it') && !p.sites.includes('us'))
    if (onlyIt) expect((await pick('us-en', `/it-it/products/${onlyIt.slug}`)).headers.get('Location')).toBe('/us-en')
    expect((await pick('de-de', '/it-it/dealers/cicli-bergamasca')).headers.get('Location')).toBe('/de-de')
    // Test rides are off in de-de (demo/markets.json): from the Italian test ride to the German home.
    expect(sites.find((s) => s.slug === 'de')?.settings.test_ride_inquiry).toBe(false)
    expect((await pick('de-de', `/it-it/${slugOf('it-it', 'test-drive')}`)).headers.get('Location')).toBe('/de-de')
    expect((await pick('de-de', '/it-it/my-account/orders')).headers.get('Location')).toBe('/de-de')
  })

  it('never follows a posted path elsewhere: another origin, a market that is not live, junk, none', async () => {
    for (const from of [
      'https://evil.example/it-it',
      '//evil.example/it-it/chi-siamo',
      '/\\evil.example',
      '/nl-nl/over-ons',
      '/xx-yy/chi-siamo',
      '/it-it/chi-siamo/../../evil',
      'javascript:alert(1)',
      '/it-it/\u0000',
      '',
    ]) {
      const answer = await pick('de-de', from)
      expect(answer.status, from).toBe(303)
      expect(answer.headers.get('Location'), from).toBe('/de-de')
    }
    expect((await pick('de-de')).headers.get('Location')).toBe('/de-de')
    expect((await pick('xx-yy', '/it-it/chi-siamo')).status).toBe(400)
  })
})

describe('the maintenance page', () => {
  it('links to the market picker of the landing page, never to the market under maintenance', async () => {
    const { status, text } = await visit('/nl-nl/over-ons')
    expect(status).toBe(503)
    expect(text).toContain('<a class="button" href="/">')
    expect(text).not.toContain('href="/nl-nl')
  })
})

describe('per-language slugs', () => {
  it('serves each locale of a multi-locale market at its own slugs, in the site record as pageLinksByLocale', async () => {
    const ch = await apiRead<Site>('sites/ch')
    expect(ch.pageLinks['test-drive']).toBe('probefahrt')
    expect(ch.pageLinksByLocale.fr?.['test-drive']).toBe('essai')
    expect(ch.pageLinksByLocale.it?.['test-drive']).toBe('prova-su-strada')
    for (const path of [
      '/ch-de/probefahrt',
      '/ch-fr/essai',
      '/ch-it/prova-su-strada',
      '/us-en/test-drive',
      '/us-es/prueba-de-bici',
      '/ae-ar/ittasil-bina',
      '/ae-en/contact-us',
      '/il-he/tsor-kesher',
      '/it-it/lavora-con-noi',
    ]) {
      expect((await visit(path)).status, path).toBe(200)
    }
    const french = await visit('/ch-fr')
    expect(french.text).toContain('href="/ch-fr/essai"')
    expect(french.text).not.toContain('href="/ch-fr/probefahrt"')
  })

  it("gives hreflang alternates at each locale's own slug", async () => {
    const { text } = await visit('/ch-fr/essai')
    expect(text).toContain('hrefLang="de-CH" href="https://site.test/ch-de/probefahrt"')
    expect(text).toContain('hrefLang="fr-CH" href="https://site.test/ch-fr/essai"')
    expect(text).toContain('hrefLang="it-CH" href="https://site.test/ch-it/prova-su-strada"')
    expect(text).toContain('hrefLang="ar-AE" href="https://site.test/ae-ar/tajribat-qiyada"')
    expect(text).toContain('hrefLang="en-AE" href="https://site.test/ae-en/test-drive"')
  })

  it("moves the old English slug and a sibling locale's slug to the localised page for good, query and /sent kept", async () => {
    for (const [from, to] of [
      ['/it-it/work-with-us', '/it-it/lavora-con-noi'],
      ['/it-it/test-drive?model=aurora-strada-9', '/it-it/prova-su-strada?model=aurora-strada-9'],
      ['/ch-fr/probefahrt', '/ch-fr/essai'],
      ['/il-he/contact-us', '/il-he/tsor-kesher'],
      ['/it-it/test-drive/sent?reference=TR-ABCD-EFGH', '/it-it/prova-su-strada/sent?reference=TR-ABCD-EFGH'],
    ] as const) {
      const answer = await visit(from)
      expect(answer.status, from).toBe(301)
      expect(answer.headers.get('Location'), from).toBe(to)
    }
    const posted = await post('/it-it/contact-us', { name: 'x' })
    expect(posted.status).toBe(308)
    expect(posted.headers.get('Location')).toBe('/it-it/contatti')
  })

  it('still applies the switches: an old slug of a switched-off page is not moved but answers 404, like its new one', async () => {
    for (const path of [
      '/de-de/test-drive',
      '/de-de/probefahrt',
      '/fr-fr/become-a-dealer',
      '/fr-fr/devenir-revendeur',
    ]) {
      expect((await visit(path)).status, path).toBe(404)
    }
    // A slug that was never one of the market's pages is no page.
    expect((await visit('/it-it/probefahrt-xyz')).status).toBe(404)
  })
})
