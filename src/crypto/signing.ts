import { isolateMemo } from '../cache/memo'
import { fromBase64Url, toBase64Url } from './digest'

/**
 * HMAC-SHA256 signatures under keys derived from a secret and a label (`device-cookie`, `form-token`): what a browser
 * holds and gives back unchanged (device cookies, form tokens) is proven by its signature, nothing is stored.
 */

const encoder = new TextEncoder()
const keys = isolateMemo<Promise<CryptoKey>>({ limit: 32 })

/** The HMAC key of a secret for one use: the SHA-256 of the label and the secret, imported once per isolate. */
function keyOf(secret: string, label: string): Promise<CryptoKey> {
  const name = `${label}:${secret}`
  return keys.remember(name, () =>
    crypto.subtle
      .digest('SHA-256', encoder.encode(name))
      .then((bytes) =>
        crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
      ),
  )
}

/** A text's signature for one use, base64url (43 characters). */
export async function signText(secret: string, label: string, text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(secret, label), encoder.encode(text))))
}

/**
 * Whether a signature (base64url) is the text's for this use: made with `secret`, or with `previous` (the secret
 * before a rotation, during its overlap: docs/decisions/048).
 */
export async function verifyText(
  secret: string,
  label: string,
  text: string,
  signature: string,
  previous?: string,
): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return false
  const verifies = async (key: string) =>
    crypto.subtle.verify('HMAC', await keyOf(key, label), fromBase64Url(signature), encoder.encode(text))
  return (await verifies(secret)) || (previous !== undefined && (await verifies(previous)))
}
