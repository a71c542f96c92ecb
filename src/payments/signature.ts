import { isolateMemo } from '../cache/memo'

/**
 * Webhook signatures, the scheme Stripe uses (`Stripe-Signature: t=1763890000,v1=5257a8…`): HMAC-SHA-256, under the
 * webhook secret, of `{t}.{raw body}`, as hex. The timestamp is inside what is signed, so an old delivery cannot be
 * given a new time; one header may carry several `v1` signatures (a secret being rotated), any of which may match.
 */

const encoder = new TextEncoder()
const keys = isolateMemo<Promise<CryptoKey>>({ limit: 16 })

/** How far a webhook's timestamp may be from now, either way, in seconds (Stripe's libraries use the same 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300

/** Why a signature was refused: no usable header, no signature of ours, or a time outside the window. */
export type SignatureRefusal = 'malformed' | 'signature' | 'stale'

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: SignatureRefusal }

const keyOf = (secret: string): Promise<CryptoKey> =>
  keys.remember(secret, () =>
    crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]),
  )

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')

/**
 * The signature header of a body sent at `timestamp` (seconds since 1970): `t={timestamp},v1={hex HMAC}`.
 *
 * @example
 * headers.set('Payment-Signature', await signWebhook(secret, body, Math.floor(Date.now() / 1000)))
 */
export async function signWebhook(secret: string, body: string, timestamp: number): Promise<string> {
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', await keyOf(secret), encoder.encode(`${timestamp}.${body}`)),
  )
  return `t=${timestamp},v1=${hex(mac)}`
}

/**
 * Checks a signature header against the raw body: one `t` of digits, at least one `v1` of 64 hex digits (others, such
 * as Stripe's `v0`, ignored), a signature that is the secret's for `{t}.{body}` — compared by WebCrypto's
 * `verify`, in constant time — and a `t` within the tolerance of `now` (seconds). The signature is checked first, so
 * "stale" is only ever said of a delivery that really was signed with the secret.
 *
 * @example
 * const check = await verifyWebhookSignature(secret, request.headers.get('Payment-Signature'), body, Date.now() / 1000)
 */
export async function verifyWebhookSignature(
  secret: string,
  header: string | null,
  body: string,
  now: number,
  tolerance = WEBHOOK_TOLERANCE_SECONDS,
): Promise<SignatureCheck> {
  const parsed = parseHeader(header)
  if (!parsed) return { ok: false, reason: 'malformed' }
  const key = await keyOf(secret)
  const signed = encoder.encode(`${parsed.timestamp}.${body}`)
  let matches = false
  for (const signature of parsed.signatures) {
    // Every candidate is checked, so the time taken does not say which one matched.
    if (await crypto.subtle.verify('HMAC', key, fromHex(signature), signed)) matches = true
  }
  if (!matches) return { ok: false, reason: 'signature' }
  if (Math.abs(now - parsed.timestamp) > tolerance) return { ok: false, reason: 'stale' }
  return { ok: true, timestamp: parsed.timestamp }
}

/** `t=…,v1=…[,v1=…]`: at most 8 parts, one timestamp of up to 12 digits, signatures of exactly 64 hex digits. */
function parseHeader(header: string | null): { timestamp: number; signatures: string[] } | null {
  if (!header || header.length > 1024) return null
  const parts = header.split(',')
  if (parts.length > 8) return null
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of parts) {
    const [name, value, ...rest] = part.trim().split('=')
    if (rest.length || value === undefined) return null
    if (name === 't') {
      if (timestamp !== null || !/^[0-9]{1,12}$/.test(value)) return null
      timestamp = Number(value)
    } else if (name === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(value)) return null
      signatures.push(value)
    }
  }
  return timestamp !== null && signatures.length ? { timestamp, signatures } : null
}

function fromHex(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(text.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16)
  return bytes
}
