import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { randomToken } from '../crypto/digest'
import { signText, verifyText } from '../crypto/signing'
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

const BASE64URL_256 = /^[A-Za-z0-9_-]{43}$/
const LABEL = 'device-cookie'

const signed = (account: string, id: string, issued: string) => `${account}.${id}.${issued}`

/**
 * The id of the browser's device cookie when this site signed it for `account` less than DEVICE_DAYS ago; null for
 * none, another account's, an altered or a forged one.
 */
export async function trustedDevice<E extends AppEnv>(
  c: Context<E>,
  account: string,
  now = Date.now(),
): Promise<string | null> {
  const secret = c.env.SESSION_SECRET
  const [id, issued, signature, extra] = (getCookie(c, DEVICE_COOKIE) ?? '').split('.')
  if (!secret || !id || !issued || !signature || extra !== undefined) return null
  if (!BASE64URL_256.test(id) || !BASE64URL_256.test(signature) || !/^[0-9]{1,12}$/.test(issued)) return null
  if (now / 1000 - Number(issued) > DEVICE_DAYS * 86_400) return null
  // One signed with the previous secret during a rotation is as good (docs/decisions/048).
  const previous = c.env.SESSION_SECRET_PREVIOUS
  return (await verifyText(secret, LABEL, signed(account, id, issued), signature, previous)) ? id : null
}

/** Gives the browser, after a successful login, a new device cookie for `account` (HttpOnly, Secure, SameSite=Lax). */
export async function trustDevice(c: Context<AppEnv>, account: string, now = Date.now()): Promise<void> {
  const secret = c.env.SESSION_SECRET
  if (!secret) return
  const id = randomToken()
  const issued = String(Math.floor(now / 1000))
  const signature = await signText(secret, LABEL, signed(account, id, issued))
  setCookie(c, DEVICE_COOKIE, `${id}.${issued}.${signature}`, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: DEVICE_DAYS * 86_400,
  })
}
