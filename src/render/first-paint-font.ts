import { type FontScript, assets } from './assets'

/** The languages that write in a script of their own; every other market language writes in Latin letters. */
const SCRIPT_OF_LANGUAGE: Record<string, FontScript> = { el: 'greek', he: 'hebrew', ar: 'arabic' }

/**
 * The scripts whose own face is small enough (Hebrew 12 KiB, Greek 19 KiB gzip against Latin's 47) to share the first
 * bandwidth with the Latin face, which their pages need too: Inter's Latin range holds the space, the digits and
 * the brand's and products' names, so every page lays out some of its text in it and fetches it anyway, only later,
 * once its first style pass finds it (docs/decisions/085). Arabic's face (162 KiB) is preloaded alone, so as not to
 * come later itself.
 */
const WITH_LATIN: ReadonlySet<FontScript> = new Set(['hebrew', 'greek'])

/**
 * The brand typeface's files a page in this language paints with first, the ones it preloads (docs/decisions/056,
 * 085): Latin in a language written in Latin letters; Hebrew then Latin in il-he, Greek then Latin in Greek; Arabic
 * in ae-ar. The other scripts' files load only when a page shows their letters (their `unicode-range`).
 *
 * @example
 * firstPaintFonts('he') // ['/assets/noto-sans-hebrew-hebrew-wght-normal-….woff2', '/assets/inter-latin-wght-normal-….woff2']
 */
export function firstPaintFonts(locale: string): readonly string[] {
  const language = locale.toLowerCase().split('-')[0] ?? ''
  const script = SCRIPT_OF_LANGUAGE[language]
  if (script === undefined) return [assets.fonts.latin]
  return WITH_LATIN.has(script) ? [assets.fonts[script], assets.fonts.latin] : [assets.fonts[script]]
}
