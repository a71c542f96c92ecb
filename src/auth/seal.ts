import { isolateMemo } from '../cache/memo'
import { fromBase64, toBase64 } from '../crypto/digest'

/**
 * Authenticated encryption (AES-GCM, 256 bits) of what the session store keeps, keyed by `SESSION_SECRET`: someone
 * who can read the KV namespace reads no bearer token, and a record that was tampered with does not open.
 */

const encoder = new TextEncoder()
const keys = isolateMemo<Promise<CryptoKey>>({ limit: 16 })

/** The AES key of a secret: its SHA-256, imported once per isolate. */
const keyOf = (secret: string): Promise<CryptoKey> =>
  keys.remember(secret, () =>
    crypto.subtle
      .digest('SHA-256', encoder.encode(`session-store:${secret}`))
      .then((bytes) => crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt'])),
  )

/** Seals a value as `iv.ciphertext` (base64). */
export async function seal(secret: string, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    await keyOf(secret),
    encoder.encode(JSON.stringify(value)),
  )
  return `${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`
}

/** Opens a sealed value, or answers null when it was sealed with another secret, altered or is not ours. */
export async function open<T>(secret: string, sealed: string): Promise<T | null> {
  try {
    const [iv, data] = sealed.split('.')
    if (!iv || !data) return null
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(iv) },
      await keyOf(secret),
      fromBase64(data),
    )
    return JSON.parse(new TextDecoder().decode(plain)) as T
  } catch {
    return null
  }
}
