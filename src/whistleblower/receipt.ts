import { isolateMemo } from '../cache/memo'
import { sha256Hex } from '../crypto/digest'
import { CROCKFORD_ALPHABET, grouped, randomCrockford, readCrockford } from '../crypto/crockford'

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

const encoder = new TextEncoder()
const hmacKeys = isolateMemo<Promise<CryptoKey>>({ limit: 16 })

/** The HMAC key receipts are derived with: a key of its own, derived by HKDF from the secret, imported once per isolate. */
const receiptKeyOf = (secret: string): Promise<CryptoKey> =>
  hmacKeys.remember(secret, () =>
    crypto.subtle
      .importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode('whistleblower-receipts') },
          material,
          { name: 'HMAC', hash: 'SHA-256', length: 256 },
          false,
          ['sign'],
        ),
      ),
  )

/** `count` Crockford characters (5 bits each) of the HMAC of `label:submissionKey`. */
async function derived(key: CryptoKey, label: string, submissionKey: string, count: number): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${label}:${submissionKey}`)))
  return Array.from(bytes.subarray(0, count), (byte) => CROCKFORD_ALPHABET[byte & 31]).join('')
}

/**
 * The receipt code and passphrase of the report sent with this submission key (the form token's id), derived with
 * HMAC under `WHISTLEBLOWER_KEY`: the same form sent twice (a double click, a retried POST) shows the same receipt as
 * the report stored, and nobody without the secret can compute one from the key. Same formats as `newReceiptCode` and
 * `newPassphrase` (80 and 120 bits).
 */
export async function receiptFor(secret: string, submissionKey: string): Promise<{ code: string; passphrase: string }> {
  const key = await receiptKeyOf(secret)
  const [code, passphrase] = await Promise.all([
    derived(key, 'receipt-code', submissionKey, CODE_CHARS),
    derived(key, 'passphrase', submissionKey, PASSPHRASE_CHARS),
  ])
  return { code: `WB-${grouped(code)}`, passphrase: grouped(passphrase) }
}

/**
 * The submission key a report is stored under: the SHA-256 of the form token's id, never the id itself, so that what
 * the API keeps (with the secret) cannot give back the passphrase `receiptFor` derived from the id.
 */
export const storedSubmissionKey = (formTokenId: string) => sha256Hex(`whistleblower-report:${formTokenId}`)

/** A typed receipt code in its stored form, or null when it cannot be one. */
export function readReceiptCode(typed: string): string | null {
  const text = readCrockford(typed)
  // With its `WB` or without: a code of its own may start with W and B too.
  const code = text?.length === CODE_CHARS + 2 && text.startsWith('WB') ? text.slice(2) : text
  return code && code.length === CODE_CHARS ? `WB-${grouped(code)}` : null
}

/** A typed passphrase in the form it was given (and hashed), or null when it cannot be one. */
export function readPassphrase(typed: string): string | null {
  const text = readCrockford(typed)
  return text && text.length === PASSPHRASE_CHARS ? grouped(text) : null
}
