import { describe, expect, it } from 'vitest'
import pages from '../../demo/content/pages.json'
import hebrew from '../../demo/messages/he.json'
import italian from '../../demo/messages/it.json'
import spanish from '../../demo/messages/es.json'
import { SOCIAL_PROFILES } from '../../src/components/social-links'
import { slugOf } from '../fixtures/page-slugs'
import { textOf, visit } from '../fixtures/worker'

type Locale = keyof (typeof pages)['legal-notice']
/** The trust and legal pages, in the footer's order. */
const LEGAL = [
  'legal-notice',
  'terms-of-sale',
  'delivery-returns',
  'warranty',
  'privacy-policy',
  'cookie-policy',
] as const
/** The pages that exist only where the market sells online. */
const SELLING = ['terms-of-sale', 'delivery-returns']

/** The footer's "Legal" column. */
const legalColumn = (html: string, label: string) => {
  const footer = html.slice(html.indexOf('<footer'))
  const start = footer.indexOf(`<h2>${label}</h2>`)
  return footer.slice(start, footer.indexOf('</ul>', start))
}

describe('the trust and legal pages', () => {
  it('answer 200 in it-it at their Italian slugs, in Italian, with their own Open Graph picture', async () => {
    const slugs = LEGAL.map((key) => `/it-it/${slugOf('it-it', key)}`)
    expect(slugs).toEqual([
      '/it-it/note-legali',
      '/it-it/condizioni-di-vendita',
      '/it-it/spedizioni-e-resi',
      '/it-it/garanzia',
      '/it-it/informativa-privacy',
      '/it-it/informativa-cookie',
    ])
    for (const [i, key] of LEGAL.entries()) {
      const { status, text } = await visit(slugs[i]!)
      expect(status, key).toBe(200)
      expect(text, key).toContain('<html lang="it" dir="ltr">')
      expect(text, key).toContain(`<h1>${pages[key].it.title}</h1>`)
      expect(text, key).toContain(`/images/og/${key}.svg`)
    }
  })

  it('answer in Hebrew, right to left, in il-he, their numbers and addresses isolated left to right', async () => {
    const { status, text } = await visit('/il-he/meida-mishpati')
    expect(status).toBe(200)
    expect(text).toContain('<html lang="he" dir="rtl">')
    expect(text).toContain(`<h1>${pages['legal-notice'].he.title}</h1>`)
    expect(text).toContain('\u2066IT01987650163\u2069')
    expect(text).toContain('\u2066+39 035 000 0000\u2069')
  })

  it('name the company, its address, registration and VAT numbers in every language', () => {
    for (const locale of Object.keys(pages['legal-notice']) as Locale[]) {
      const all = JSON.stringify(pages['legal-notice'][locale].blocks)
      for (const fact of ['Aurora Cycles S.p.A.', 'Via delle Officine 12', '24126', 'BG-198765', 'IT01987650163'])
        expect(all, locale).toContain(fact)
    }
  })

  it('are all linked under "Legal" in the footer, in order, at the market\'s slugs and in its language', async () => {
    for (const [market, messages] of [
      ['it-it', italian],
      ['il-he', hebrew],
      ['es-es', spanish],
    ] as const) {
      const column = legalColumn((await visit(`/${market}`)).text, messages.footer.legal)
      const links = [...column.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map(([, href, label]) => [href, label])
      expect(links.slice(0, LEGAL.length), market).toEqual(
        LEGAL.map((key) => [`/${market}/${slugOf(market, key)}`, messages.pages[key]]),
      )
    }
  })

  it('leave out the terms of sale and delivery where the market does not sell online: not linked, 404 at their slugs', async () => {
    for (const market of ['mx-es', 'au-en', 'int-en'] as const) {
      const home = (await visit(`/${market}`)).text
      for (const key of SELLING) {
        expect(home, `${market} ${key}`).not.toContain(`href="/${market}/${slugOf(market, key)}"`)
        expect((await visit(`/${market}/${slugOf(market, key)}`)).status, `${market} ${key}`).toBe(404)
      }
      for (const key of ['legal-notice', 'warranty', 'cookie-policy']) {
        expect(home, `${market} ${key}`).toContain(`href="/${market}/${slugOf(market, key)}"`)
        expect((await visit(`/${market}/${slugOf(market, key)}`)).status, `${market} ${key}`).toBe(200)
      }
    }
  })

  it("give hreflang alternates at each market's own slug", async () => {
    const { text } = await visit('/it-it/note-legali')
    expect(text).toContain('hrefLang="de-DE" href="https://site.test/de-de/impressum"')
    expect(text).toContain('hrefLang="fr-FR" href="https://site.test/fr-fr/mentions-legales"')
    expect(text).toContain('hrefLang="he-IL" href="https://site.test/il-he/meida-mishpati"')
  })
})

describe("the footer's social links", () => {
  it("are plain links to the brand's four profiles, each named in the page's language, with an inline icon and nothing loaded from them", async () => {
    for (const [market, messages] of [
      ['it-it', italian],
      ['il-he', hebrew],
    ] as const) {
      const { text } = await visit(`/${market}`)
      const footer = text.slice(text.indexOf('<footer'))
      expect(SOCIAL_PROFILES.map((p) => p.network)).toEqual(['Instagram', 'YouTube', 'Strava', 'Facebook'])
      for (const { network, url } of SOCIAL_PROFILES) {
        const link = new RegExp(
          `<a href="${url.replace(/[.?]/g, '\\$&')}" rel="me noopener" class="social-link"><svg[^>]*aria-hidden="true"[^>]*>[\\s\\S]*?</svg><span class="visually-hidden">([^<]+)</span></a>`,
        ).exec(footer)
        expect(link?.[1], `${market} ${network}`).toBe(messages.footer.social_on.replace('{{network}}', network))
        // No script, image or frame of the network reaches the page.
        expect(text).not.toMatch(new RegExp(`<(script|img|iframe)[^>]+${new URL(url).hostname.replace(/\./g, '\\.')}`))
      }
      expect(textOf(footer)).toContain(messages.footer.follow)
    }
  })
})
