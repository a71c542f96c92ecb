/**
 * The references of submissions as the embedded API makes them; the Worker makes one the same way for a bot it caught,
 * so that its confirmation looks like any other.
 */

/** Crockford's base32: no I, L, O, U — nothing to misread on the phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A new reference, `TR-4K7M-Q2XD`: 40 random bits after the form's letters. */
export function newReference(prefix: string): string {
  const chars = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => ALPHABET[byte % 32])
  return `${prefix}-${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`
}
