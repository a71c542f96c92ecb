import { type FontScript, assets } from './assets'

/** The languages that write in a script of their own; every other market language writes in Latin letters. */
const SCRIPT_OF_LANGUAGE: Record<string, FontScript> = { el: 'greek', he: 'hebrew', ar: 'arabic' }

/**
 * The brand typeface's file a page in this language paints with first, the one it preloads (docs/decisions/056):
 * Hebrew in il-he, Arabic in ae-ar, Greek in Greek, Latin elsewhere. The other scripts' files load only when a page
 * shows their letters (their `unicode-range`).
 *
 * @example
 * firstPaintFont('he') // '/assets/noto-sans-hebrew-hebrew-wght-normal-….woff2'
 */
export function firstPaintFont(locale: string): string {
  const language = locale.toLowerCase().split('-')[0] ?? ''
  return assets.fonts[SCRIPT_OF_LANGUAGE[language] ?? 'latin']
}
