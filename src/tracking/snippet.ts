import type { Consent } from './consent'
import type { Tracker } from './trackers'

/** Consent Mode v2's defaults: everything denied until the visitor allows it, and tags wait 2 s for an update. */
export const CONSENT_DEFAULTS = {
  ad_storage: 'denied',
  ad_user_data: 'denied',
  ad_personalization: 'denied',
  analytics_storage: 'denied',
  wait_for_update: 2000,
} as const

/** A choice in Consent Mode's words: analytics for analytics storage, marketing for the three advertising types. */
export function consentModeOf(
  consent: Consent,
): Record<keyof Omit<typeof CONSENT_DEFAULTS, 'wait_for_update'>, 'granted' | 'denied'> {
  const mode = (allowed: boolean) => (allowed ? 'granted' : 'denied')
  return {
    ad_storage: mode(consent.marketing),
    ad_user_data: mode(consent.marketing),
    ad_personalization: mode(consent.marketing),
    analytics_storage: mode(consent.analytics),
  }
}

/** JSON that is safe inside a `<script>` element: nothing in it can end the element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )

/**
 * The inline script that runs before any tag (Google's Consent Mode v2 setup): `gtag`, the denied defaults with
 * `wait_for_update: 2000`, the visitor's stored choice as a consent update (none before they chose, and GPC keeps
 * everything denied), then the tag manager when the page loads one (only after a choice that allows something:
 * page-tracking.ts), whose script carries the page's nonce for its own tags.
 *
 * @example
 * <script nonce={nonce} dangerouslySetInnerHTML={{ __html: tagManagerSnippet('GTM-IT00001', consent) }} />
 */
export function tagManagerSnippet(container: string | null, consent: Consent | null): string {
  const mode = consent && consentModeOf(consent)
  // Written once per isolate for each container and choice (decision 087): a handful of texts.
  const key = `${container ?? ''}\u0001${mode ? Object.values(mode).join(',') : ''}`
  let snippet = snippets.get(key)
  if (snippet === undefined) {
    snippet = snippetOf(container, mode)
    if (snippets.size >= SNIPPET_LIMIT) snippets.clear()
    snippets.set(key, snippet)
  }
  return snippet
}

/** The snippets written in this isolate, by container and choice. */
const snippets = new Map<string, string>()
const SNIPPET_LIMIT = 200

function snippetOf(container: string | null, mode: ReturnType<typeof consentModeOf> | null): string {
  const lines = [
    'window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}',
    `gtag('consent','default',${scriptJson(CONSENT_DEFAULTS)});`,
  ]
  if (mode) lines.push(`gtag('consent','update',${scriptJson(mode)});`)
  if (container) {
    lines.push(
      `(function(w,d,i){w.dataLayer.push({'gtm.start':new Date().getTime(),event:'gtm.js'});var j=d.createElement('script'),n=d.currentScript&&d.currentScript.nonce;` +
        `j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(i);if(n)j.setAttribute('nonce',n);d.head.appendChild(j)})(window,document,${scriptJson(container)});`,
    )
  }
  return lines.join('\n')
}

/** What the browser's tracker loader (client/tracking.ts) reads: the allowed trackers, each with its delay. */
export type TrackerLoad = Pick<Tracker, 'name' | 'id' | 'src' | 'delayMs'>

/** The allowed trackers as the loader's JSON data block. */
export const trackersJson = (trackers: readonly Tracker[]): string =>
  scriptJson(trackers.map(({ name, id, src, delayMs }): TrackerLoad => ({ name, id, src, delayMs })))
