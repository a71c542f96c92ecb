// A demo staff member's console session from Node (the benchmarks; the browser tests' staff fixture computes its codes
// here too): the TOTP code an authenticator app shows, and the console's own sign-in form.
import { createHmac } from 'node:crypto'

const STEP_MS = 30_000

/**
 * RFC 6238 in Node, as an authenticator app computes it: HMAC-SHA-1 over the 30-second step, 6 digits.
 *
 * @example
 * totp(DEMO_STAFF[0].totp_secret)
 */
export function totp(secretBase32, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const char of secretBase32.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0')
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / STEP_MS)))
  const mac = createHmac('sha1', key).update(counter).digest()
  const offset = mac[mac.length - 1] & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

/**
 * A staff member's console cookie (`__Host-Console=…`) from the console's sign-in form at `origin`: this
 * half-minute's code, else the next one's (a code is good once, and the console takes the step after).
 */
export async function consoleSessionCookie(origin, { email, password, totp_secret }) {
  for (const at of [Date.now(), Date.now() + STEP_MS]) {
    const answer = await fetch(`${origin}/_console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams({ email, password, code: totp(totp_secret, at) }),
    })
    const cookie = answer.headers.getSetCookie().findLast((line) => line.startsWith('__Host-Console='))
    if (answer.status === 303 && cookie) return cookie.split(';')[0]
  }
  throw new Error(`the console refused ${email}`)
}
