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

/** A face of the built stylesheet: its family, its file (none for a local fallback) and its characters. */
type Face = { family: string; file: string | null; ranges: [number, number][] }

/** The built stylesheet's faces and the brand's families in their order. */
function facesOf(css: string): { faces: Face[]; order: string[] } {
  const faces = (css.match(/@font-face\{[^}]*\}/g) ?? []).map((face) => ({
    family: face.match(/font-family:"?([^;"]+)"?;/)?.[1] ?? '',
    file: face.match(/url\("\.\/([^"]+)"\)/)?.[1] ?? null,
    ranges: [...(face.match(/unicode-range:([^;}]+)/)?.[1] ?? '').matchAll(/U\+([0-9A-F]+)(?:-([0-9A-F]+))?/gi)].map(
      ([, from = '0', to]) => [Number.parseInt(from, 16), Number.parseInt(to ?? from, 16)] as [number, number],
    ),
  }))
  const order = [...(css.match(/--font-brand:([^;}]+)/)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map(
    ([, name]) => name ?? '',
  )
  return { faces, order }
}

/**
 * The brand's files a page's text makes the browser download: for each character, the first family of the brand's
 * that has a face for it (a file, or a local fallback that needs none).
 */
function filesFor(text: string, { faces, order }: ReturnType<typeof facesOf>): Set<string> {
  const files = new Set<string>()
  for (const code of new Set([...text].map((c) => c.codePointAt(0) ?? 0))) {
    for (const family of order) {
      const face = faces.find((f) => f.family === family && f.ranges.some(([a, b]) => code >= a && code <= b))
      if (!face) continue
      if (face.file) files.add(face.file.replace(/-[A-Z0-9]{8}\.woff2$/, ''))
      break
    }
  }
  return files
}

/** The text a page shows: its HTML without scripts, styles and tags. */
const shownText = (html: string) =>
  html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ')

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
    expect(css).toMatch(
      /--font-brand: ?"Inter Variable", ?"Inter Fallback", ?"Inter Fallback DejaVu", ?"Noto Sans Hebrew Variable"/,
    )
    expect(css).toMatch(/:root\{[^}]*font-family:var\(--font-brand\)/)
    for (const file of Object.values(assets.fonts)) {
      const font = await env.ASSETS.fetch(`https://site.test${file}`)
      expect(font.status, file).toBe(200)
      expect(new Uint8Array(await font.arrayBuffer()).slice(0, 4), file).toEqual(new TextEncoder().encode('wOF2'))
    }
  })

  it('instances every face to the weights the stylesheet asks for (decision 088): the preloaded Latin face under 36 KiB', async () => {
    const css = await builtCss()
    const faces = (css.match(/@font-face\{[^}]*\}/g) ?? []).filter((face) => face.includes('.woff2'))
    expect(faces.length).toBeGreaterThan(0)
    // Every weight a rule asks for (`bolder` at most 900, `bold` 700) is one each brand face declares and keeps.
    const asked = [...css.replace(/@font-face\{[^}]*\}/g, '').matchAll(/font-weight:([^;}!]+)/g)].map(
      ([, value = '']) => ({ normal: 400, bold: 700, bolder: 900 })[value.trim()] ?? Number(value.trim()),
    )
    expect(asked.length).toBeGreaterThan(50)
    for (const face of faces) {
      const [from, to] = (face.match(/font-weight:(\d+) (\d+)/)?.slice(1) ?? []).map(Number)
      expect(face).toMatch(/font-weight:400 900[;}]/)
      for (const weight of asked) {
        expect(weight, face.slice(0, 60)).toBeGreaterThanOrEqual(from ?? 0)
        expect(weight, face.slice(0, 60)).toBeLessThanOrEqual(to ?? 0)
      }
    }
    // The package's Latin file with the whole axis (100–900) is 47.1 KiB; instanced to 400–900, 31.9.
    const latin = await env.ASSETS.fetch(`https://site.test${assets.fonts.latin}`)
    expect((await latin.arrayBuffer()).byteLength).toBeLessThan(36 * 1024)
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

  it("the shekel sign is drawn by the Hebrew face: no il-he page downloads Inter's Latin Extended file for it", async () => {
    const css = facesOf(await builtCss())
    for (const path of ['/il-he', '/il-he/products', '/il-he/products/aurora-strada-9']) {
      const { status, text } = await visit(path)
      expect(status, path).toBe(200)
      expect(text, path).toContain('₪')
      const files = filesFor(shownText(text), css)
      expect(files, path).toContain('noto-sans-hebrew-hebrew-wght-normal')
      expect(files, path).not.toContain('inter-latin-ext-wght-normal')
    }
  })
})
