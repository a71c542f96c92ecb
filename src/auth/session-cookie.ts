import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'

/** The session cookie: an opaque id, never the token. `__Host-` pins it to this host, Secure and Path=/. */
export const SESSION_COOKIE = '__Host-AuthTkn'

/** The session id the browser sent, if any. */
export const readSessionId = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE)

/** Gives the browser its session id until the session's end (HttpOnly, Secure, SameSite=Lax, Path=/). */
export function setSessionCookie(c: Context, id: string, end: number): void {
  setCookie(c, SESSION_COOKIE, id, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax', expires: new Date(end) })
}

/** Takes the session cookie back. */
export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' })
}
