import { grouped, randomCrockford, readCrockford } from '../crypto/crockford'

/**
 * What a reporter keeps after sending a report, to follow it up without an account or a session: a receipt code
 * (which case) and a passphrase (the proof). Both in Crockford's base32, grouped by four: easy to copy, to read aloud
 * and to write down; typed back, case, spaces, dashes and the look-alikes O/0 and I/L/1 do not matter.
 */

/** Characters of a receipt code (80 random bits) and of a passphrase (120 random bits). */
const CODE_CHARS = 16
const PASSPHRASE_CHARS = 24

/** A new receipt code, `WB-K7M2-Q9XD-4HNP-T3RS`. */
export const newReceiptCode = () => `WB-${grouped(randomCrockford(CODE_CHARS))}`

/** A new passphrase, `7KQM-2XDT-…` (six groups). */
export const newPassphrase = () => grouped(randomCrockford(PASSPHRASE_CHARS))

/** A typed receipt code in its stored form, or null when it cannot be one. */
export function readReceiptCode(typed: string): string | null {
  const text = readCrockford(typed.trim().replace(/^WB[\s-]*/i, ''))
  return text && text.length === CODE_CHARS ? `WB-${grouped(text)}` : null
}

/** A typed passphrase in the form it was given (and hashed), or null when it cannot be one. */
export function readPassphrase(typed: string): string | null {
  const text = readCrockford(typed)
  return text && text.length === PASSPHRASE_CHARS ? grouped(text) : null
}
