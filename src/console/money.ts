/**
 * Amounts as staff read and type them in the console (English, the ISO code beside the number): the contract's minor
 * units shown as `EUR 1,749.00`, and an amount typed in major units (`1749`, `1749.00`, `1749,5`) read back as minor
 * units of the order's currency.
 */

/** How many minor digits a currency has (EUR 2, JPY 0, BHD 3), as Intl knows it. */
export const minorDigitsOf = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2

/** Minor units as staff read them: `EUR 1,749.00`. */
export function consoleMoney(minor: number, currency: string): string {
  const digits = minorDigitsOf(currency)
  const major = new Intl.NumberFormat('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    minor / 10 ** digits,
  )
  return `${currency} ${major}`
}

/** The same amount in major units for a form's field (`1749.00`), no grouping. */
export const majorUnits = (minor: number, currency: string) =>
  (minor / 10 ** minorDigitsOf(currency)).toFixed(minorDigitsOf(currency))

/**
 * An amount typed by staff as minor units of `currency`, or null when it is no amount: digits, at most one decimal
 * point or comma, no more decimals than the currency has, above zero.
 *
 * @example
 * minorUnitsOf('1749,5', 'EUR') // 174950
 */
export function minorUnitsOf(text: string | undefined, currency: string): number | null {
  const value = (text ?? '').trim()
  const match = /^([0-9]{1,9})(?:[.,]([0-9]+))?$/.exec(value)
  if (!match) return null
  const digits = minorDigitsOf(currency)
  const fraction = match[2] ?? ''
  if (fraction.length > digits) return null
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0')
  return minor > 0 ? minor : null
}
