import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { assets } from '../../src/render/assets'
import { LIVE_SEGMENTS } from '../fixtures/demo-markets'
import { clearCaches, visit } from '../fixtures/worker'

beforeEach(clearCaches)

/** The brand typeface's files the built stylesheet names, by family (docs/decisions/056). */
const FAMILIES = ['Inter Variable', 'Noto Sans Hebrew Variable', 'Noto Sans Arabic Variable']

/** The built stylesheet, as the site serves it. */
async function builtCss(): Promise<string> {
  const answer = await env.ASSETS.fetch(`https://site.test${assets.css}`)
  expect(answer.status).toBe(200)
  return answer.text()
}

/** The `<link rel="preload" as="font">` of a page's head. */
const fontPreloads = (html: string) => [...html.matchAll(/<link rel="preload" href="([^"]+)" as="font"[^>]*>/g)]

describe('the brand typeface (docs/decisions/056)', () => {
  it('declares each face with swap and its unicode-range, self-hosted under /assets, and a metric-matched fallback', async () => {
    const css = await builtCss()
    const faces = css.match(/@font-face\{[^}]*\}/g) ?? []
    for (const family of FAMILIES) {
      const own = faces.filter((face) => face.includes(`font-family:${family};`))
      expect(own.length, family).toBeGreaterThan(0)
      for (const face of own) {
        expect(face, family).toContain('font-display:swap')
        expect(face, family).toMatch(/unicode-range:U\+/)
        expect(face, family).toMatch(/src:url\("\.\/[a-z-]+-[A-Z0-9]{8}\.woff2"\) format\("woff2"\)/)
      }
    }
    for (const file of Object.values(assets.fonts)) expect(css).toContain(`url(".${file.replace('/assets', '')}")`)
    const fallbacks = faces.filter((face) => face.includes('Fallback;'))
    expect(fallbacks).toHaveLength(3)
    for (const face of fallbacks) {
      expect(face).toMatch(/src:local\("Arial"\)/)
      expect(face).toMatch(/size-adjust:[\d.]+%/)
      expect(face).toMatch(/ascent-override:[\d.]+%/)
      expect(face).toMatch(/descent-override:[\d.]+%/)
    }
    // The page's family is the brand's, its fallbacks right behind it.
    expect(css).toMatch(/--font-brand: ?"Inter Variable", ?"Inter Fallback", ?"Noto Sans Hebrew Variable"/)
    expect(css).toMatch(/:root\{[^}]*font-family:var\(--font-brand\)/)
    for (const file of Object.values(assets.fonts)) {
      const font = await env.ASSETS.fetch(`https://site.test${file}`)
      expect(font.status, file).toBe(200)
      expect(new Uint8Array(await font.arrayBuffer()).slice(0, 4), file).toEqual(new TextEncoder().encode('wOF2'))
    }
  })

  it("preloads exactly the face of its market's script: Latin in it-it, Hebrew in il-he, Arabic in ae-ar", async () => {
    const expected: Record<string, string> = {
      'it-it': assets.fonts.latin,
      'int-en': assets.fonts.latin,
      'il-he': assets.fonts.hebrew,
      'ae-ar': assets.fonts.arabic,
    }
    for (const [segment, file] of Object.entries(expected)) {
      expect(LIVE_SEGMENTS).toContain(segment)
      const { status, text } = await visit(`/${segment}`)
      expect(status, segment).toBe(200)
      const preloads = fontPreloads(text)
      expect(
        preloads.map((link) => link[1]),
        segment,
      ).toEqual([file])
      expect(preloads[0]?.[0], segment).toContain('type="font/woff2" crossorigin=""')
    }
    // An error page and a page without a market too: the face of the language they are written in.
    expect(fontPreloads((await visit('/il-he/no-such-page')).text).map((link) => link[1])).toEqual([
      assets.fonts.hebrew,
    ])
    expect(fontPreloads((await visit('/')).text).map((link) => link[1])).toEqual([assets.fonts.latin])
  })
})
