import { isolateMemo } from '../cache/memo'
import type { SizeGuideRow, SpecPart } from '../../contract/catalogue-schemas'

/**
 * Specification values and frame measurements written for a market: numbers the market's way (`7,4 kg` in it-IT,
 * `1.050 mm` in de-DE, `7.4 kg` in en-US), in the digits its prices use (Intl's defaults for the tag: Latin digits in
 * he-IL and ar-AE too), unit symbols as the SI writes them in every language, and every left-to-right run marked so a
 * right-to-left page can isolate it ("700 × 28c", "7.4 kg" never reorder inside Hebrew or Arabic).
 */

/** A run of a written value: `ltr` runs (codes, numbers with units) are isolated on right-to-left pages. */
export type Run = { text: string; ltr: boolean }

const NBSP = '\u00a0'
const numberFormats = isolateMemo<Intl.NumberFormat>({ limit: 256 })

/** A number in the market's digits and separators, with `fixed` decimals or up to two when they matter. */
export function formatNumber(value: number, tag: string, fixed?: number): string {
  const format = numberFormats.remember(
    `${tag}:${fixed ?? ''}`,
    () =>
      new Intl.NumberFormat(
        tag,
        fixed === undefined
          ? { maximumFractionDigits: 2 }
          : { minimumFractionDigits: fixed, maximumFractionDigits: fixed },
      ),
  )
  return format.format(value)
}

/**
 * A quantity: `7,4 kg`, a range `2–18 h` (one unit after both ends), a count `7`; the unit follows a no-break space,
 * except the degree sign, which follows the number (`73,5°`).
 */
export function formatQuantity(
  value: number,
  tag: string,
  options: { to?: number | null; unit?: string | null; fixed?: number } = {},
): string {
  const { to, unit, fixed } = options
  const numbers =
    to === undefined || to === null
      ? formatNumber(value, tag, fixed)
      : `${formatNumber(value, tag, fixed)}–${formatNumber(to, tag, fixed)}`
  if (!unit) return numbers
  return unit === '°' ? `${numbers}°` : `${numbers}${NBSP}${unit}`
}

/**
 * A specification's value as runs: its text as translated, codes as they are, quantities the market's way. A code or
 * a quantity never breaks across lines ("160/140 mm", "700 × 28c" keep together): their spaces are no-break spaces.
 */
export function specRuns(parts: SpecPart[], tag: string): Run[] {
  return parts.map((part) => {
    if (part.kind === 'text') return { text: part.text, ltr: false }
    if (part.kind === 'code') return { text: part.text.replace(/ /g, NBSP), ltr: true }
    return { text: formatQuantity(part.value, tag, { to: part.to, unit: part.unit }), ltr: true }
  })
}

/** A specification's value as one string (what a screen reader or a plain-text summary reads). */
export function specText(parts: SpecPart[], tag: string): string {
  return specRuns(parts, tag)
    .map((run) => run.text)
    .join('')
}

/** The frame measurements of a size guide, in the order the table lists them, with their units. */
export const GEOMETRY_MEASURES = [
  ['stack', 'mm'],
  ['reach', 'mm'],
  ['seat_tube', 'mm'],
  ['top_tube', 'mm'],
  ['head_angle', '°'],
  ['seat_angle', '°'],
  ['chainstay', 'mm'],
  ['wheelbase', 'mm'],
] as const satisfies ReadonlyArray<readonly [keyof SizeGuideRow['geometry'], 'mm' | '°']>

export type GeometryMeasure = (typeof GEOMETRY_MEASURES)[number][0]

/** The unit of a frame measurement, which the table gives once beside its name. */
export const measureUnit = (measure: GeometryMeasure): 'mm' | '°' =>
  GEOMETRY_MEASURES.find(([name]) => name === measure)?.[1] ?? 'mm'

/**
 * One frame measurement in a table cell: lengths in whole millimetres without the unit (the row's name carries it:
 * `1.003` in de-DE), angles to a tenth of a degree with the sign (`73,5°`).
 */
export function formatMeasure(measure: GeometryMeasure, value: number, tag: string): string {
  return measureUnit(measure) === '°'
    ? formatQuantity(value, tag, { unit: '°', fixed: 1 })
    : formatNumber(value, tag, 0)
}

/** Markets whose visitors give their height in feet and inches: the United States. */
const IMPERIAL_HEIGHTS = new Set(['us'])

/** Whether a market (its country code) writes rider heights in feet and inches, beside centimetres. */
export const heightsInFeet = (country: string): boolean => IMPERIAL_HEIGHTS.has(country)

/** A height in feet and inches, to the nearest inch: 170 → `5′ 7″`. */
export function feetAndInches(cm: number): string {
  const inches = Math.round(cm / 2.54)
  return `${Math.floor(inches / 12)}′${NBSP}${inches % 12}″`
}

/**
 * A size's rider heights: `168–178 cm`, and in a market that measures people in feet `5′ 6″–5′ 10″ (168–178 cm)`.
 */
export function formatRiderHeight(range: SizeGuideRow['rider_height_cm'], tag: string, country: string): string {
  const metric = formatQuantity(range.min, tag, { to: range.max, unit: 'cm' })
  return heightsInFeet(country) ? `${feetAndInches(range.min)}–${feetAndInches(range.max)} (${metric})` : metric
}
