import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { fromBase64Url, randomToken, toBase64Url } from '../crypto/digest'
import type { AppEnv } from '../env'

/**
 * OWASP's "device cookies": a browser that logged in to an account holds `{id}.{issued}.{signature}`, an HMAC under a
 * key derived from `SESSION_SECRET` over the account (a hash of its address), a random id and the time it was issued.
 * Failures from elsewhere do not lock such a browser out of that account (src/auth/attempts.ts). Nothing is stored:
 * the signature is the proof.
 */
export const DEVICE_COOKIE = '__Host-Device'

/** How long a browser stays known after its last successful login. */
export const DEVICE_DAYS = 180

const encoder = new TextEncoder()
const keys = new Map<string, Promise<CryptoKey>>()
const BASE64URL_256 = /^[A-Za-z0-9_-]{43}$/

/** The HMAC key of a secret: the SHA-256 of a label and the secret, imported once per isolate. */
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret)
  if (!key) {
    key = crypto.subtle
      .digest('SHA-256', encoder.encode(`device-cookie:${secret}`))
      .then((bytes) => crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']))
    keys.set(secret, key)
  }
  return key
}

const signed = (account: string, id: string, issued: string) => encoder.encode(`${account}.${id}.${issued}`)

/**
 * The id of the browser's device cookie when this site signed it for `account` less than DEVICE_DAYS ago; null for
 * none, another account's, an altered or a forged one.
 */
export async function trustedDevice(c: Context<AppEnv>, account: string, now = Date.now()): Promise<string | null> {
  const secret = c.env.SESSION_SECRET
  const [id, issued, signature, extra] = (getCookie(c, DEVICE_COOKIE) ?? '').split('.')
  if (!secret || !id || !issued || !signature || extra !== undefined) return null
  if (!BASE64URL_256.test(id) || !BASE64URL_256.test(signature) || !/^[0-9]{1,12}$/.test(issued)) return null
  if (now / 1000 - Number(issued) > DEVICE_DAYS * 86_400) return null
  const valid = await crypto.subtle.verify('HMAC', await keyOf(secret), fromBase64Url(signature), signed(account, id, issued))
  return valid ? id : null
}

/** Gives the browser, after a successful login, a new device cookie for `account` (HttpOnly, Secure, SameSite=Lax). */
export async function trustDevice(c: Context<AppEnv>, account: string, now = Date.now()): Promise<void> {
  const secret = c.env.SESSION_SECRET
  if (!secret) return
  const id = randomToken()
  const issued = String(Math.floor(now / 1000))
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(secret), signed(account, id, issued)))
  setCookie(c, DEVICE_COOKIE, `${id}.${issued}.${toBase64Url(signature)}`, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: DEVICE_DAYS * 86_400,
  })
}
