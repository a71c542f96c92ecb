/** Small WebCrypto helpers shared by the sessions, the rate limits and the forms' tokens. */

const encoder = new TextEncoder()

/** The SHA-256 of a text, as hex: how tokens, session ids and account keys are stored. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** Bytes as base64. */
export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

/** Base64 back to bytes. */
export const fromBase64 = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text), (char) => char.charCodeAt(0))

/** Bytes as base64url, unpadded: safe in cookies, paths and URLs. */
export const toBase64Url = (bytes: Uint8Array) =>
  toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** Base64url (padded or not) back to bytes. */
export const fromBase64Url = (text: string) =>
  fromBase64(
    text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '='),
  )

/** A new random secret of 256 bits, base64url (43 characters): session ids, bearer and reset tokens. */
export function randomToken(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
}
