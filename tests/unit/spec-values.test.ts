import { describe, expect, it } from 'vitest'
import {
  feetAndInches,
  formatMeasure,
  formatQuantity,
  formatRiderHeight,
  specRuns,
  specText,
} from '../../src/catalogue/spec-values'
import type { SpecPart } from '../../contract/catalogue-schemas'

const NBSP = '\u00a0'
/** "Carbon, T800 fibre, 1,050 g" as the API serves it (the text already in the caller's locale). */
const frame = (words: [string, string]): SpecPart[] => [
  { kind: 'text', text: words[0] },
  { kind: 'code', text: 'T800' },
  { kind: 'text', text: words[1] },
  { kind: 'quantity', value: 1050, unit: 'g' },
]

describe('specification values written for a market', () => {
  it('write decimals and thousands the Italian way, the unit after a no-break space (it-IT)', () => {
    expect(formatQuantity(7.4, 'it-IT', { unit: 'kg' })).toBe(`7,4${NBSP}kg`)
    expect(formatQuantity(10450, 'it-IT', { unit: 'g' })).toBe(`10.450${NBSP}g`)
    expect(specText(frame(['Carbonio, fibra ', ', ']), 'it-IT')).toBe(`Carbonio, fibra T800, 1050${NBSP}g`)
  })

  it('write decimal commas and thousands points in German, ranges with an en dash and one unit (de-DE)', () => {
    expect(formatQuantity(3.5, 'de-DE', { unit: 'h' })).toBe(`3,5${NBSP}h`)
    expect(formatQuantity(2, 'de-DE', { to: 18, unit: 'h' })).toBe(`2–18${NBSP}h`)
    expect(formatMeasure('wheelbase', 1003, 'de-DE')).toBe('1.003')
    expect(formatMeasure('head_angle', 73, 'de-DE')).toBe('73,0°')
  })

  it('write decimal points and thousands commas in American English (en-US)', () => {
    expect(formatQuantity(7.4, 'en-US', { unit: 'kg' })).toBe(`7.4${NBSP}kg`)
    expect(formatMeasure('wheelbase', 1003, 'en-US')).toBe('1,003')
    expect(formatMeasure('seat_angle', 73.5, 'en-US')).toBe('73.5°')
    expect(formatQuantity(7, 'en-US')).toBe('7')
  })

  it('give Hebrew the Latin digits its prices use and mark codes and quantities as left-to-right runs (he-IL)', () => {
    const runs = specRuns(frame(['קרבון, סיבי ', ', ']), 'he-IL')
    expect(runs).toEqual([
      { text: 'קרבון, סיבי ', ltr: false },
      { text: 'T800', ltr: true },
      { text: ', ', ltr: false },
      { text: `1,050${NBSP}g`, ltr: true },
    ])
    // A code keeps together on one line.
    expect(specRuns([{ kind: 'code', text: '700 × 28c' }], 'he-IL')).toEqual([
      { text: `700${NBSP}×${NBSP}28c`, ltr: true },
    ])
  })

  it('give Arabic the Latin digits its prices use (as Intl writes ar-AE) and left-to-right runs (ar-AE)', () => {
    // Prices in ae-ar are Intl's ar-AE numbers (src/i18n/formats.ts): Latin digits, a decimal point.
    expect(new Intl.NumberFormat('ar-AE', { minimumFractionDigits: 2 }).format(1799.5)).toBe('1,799.50')
    expect(formatQuantity(7.4, 'ar-AE', { unit: 'kg' })).toBe(`7.4${NBSP}kg`)
    const runs = specRuns(
      [
        { kind: 'text', text: 'حتى ' },
        { kind: 'quantity', value: 110, unit: 'km' },
      ],
      'ar-AE',
    )
    expect(runs).toEqual([
      { text: 'حتى ', ltr: false },
      { text: `110${NBSP}km`, ltr: true },
    ])
  })
})

describe('rider heights', () => {
  it('are centimetres in a metric market', () => {
    expect(formatRiderHeight({ min: 168, max: 178 }, 'it-IT', 'it')).toBe(`168–178${NBSP}cm`)
  })

  it('are feet and inches, with centimetres beside them, in the United States', () => {
    expect(feetAndInches(170)).toBe(`5′${NBSP}7″`)
    expect(feetAndInches(152)).toBe(`5′${NBSP}0″`)
    expect(formatRiderHeight({ min: 168, max: 178 }, 'en-US', 'us')).toBe(`5′${NBSP}6″–5′${NBSP}10″ (168–178${NBSP}cm)`)
  })
})
