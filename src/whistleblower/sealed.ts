import { isolateMemo } from '../cache/memo'
import { fromBase64, toBase64 } from '../crypto/digest'

/**
 * Envelope encryption of whistleblower reports (EU Directive 2019/1937 asks that a report stay confidential): each report
 * has its own AES-GCM key, which encrypts its text and its attachments; that key is stored only wrapped (AES-KW) with
 * a key derived from the deployment's secret `WHISTLEBLOWER_KEY`. Neither D1 nor R2 ever holds plain text, and a
 * wrapped key is useless without the secret.
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

/** The key that wraps report keys. */
const wrappingKeyOf = (secret: string) =>
  derivedKey(secret, 'whistleblower-report-keys', { name: 'AES-KW', length: 256 }, ['wrapKey', 'unwrapKey'])

/** A report's key and its wrapped form (base64), to store beside the report. */
export async function newReportKey(secret: string): Promise<{ key: CryptoKey; wrapped: string }> {
  const key = (await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
    'decrypt',
  ])) as CryptoKey
  const wrapped = new Uint8Array(await crypto.subtle.wrapKey('raw', key, await wrappingKeyOf(secret), 'AES-KW'))
  return { key, wrapped: toBase64(wrapped) }
}

/** A stored report key, unwrapped; throws when it was wrapped with another secret or altered. */
export async function openReportKey(secret: string, wrapped: string): Promise<CryptoKey> {
  return crypto.subtle.unwrapKey('raw', fromBase64(wrapped), await wrappingKeyOf(secret), 'AES-KW', 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ])
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
