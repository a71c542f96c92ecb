import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'

/** Where the consent banner posts (tracking/submit-consent.ts). */
export const CONSENT_PATH = '/_consent'

/** What a visitor may allow beyond what the site needs to work: each tracker belongs to one. */
export const CONSENT_CATEGORIES = ['analytics', 'marketing', 'functional'] as const
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number]

/** A visitor's choice: what they allowed. */
export type Consent = Readonly<Record<ConsentCategory, boolean>>

/** The first-party cookie that keeps the choice, set only when the visitor makes one (POST /_consent). */
export const CONSENT_COOKIE = '__Host-Consent'

/** How long a choice is kept before the banner asks again: six months, as the CNIL recommends. */
export const CONSENT_DAYS = 180

/** Nothing beyond what the site needs: a refusal, and what Global Privacy Control asks for. */
export const REFUSED: Consent = { analytics: false, marketing: false, functional: false }
export const ACCEPTED: Consent = { analytics: true, marketing: true, functional: true }

/** The cookie's value: a version, then one flag per category (`v1.a1.m0.f1`), so a new category asks again. */
const VALUE = /^v1\.a([01])\.m([01])\.f([01])$/

/** A cookie value as a choice, or null when it is not one (missing, old or tampered: the banner asks again). */
export function parseConsent(value: string | undefined): Consent | null {
  const match = value ? VALUE.exec(value) : null
  return match ? { analytics: match[1] === '1', marketing: match[2] === '1', functional: match[3] === '1' } : null
}

/** A choice as the cookie's value. */
export const consentValue = (consent: Consent): string =>
  `v1.a${Number(consent.analytics)}.m${Number(consent.marketing)}.f${Number(consent.functional)}`

/**
 * What the visitor allowed, as far as this request can tell: `Sec-GPC: 1` refuses everything whatever was stored
 * (the browser says so on every request); else the stored choice; else null — they have not chosen yet.
 */
export function consentOf(c: Context): ConsentState {
  return consentFrom(getCookie(c, CONSENT_COOKIE), c.req.header('Sec-GPC'))
}

export type ConsentState = { consent: Consent | null; gpc: boolean; stored: boolean }

/** The same from the consent cookie's value and the `Sec-GPC` header, where there is no request context yet. */
export function consentFrom(cookie: string | undefined, secGpc: string | null | undefined): ConsentState {
  const gpc = secGpc?.trim() === '1'
  const stored = parseConsent(cookie)
  return { consent: gpc ? REFUSED : stored, gpc, stored: cookie !== undefined }
}

/** Stores a visitor's choice for CONSENT_DAYS (HttpOnly: no script, the trackers' included, reads or changes it). */
export function storeConsent(c: Context, consent: Consent): void {
  setCookie(c, CONSENT_COOKIE, consentValue(consent), {
    path: '/',
    maxAge: CONSENT_DAYS * 24 * 3600,
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  })
}
