export type Direction = 'ltr' | 'rtl'

const RIGHT_TO_LEFT = new Set(['he', 'ar', 'fa'])

/** The writing direction of a locale: right to left for Hebrew, Arabic and Persian. */
export const direction = (locale: string): Direction => (RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr')
