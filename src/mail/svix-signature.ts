/**
 * Webhook signatures in the Svix scheme, which Resend's webhooks use: headers `svix-id`, `svix-timestamp` (seconds)
 * and `svix-signature` (`v1,{base64 HMAC-SHA-256}`, space-separated when a secret is being rotated), signed over
 * `{id}.{timestamp}.{raw body}` with the secret's bytes (`whsec_{base64}`). Checked with Web Crypto's `verify`, in
 * constant time, and within a window around now.
 */

const encoder = new TextEncoder()

/** How far a webhook's timestamp may be from now, either way, in seconds (Svix's libraries use the same 5 minutes). */
export const SVIX_TOLERANCE_SECONDS = 300

/** Why a delivery was refused: headers missing or malformed, no signature of ours, or a time outside the window. */
export type SvixRefusal = 'malformed' | 'signature' | 'stale'

export type SvixHeaders = { id: string | null; timestamp: string | null; signature: string | null }

/**
 * Checks a delivery's Svix headers against its raw body. The signature is checked before the time, so "stale" is only
 * said of a delivery that really was signed with the secret.
 *
 * @example
 * const check = await verifySvixSignature(secret, { id, timestamp, signature }, body, Date.now() / 1000)
 */
export async function verifySvixSignature(
  secret: string,
  headers: SvixHeaders,
  body: string,
  now: number,
  tolerance = SVIX_TOLERANCE_SECONDS,
): Promise<{ ok: true } | { ok: false; reason: SvixRefusal }> {
  const { id, timestamp, signature } = headers
  if (!id || !/^[A-Za-z0-9_-]{1,100}$/.test(id) || !timestamp || !/^[0-9]{1,12}$/.test(timestamp))
    return { ok: false, reason: 'malformed' }
  const signatures = parseSignatures(signature)
  const key = await keyOf(secret)
  if (!signatures || !key) return { ok: false, reason: 'malformed' }
  const signed = encoder.encode(`${id}.${timestamp}.${body}`)
  let matches = false
  for (const candidate of signatures) {
    // Every candidate is checked, so the time taken does not say which one matched.
    if (await crypto.subtle.verify('HMAC', key, candidate, signed)) matches = true
  }
  if (!matches) return { ok: false, reason: 'signature' }
  if (Math.abs(now - Number(timestamp)) > tolerance) return { ok: false, reason: 'stale' }
  return { ok: true }
}

/**
 * The `svix-signature` header of a body, as the mail service sends it (for stand-ins and tests).
 *
 * @example headers['svix-signature'] = await signSvix(secret, id, timestamp, body)
 */
export async function signSvix(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await keyOf(secret)
  if (!key) throw new Error('not a webhook secret')
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`)))
  return `v1,${btoa(String.fromCharCode(...mac))}`
}

/** The secret's HMAC key: the base64 after `whsec_` (a secret without the prefix is read as base64 too). */
async function keyOf(secret: string): Promise<CryptoKey | null> {
  const bytes = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret)
  if (!bytes?.length) return null
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

/** `v1,{base64}` entries (others, such as a future `v2`, ignored): at most 8, each a 32-byte MAC. */
function parseSignatures(header: string | null): Uint8Array<ArrayBuffer>[] | null {
  if (!header || header.length > 1024) return null
  const parts = header.trim().split(/\s+/)
  if (parts.length > 8) return null
  const signatures = parts.flatMap((part) => {
    const [version, value] = part.split(',')
    const bytes = version === 'v1' && value ? fromBase64(value) : null
    return bytes?.length === 32 ? [bytes] : []
  })
  return signatures.length ? signatures : null
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
  } catch {
    return null
  }
}
