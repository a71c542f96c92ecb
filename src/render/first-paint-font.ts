import { type FontScript, assets } from './assets'

/** The languages that write in a script of their own; every other market language writes in Latin letters. */
const SCRIPT_OF_LANGUAGE: Record<string, FontScript> = { el: 'greek', he: 'hebrew', ar: 'arabic' }

/**
 * The scripts whose pages also paint with Inter's Latin face from the first paint on (their spaces, digits and
 * product names are in its range, Inter first in the brand's families), small enough to share the first bandwidth:
 * Arabic's face (120 KiB) is left alone (docs/decisions/088).
 */
const WITH_LATIN: ReadonlySet<FontScript> = new Set(['hebrew', 'greek'])

/**
 * The brand typeface's files a page in this language paints with first, the ones it preloads (docs/decisions/056,
 * 088): Hebrew and Latin in il-he, Greek and Latin in Greek, Arabic in ae-ar, Latin elsewhere. The other scripts'
 * files load only when a page shows their letters (their `unicode-range`).
 *
 * @example
 * firstPaintFonts('he') // ['/assets/noto-sans-hebrew-hebrew-wght-normal-….woff2', '/assets/inter-latin-wght-normal-….woff2']
 */
export function firstPaintFonts(locale: string): string[] {
  const language = locale.toLowerCase().split('-')[0] ?? ''
  const script = SCRIPT_OF_LANGUAGE[language] ?? 'latin'
  return WITH_LATIN.has(script) ? [assets.fonts[script], assets.fonts.latin] : [assets.fonts[script]]
}
