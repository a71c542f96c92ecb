import { fromBase64, randomToken, sha256Hex, toBase64 } from './bytes'

/**
 * Passwords and tokens of the embedded API, on WebCrypto. A password is stored as
 * `pbkdf2-sha256$iterations$salt$hash` (base64); a token only as its SHA-256 (hex).
 */

/** The Workers runtime allows at most 100 000 PBKDF2 iterations. */
export const PBKDF2_ITERATIONS = 100_000
const KEY_BITS = 256

const encoder = new TextEncoder()

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits'])
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, KEY_BITS),
  )
}

/** Hashes a new password with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(await derive(password, salt, PBKDF2_ITERATIONS))}`
}

/** A stored hash to compare against when the account does not exist, so both cases take the same time. */
const NOBODY = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64(new Uint8Array(16))}$${toBase64(new Uint8Array(32))}`

/** Whether a password matches a stored hash (or, for `null`, spends the same time and answers false). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, iterations, salt, hash] = (stored ?? NOBODY).split('$')
  if (scheme !== 'pbkdf2-sha256' || !iterations || !salt || !hash) return false
  const derived = await derive(password, fromBase64(salt), Math.min(Number(iterations), PBKDF2_ITERATIONS))
  const expected = fromBase64(hash)
  let difference = derived.length ^ expected.length
  for (let i = 0; i < derived.length; i++) difference |= (derived[i] as number) ^ (expected[i] ?? 0)
  return stored !== null && difference === 0
}

/** A new random bearer or reset token (base64url, 256 bits). */
export const newToken = randomToken

/** The stored form of a token: its SHA-256. */
export const tokenHash = sha256Hex
