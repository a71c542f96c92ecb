import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { MarketEnv } from '../env'

/**
 * The header's cart count as the visitor's browser keeps it (`__Host-CartCount-it`): written whenever the Worker
 * reads or changes their cart, so that a page the page cache keeps gets its count stitched in without asking the API
 * (docs/decisions/022). It is a copy for display only: bound to the cart it counts (a short tag of the session id or
 * the cart's code, so a login, a logout or another cart makes it void), and short-lived, so a cart changed on another
 * device (or by a payment) shows within `COUNT_SECONDS` at the latest. Pages rendered per request read the API.
 */
export const cartCountCookieName = (country: string) => `__Host-CartCount-${country}`

/** How long the browser keeps its count before a kept page asks the API again. */
export const COUNT_SECONDS = 300

const VALUE = /^(\d{1,4})\.([0-9a-z]{1,7})$/

/** A short tag of what the count belongs to (FNV-1a of the session id or the cart's code): not a secret, a binding. */
function tagOf(holder: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < holder.length; i++) hash = Math.imul(hash ^ holder.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

/** The count the browser keeps for this holder's cart in a market's site, or null (none, another holder's, malformed). */
export const keptCartCount = (c: Context<MarketEnv>, country: string, holder: string) =>
  keptCount(getCookie(c, cartCountCookieName(country)), holder)

/** The same from the copy's cookie value (the page cache's early answer, before there is a request context). */
export function keptCount(value: string | undefined, holder: string): number | null {
  const match = VALUE.exec(value ?? '')
  return match && match[2] === tagOf(holder) ? Number(match[1]) : null
}

/** Gives the browser the count of this holder's cart, unless it already keeps that very count. */
export function keepCartCount(c: Context<MarketEnv>, country: string, holder: string, count: number): void {
  if (keptCartCount(c, country, holder) === count) return
  setCookie(c, cartCountCookieName(country), `${Math.min(count, 9999)}.${tagOf(holder)}`, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: COUNT_SECONDS,
  })
}

/** Takes the browser's copy back (a payment may have taken lines out of the cart): the next kept page reads the API. */
export function forgetCartCount(c: Context<MarketEnv>, country: string): void {
  const name = cartCountCookieName(country)
  if (getCookie(c, name) !== undefined)
    deleteCookie(c, name, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax' })
}
