import type { Context } from 'hono'
import { createContext } from 'react'
import { configOf, type TrackingConfig } from '../config'
import type { AppEnv } from '../env'
import { isLive } from '../market/market'
import { type Consent, consentOf } from './consent'
import { type CspSources, sourcesOf, type Tracker, tagManagerOf, trackersOf } from './trackers'

/**
 * What one answer loads for tracking, decided once per answer by `sendPage` (render/respond.ts) and read by the
 * document (the tag manager's snippet, the trackers, the banner), the footer (cookie settings) and the CSP.
 */
export type PageTracking = {
  /**
   * The tag manager's container this answer loads, or null: none on the site and none for its region, or the visitor
   * allowed neither analytics nor marketing (not chosen yet, refused, functional content alone, or GPC): nothing is
   * asked of Google before a choice that allows its tags (docs/decisions/064-before-consent.md).
   */
  tagManager: string | null
  /** What the visitor allowed (Global Privacy Control: nothing), or null: not chosen yet, the banner asks. */
  consent: Consent | null
  /** The browser sent `Sec-GPC: 1`: nothing but the necessary, whatever was stored. */
  gpc: boolean
  /** The market's trackers that the visitor allowed: only these load, each after its delay. */
  trackers: Tracker[]
  /** The cookie policy in the page's language (its own, else the market's cookie page, else English's), or null. */
  policyUrl: string | null
  /** Where the consent form leads back to: the page itself. */
  returnPath: string
  /** The answer depends on this visitor (a choice, or GPC): no shared cache may keep it. */
  personal: boolean
}

/** Whether a choice allows what the tag manager's tags are for: analytics or marketing. */
const carriesTags = (consent: Consent) => consent.analytics || consent.marketing

/** The answer's tracking, for the components of the page (null: this page loads none). */
export const PageTrackingContext = createContext<PageTracking | null>(null)

/**
 * The cookie policy the banner links: the language's own policy id, else the market's cookie page in the page's
 * language (`marketPage`, the site's own content page), else English's policy (docs/decisions/060; sl and hr, whose
 * ids the configuration never holds, are languages without one: ENGLISH_POLICY_LANGUAGES in config.ts).
 */
export function policyUrlOf(
  locale: string,
  policies: TrackingConfig['policies'],
  marketPage: string | null = null,
): string | null {
  const own = policies?.ids[locale]
  if (policies && own) return policies.url.replace('{id}', encodeURIComponent(own))
  if (marketPage) return marketPage
  const english = policies?.ids.en
  return policies && english ? policies.url.replace('{id}', encodeURIComponent(english)) : null
}

/**
 * The tracking of a page of a live market (null elsewhere: the landing page, login): Consent Mode's defaults always,
 * the tag manager once the visitor allowed analytics or marketing (told what they allowed), and the trackers of those categories.
 */
export function pageTrackingOf<E extends AppEnv>(c: Context<E>): PageTracking | null {
  const market = c.get('market')
  if (!market || !isLive(market.site)) return null
  const { tracking } = configOf(c.env)
  const { consent, gpc } = consentOf(c)
  const url = new URL(c.req.url)
  url.searchParams.delete('notice')
  return {
    tagManager: consent && carriesTags(consent) ? tagManagerOf(market.site, tracking) : null,
    consent,
    gpc,
    trackers: consent ? trackersOf(market.site, tracking).filter((tracker) => consent[tracker.category]) : [],
    policyUrl: policyUrlOf(market.locale, tracking.policies, c.get('available')?.pageUrl('cookie-policy') ?? null),
    returnPath: url.pathname + url.search,
    personal: consent !== null,
  }
}

/** The CSP sources an answer's tracking needs: the tag manager's, and the allowed trackers' only. */
export function trackingSources<E extends AppEnv>(c: Context<E>, tracking: PageTracking | null): CspSources {
  return tracking ? sourcesOf(tracking.tagManager, tracking.trackers, configOf(c.env).tracking) : {}
}
