import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { type Notice, noticeOf } from '../components/toast'

/** The one-time cookie that carries a notice from a redirect to the page after it (docs/decisions/060). */
export const NOTICE_COOKIE = '__Host-Notice'

const COOKIE_OPTIONS = { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' } as const

/**
 * A redirect's location with its `?notice=` taken out and put in a one-time cookie for the next page: the address
 * bar never shows it, and a shared link greets nobody. A location without a notice is returned as it is.
 *
 * @example
 * sendRedirect(c, withNotice('/it-it/cart', 'cart_updated'), 303) // Location: /it-it/cart, Set-Cookie: __Host-Notice=cart_updated
 */
export function carryNotice(c: Context, location: string): string {
  const url = new URL(location, 'https://site.invalid')
  const notice = noticeOf(url.searchParams.get('notice') ?? undefined)
  if (!url.searchParams.has('notice')) return location
  url.searchParams.delete('notice')
  if (notice) setCookie(c, NOTICE_COOKIE, notice, { ...COOKIE_OPTIONS, maxAge: 60 })
  const kept = url.pathname + url.search + url.hash
  return /^https?:\/\//.test(location) ? url.origin + kept : kept
}

/** The notice this page shows once, from the cookie a redirect set; reading it ends it (a reload shows nothing). */
export function takeNotice(c: Context): Notice | null {
  const value = getCookie(c, NOTICE_COOKIE)
  if (value === undefined) return null
  deleteCookie(c, NOTICE_COOKIE, COOKIE_OPTIONS)
  return noticeOf(value)
}

/** Whether a request carries a notice to show: its page is that visitor's, never kept or answered from a cache. */
export const carriesNotice = (cookieHeader: string | null | undefined) =>
  (cookieHeader ?? '').split(';').some((part) => part.trim().startsWith(`${NOTICE_COOKIE}=`))
