import { isolateMemo } from '../cache/memo'
import { fromBase64, toBase64 } from '../crypto/digest'
import { keyIdOf, keyOf, type WhistleblowerKeyring, withKeyId } from './keyring'

/**
 * Envelope encryption of whistleblower reports (EU Directive 2019/1937 asks that a report stay confidential): each report
 * has its own AES-GCM key, which encrypts its text and its attachments; that key is stored only wrapped (AES-KW) with
 * a key derived from the newest of the deployment's whistleblower keys (`WHISTLEBLOWER_KEYS`, src/whistleblower/keyring.ts),
 * and names that key's id. Neither D1 nor R2 ever holds plain text, and a wrapped key is useless without its secret.
 */

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const IV_BYTES = 12
const derivedKeys = isolateMemo<Promise<CryptoKey>>({ limit: 16 })

/**
 * A key derived from the secret by HKDF-SHA-256 for one use (`info`), imported once per isolate: each use gets its
 * own key, so holding one opens nothing of another's.
 */
export function derivedKey(
  secret: string,
  info: string,
  algorithm: AesKeyGenParams,
  usages: KeyUsage[],
): Promise<CryptoKey> {
  return derivedKeys.remember(`${info}\u0000${secret}`, () =>
    crypto.subtle
      .importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((material) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(info) },
          material,
          algorithm,
          false,
          usages,
        ),
      ),
  )
}

/** The key that wraps report keys, of one key of the ring. */
const wrappingKeyOf = (secret: string) =>
  derivedKey(secret, 'whistleblower-report-keys', { name: 'AES-KW', length: 256 }, ['wrapKey', 'unwrapKey'])

/** A report key wrapped with the ring's newest key, written with its id (`v2:{id}:` and base64). */
async function wrapReportKey(keyring: WhistleblowerKeyring, key: CryptoKey): Promise<string> {
  const wrapped = await crypto.subtle.wrapKey('raw', key, await wrappingKeyOf(keyring.newest.secret), 'AES-KW')
  return withKeyId(keyring.newest.id, toBase64(new Uint8Array(wrapped)))
}

/** A stored report key unwrapped with the key it names; throws UnknownKeyId, or when it was altered. */
async function unwrapReportKey(keyring: WhistleblowerKeyring, wrapped: string, extractable: boolean) {
  const { id, value } = keyIdOf(wrapped)
  const wrapping = await wrappingKeyOf(keyOf(keyring, id).secret)
  return crypto.subtle.unwrapKey('raw', fromBase64(value), wrapping, 'AES-KW', 'AES-GCM', extractable, [
    'encrypt',
    'decrypt',
  ])
}

/** A report's key and its wrapped form (under the ring's newest key), to store beside the report. */
export async function newReportKey(keyring: WhistleblowerKeyring): Promise<{ key: CryptoKey; wrapped: string }> {
  const key = (await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
    'decrypt',
  ])) as CryptoKey
  return { key, wrapped: await wrapReportKey(keyring, key) }
}

/**
 * A stored report key, unwrapped with the ring's key it names (none: the legacy one); throws UnknownKeyId when the
 * ring holds no such key, or when it was altered.
 */
export const openReportKey = (keyring: WhistleblowerKeyring, wrapped: string): Promise<CryptoKey> =>
  unwrapReportKey(keyring, wrapped, false)

/**
 * A stored report key wrapped again under the ring's newest key, or null when it already is (what it seals, its texts
 * and attachments, stays as it is). Throws as `openReportKey` does.
 */
export async function rewrapReportKey(keyring: WhistleblowerKeyring, wrapped: string): Promise<string | null> {
  if (keyIdOf(wrapped).id === keyring.newest.id) return null
  return wrapReportKey(keyring, await unwrapReportKey(keyring, wrapped, true))
}

/** Bytes sealed with a report's key: a fresh IV, then the ciphertext with its tag. */
export async function sealBytes(key: CryptoKey, bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, bytes))
  const out = new Uint8Array(IV_BYTES + sealed.length)
  out.set(iv)
  out.set(sealed, IV_BYTES)
  return out
}

/** Sealed bytes opened; throws when they were altered or sealed with another key. */
export async function openBytes(key: CryptoKey, sealed: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = sealed.slice(0, IV_BYTES)
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed.slice(IV_BYTES)))
}

/** A text sealed with a report's key, as base64 (for a D1 column). */
export const sealText = async (key: CryptoKey, text: string) => toBase64(await sealBytes(key, encoder.encode(text)))

/** A sealed text (base64) opened. */
export const openText = async (key: CryptoKey, sealed: string) =>
  decoder.decode(await openBytes(key, fromBase64(sealed)))
