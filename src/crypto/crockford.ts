/**
 * Crockford's base32 (no I, L, O, U): codes people read aloud, copy and write down — references, receipt codes,
 * passphrases. Typed back, O is 0 and I and L are 1.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const ALPHABET = CROCKFORD_ALPHABET

/** `count` random characters of the alphabet, 5 random bits each. */
export function randomCrockford(count: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(count)), (byte) => ALPHABET[byte % 32]).join('')
}

/** Characters grouped by `size` with dashes (`K7M2-Q9XD`). */
export const grouped = (text: string, size = 4) => text.match(new RegExp(`.{1,${size}}`, 'g'))?.join('-') ?? ''

/**
 * What a person typed, as the code it stands for: upper case, without spaces and dashes, O read as 0, I and L as 1;
 * null when anything else is left.
 */
export function readCrockford(typed: string): string | null {
  const text = typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1')
  return /^[0-9A-HJKMNP-TV-Z]+$/.test(text) ? text : null
}
