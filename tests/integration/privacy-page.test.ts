import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import pages from '../../demo/content/pages.json'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import english from '../../src/i18n/en.json'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { slugOf } from '../fixtures/page-slugs'
import { clearCaches, textOf, visit } from '../fixtures/worker'

beforeEach(clearCaches)

const policy = pages['privacy-policy']
const messages = env.TEST_DEMO_MESSAGES as unknown as Record<
  string,
  { pages: Record<string, string>; footer: { legal: string; explore: string } }
>

/** The footer's columns: "Explore" (the content pages) and "Legal", as HTML. */
function footerColumns(html: string, locale: string) {
  // The footer's link columns (its newsletter form above them links the policy beside its consent).
  const footer = html.slice(html.indexOf('<nav', html.indexOf('<footer')))
  const legal = footer.indexOf(`<h2>${messages[locale]!.footer.legal}</h2>`)
  return { explore: footer.slice(0, legal), legal: footer.slice(legal) }
}

describe('the privacy policy page', () => {
  it('answers 200 at /it-it/informativa-privacy in Italian: title, controller, retention, authority and its SEO record', async () => {
    const { status, text, headers } = await visit('/it-it/informativa-privacy')
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toContain('text/html')
    expect(text).toContain('<html lang="it" dir="ltr">')
    expect(text).toContain('<h1>Informativa sulla privacy</h1>')
    const visible = textOf(text)
    expect(visible).toContain('Titolare del trattamento')
    expect(visible).toContain('Aurora Cycles S.p.A., Via delle Officine 12, 24126 Bergamo')
    expect(visible).toContain('privacy@aurora-cycles.example')
    expect(visible).toContain('Moduli inviati, CV compresi: 12 mesi dall’invio')
    expect(visible).toContain('Garante per la protezione dei dati personali')
    expect(text).toContain('<title>Informativa sulla privacy | Aurora Cycles</title>')
    expect(text).toContain(`<meta name="description" content="${policy.it.seo.meta_description}"/>`)
    expect(text).toContain('<meta property="og:image" content="https://site.test/images/og/privacy-policy.svg"/>')
  })

  it('answers 200 at /il-he/mediniyut-pratiyut in Hebrew, right to left, with its lists', async () => {
    const { status, text } = await visit('/il-he/mediniyut-pratiyut')
    expect(status).toBe(200)
    expect(text).toContain('<html lang="he" dir="rtl">')
    expect(text).toContain('<h1>מדיניות פרטיות</h1>')
    const visible = textOf(text)
    expect(visible).toContain('מי אחראי למידע שלכם')
    expect(visible).toContain('Aurora Cycles S.p.A., Via delle Officine 12, 24126 Bergamo, איטליה')
    expect(visible).toContain('טפסים שנשלחו, כולל קורות חיים: 12 חודשים מיום השליחה')
    expect(visible).toContain('הרשות להגנת הפרטיות')
    expect(text).toContain('<title>מדיניות פרטיות | Aurora Cycles</title>')
    expect(text.match(/<li>/g)?.length).toBeGreaterThanOrEqual(20)
  })

  it('answers in the language of every live market, at its slug in that language', async () => {
    for (const market of LIVE_SEGMENTS) {
      const locale = market.split('-')[1] as keyof typeof policy
      const { status, text } = await visit(`/${market}/${slugOf(market, 'privacy-policy')}`)
      expect(status, market).toBe(200)
      expect(text, market).toContain(`<h1>${policy[locale].title}</h1>`)
    }
  })
})

describe('the footer', () => {
  it('links the privacy policy under "Legal" in it-it and il-he, in their language', async () => {
    for (const [market, label] of [
      ['it-it', italian.pages['privacy-policy']],
      ['il-he', hebrew.pages['privacy-policy']],
    ] as const) {
      const { explore, legal } = footerColumns((await visit(`/${market}`)).text, market.split('-')[1]!)
      expect(legal, market).toContain(`<a href="/${market}/${slugOf(market, 'privacy-policy')}">${label}</a>`)
      expect(explore, market).not.toContain(slugOf(market, 'privacy-policy'))
    }
  })

  it("links the privacy policy from every live market's home page, and from it-it's content pages and forms", async () => {
    for (const market of LIVE_SEGMENTS) {
      const locale = market.split('-')[1]!
      const { text } = await visit(`/${market}`)
      expect(footerColumns(text, locale).legal, market).toContain(
        `<a href="/${market}/${slugOf(market, 'privacy-policy')}">${messages[locale]!.pages['privacy-policy']}</a>`,
      )
    }
    for (const path of ['/it-it/informativa-privacy', '/it-it/chi-siamo', '/it-it/rivenditori', '/it-it/contatti']) {
      expect((await visit(path)).text, path).toContain(
        `<a href="/it-it/informativa-privacy">${italian.pages['privacy-policy']}</a>`,
      )
    }
  })

  it('keeps the other content pages under "Explore"', async () => {
    const { explore } = footerColumns((await visit('/it-it')).text, 'it')
    expect(explore).toContain(`<a href="/it-it/chi-siamo">${italian.pages['about-us']}</a>`)
    expect(explore).toContain(`<a href="/it-it/rivenditori">${italian.pages['dealer-locator']}</a>`)
  })
})

describe('the lead forms', () => {
  it("link their consent to the market's privacy policy instead of the fallback sentence", async () => {
    for (const [path, privacy, link, fallback] of [
      ['/it-it/contatti', '/it-it/informativa-privacy', italian.forms.privacy_link, italian.forms.privacy_text],
      ['/il-he/tsor-kesher', '/il-he/mediniyut-pratiyut', hebrew.forms.privacy_link, hebrew.forms.privacy_text],
      ['/int-en/contact-us', '/int-en/privacy-policy', english.forms.privacy_link, english.forms.privacy_text],
    ] as const) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(200)
      expect(text, path).toContain(`<p class="hint" id="field-consent-privacy"><a href="${privacy}">${link}</a></p>`)
      expect(text, path).not.toContain(fallback)
    }
  })
})
