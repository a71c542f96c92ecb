import { CONTAINER_ID, type TrackingConfig } from '../config'
import type { Site } from '../../contract/schemas'
import type { ConsentCategory } from './consent'

/** The trackers a site's settings may switch on, besides the tag manager. */
export type TrackerName = 'google-analytics' | 'intercom' | 'clarity' | 'facebook-pixel' | 'mexico-tag'

/** A tracker switched on for a market: what it is, what it needs consent for, when and what it loads. */
export type Tracker = {
  name: TrackerName
  category: ConsentCategory
  /** Milliseconds after the page has loaded (the original's delays). */
  delayMs: number
  /** The id the site's settings give it (the Mexico tag: the country's code, MX). */
  id: string
  /** The script it loads. */
  src: string
}

/** The CSP directives a third party may need sources in. */
export type CspDirective = 'script-src' | 'connect-src' | 'img-src' | 'frame-src' | 'font-src' | 'media-src'
export type CspSources = Partial<Record<CspDirective, readonly string[]>>

/**
 * The original's delays (the seed, §9): 5 s one tracker (Intercom, the chat: it is no analytics), 6 s analytics
 * (Google Analytics, Clarity) and the Mexico tag, 7 s the pixel.
 */
export const TRACKER_DELAYS_MS: Record<TrackerName, number> = {
  intercom: 5000,
  'google-analytics': 6000,
  clarity: 6000,
  'mexico-tag': 6000,
  'facebook-pixel': 7000,
}

const CATEGORY: Record<TrackerName, ConsentCategory> = {
  'google-analytics': 'analytics',
  clarity: 'analytics',
  'facebook-pixel': 'marketing',
  'mexico-tag': 'marketing',
  intercom: 'functional',
}

/** Ids as the vendors write them; anything else in the settings is ignored rather than put into a page's script. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,40}$/
const VALID_ID: Record<TrackerName, RegExp> = {
  'google-analytics': /^G-[A-Z0-9]{4,20}$/,
  intercom: SAFE_ID,
  clarity: SAFE_ID,
  'facebook-pixel': /^[0-9]{5,20}$/,
  'mexico-tag': /^MX$/,
}

/** The country whose markets load the Mexico-specific tag (its script: the deployment's `MEXICO_TAG_URL`). */
const MEXICO = 'MX'

const TAG_MANAGER = 'https://www.googletagmanager.com'

/** The origins each tracker loads from and reports to (their vendors' CSP guides), by directive. */
export const TRACKER_SOURCES: Record<TrackerName | 'tag-manager', CspSources> = {
  'tag-manager': { 'script-src': [TAG_MANAGER], 'connect-src': [TAG_MANAGER], 'img-src': [TAG_MANAGER] },
  'google-analytics': {
    'script-src': ['https://*.googletagmanager.com'],
    'connect-src': [
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://*.googletagmanager.com',
    ],
    'img-src': ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  },
  intercom: {
    'script-src': ['https://widget.intercom.io', 'https://js.intercomcdn.com'],
    'connect-src': [
      'https://*.intercom.io',
      'wss://*.intercom.io',
      'https://*.intercom-messenger.com',
      'wss://*.intercom-messenger.com',
      'https://*.intercomcdn.com',
    ],
    'img-src': [
      'blob:',
      'https://*.intercomcdn.com',
      'https://*.intercomassets.com',
      'https://*.intercomusercontent.com',
    ],
    'font-src': ['https://js.intercomcdn.com', 'https://fonts.intercomcdn.com'],
    'media-src': ['https://js.intercomcdn.com'],
    'frame-src': ['https://intercom-sheets.com'],
  },
  clarity: {
    'script-src': ['https://*.clarity.ms', 'https://c.bing.com'],
    'connect-src': ['https://*.clarity.ms', 'https://c.bing.com'],
    'img-src': ['https://*.clarity.ms', 'https://c.bing.com'],
  },
  'facebook-pixel': {
    'script-src': ['https://connect.facebook.net'],
    'connect-src': ['https://www.facebook.com', 'https://connect.facebook.net'],
    'img-src': ['https://www.facebook.com'],
  },
  // Its own origin, from MEXICO_TAG_URL: see sourcesOf.
  'mexico-tag': {},
}

/**
 * The tag manager's container of a market: the site's own, else its region's fallback of the deployment, else none.
 * A malformed id in the settings counts as none (it would be written into a script).
 *
 * @example
 * tagManagerOf(site, config.tracking) // "GTM-IT00001", or "GTM-OCEANIA" for au without its own
 */
export function tagManagerOf(site: Site, config: TrackingConfig): string | null {
  const own = site.settings.google_tag_manager?.trim()
  if (own && CONTAINER_ID.test(own)) return own
  return config.tagManagerFallbacks[site.country.region] ?? null
}

/**
 * The trackers a site's settings switch on with a valid id, in the order they load; the Mexico tag on the markets of
 * Mexico when the deployment names its script (the original's site record has no setting for it: docs/decisions/024).
 */
export function trackersOf(site: Site, config: TrackingConfig): Tracker[] {
  const { settings } = site
  const wanted: Array<[TrackerName, string | null | undefined, (id: string) => string | null]> = [
    [
      'intercom',
      settings.intercom?.integrate ? settings.intercom.app_id : null,
      (id) => `https://widget.intercom.io/widget/${id}`,
    ],
    [
      'google-analytics',
      settings.google_analytics?.integrate ? settings.google_analytics.app_id : null,
      (id) => `${TAG_MANAGER}/gtag/js?id=${id}`,
    ],
    [
      'clarity',
      settings.microsoft_clarity?.integrate ? settings.microsoft_clarity.key : null,
      (id) => `https://www.clarity.ms/tag/${id}`,
    ],
    ['mexico-tag', site.country.country_code === MEXICO ? MEXICO : null, () => config.mexicoTag?.url ?? null],
    ['facebook-pixel', settings.facebook_pixel_code, () => 'https://connect.facebook.net/en_US/fbevents.js'],
  ]
  return wanted.flatMap(([name, rawId, srcOf]) => {
    const id = rawId?.trim()
    const src = id && VALID_ID[name].test(id) ? srcOf(id) : null
    return id && src ? [{ name, category: CATEGORY[name], delayMs: TRACKER_DELAYS_MS[name], id, src }] : []
  })
}

/** The CSP sources of a tag manager (when there is one) and of some trackers, merged by directive. */
export function sourcesOf(tagManager: string | null, trackers: readonly Tracker[], config: TrackingConfig): CspSources {
  const merged: Record<string, Set<string>> = {}
  const add = (sources: CspSources) => {
    for (const [directive, list] of Object.entries(sources)) {
      const merging = merged[directive] ?? new Set()
      merged[directive] = merging
      for (const source of list ?? []) merging.add(source)
    }
  }
  if (tagManager) add(TRACKER_SOURCES['tag-manager'])
  for (const tracker of trackers) {
    add(TRACKER_SOURCES[tracker.name])
    if (tracker.name === 'mexico-tag' && config.mexicoTag) {
      const origin = config.mexicoTag.origin
      add({ 'script-src': [origin], 'connect-src': [origin], 'img-src': [origin] })
    }
  }
  return Object.fromEntries(Object.entries(merged).map(([directive, set]) => [directive, [...set]]))
}
