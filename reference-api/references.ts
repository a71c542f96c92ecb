/** Crockford's base32 (no I, L, O, U): references people read aloud and write down. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * A new submission reference, `TR-4K7M-Q2XD`: 40 random bits after the form's letters, in the contract's
 * `REFERENCE_FORMAT`.
 */
export function newReference(prefix: string): string {
  const code = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => ALPHABET[byte % 32]).join('')
  return `${prefix}-${code.slice(0, 4)}-${code.slice(4)}`
}
