/**
 * Time-based one-time passwords (RFC 6238, HMAC-SHA-1, 30-second steps, 6 digits): what authenticator apps show. The
 * secret is base32 (RFC 4648), as apps take it.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** A base32 secret (spaces and padding allowed) as bytes; null when it is not base32. */
export function fromBase32(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.toUpperCase().replace(/[\s=]/g, '')
  if (!/^[A-Z2-7]+$/.test(clean)) return null
  const bytes: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    value = (value << 5) | BASE32.indexOf(char)
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return new Uint8Array(bytes)
}

/** Bytes as base32 without padding (a new secret for an authenticator app). */
export function toBase32(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out
}

export type TotpOptions = { digits?: number; stepSeconds?: number; hash?: 'SHA-1' | 'SHA-256' | 'SHA-512' }

/** The code of a secret (raw bytes) at a time (ms since the epoch). */
export async function totpAt(
  secret: Uint8Array<ArrayBuffer>,
  timeMs: number,
  { digits = 6, stepSeconds = 30, hash = 'SHA-1' }: TotpOptions = {},
): Promise<string> {
  const counter = Math.floor(timeMs / 1000 / stepSeconds)
  const message = new DataView(new ArrayBuffer(8))
  message.setUint32(0, Math.floor(counter / 2 ** 32))
  message.setUint32(4, counter >>> 0)
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message.buffer))
  const offset = (mac[mac.length - 1] as number) & 0x0f
  const binary =
    (((mac[offset] as number) & 0x7f) << 24) |
    ((mac[offset + 1] as number) << 16) |
    ((mac[offset + 2] as number) << 8) |
    (mac[offset + 3] as number)
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/**
 * Whether a typed code is the secret's now, or one step before or after (clocks drift; RFC 6238 §6). Compared in
 * constant time; anything but digits of the right length is false.
 */
export async function verifyTotp(
  secretBase32: string,
  typed: string,
  nowMs = Date.now(),
  options: TotpOptions = {},
): Promise<boolean> {
  const secret = fromBase32(secretBase32)
  const code = typed.replace(/\s/g, '')
  const digits = options.digits ?? 6
  if (!secret || secret.length < 10 || !new RegExp(`^[0-9]{${digits}}$`).test(code)) return false
  const step = (options.stepSeconds ?? 30) * 1000
  const candidates = await Promise.all([-1, 0, 1].map((drift) => totpAt(secret, nowMs + drift * step, options)))
  let match = false
  for (const candidate of candidates) {
    let difference = 0
    for (let i = 0; i < digits; i++) difference |= candidate.charCodeAt(i) ^ code.charCodeAt(i)
    match ||= difference === 0
  }
  return match
}
