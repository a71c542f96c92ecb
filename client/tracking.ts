import type { TrackerLoad } from '../src/tracking/snippet'

/**
 * Loads the trackers the visitor allowed, each after its delay (the page lists them in `<script id="trackers">`; the
 * server lists only allowed ones, so nothing here decides consent). Loaded only on pages that have any, after the
 * tag manager's inline snippet has set up `gtag` and Consent Mode.
 */

type Queue = ((...args: unknown[]) => void) & {
  q?: unknown[][]
  queue?: unknown[][]
  callMethod?: (...args: unknown[]) => void
}
type TrackingWindow = Window & {
  gtag?: (...args: unknown[]) => void
  intercomSettings?: Record<string, unknown>
  Intercom?: Queue
  clarity?: Queue
  fbq?: Queue & { push?: Queue; loaded?: boolean; version?: string }
  _fbq?: unknown
}

const w = window as TrackingWindow

function inject(src: string): void {
  const script = document.createElement('script')
  script.async = true
  script.src = src
  document.head.appendChild(script)
}

/** A function that queues its calls until the vendor's script takes over (each vendor's own snippet does this). */
function queue(): Queue {
  const calls: Queue = (...args: unknown[]) => {
    calls.q ??= []
    calls.q.push(args)
  }
  return calls
}

const LOADERS: Record<TrackerLoad['name'], (tracker: TrackerLoad) => void> = {
  'google-analytics': ({ id, src }) => {
    w.gtag?.('js', new Date())
    w.gtag?.('config', id)
    inject(src)
  },
  intercom: ({ id, src }) => {
    w.intercomSettings = { api_base: 'https://api-iam.intercom.io', app_id: id }
    w.Intercom ??= queue()
    inject(src)
  },
  clarity: ({ src }) => {
    w.clarity ??= queue()
    w.clarity('consent')
    inject(src)
  },
  'facebook-pixel': ({ id, src }) => {
    if (!w.fbq) {
      const fbq: NonNullable<TrackingWindow['fbq']> = Object.assign(
        (...args: unknown[]) => (fbq.callMethod ? fbq.callMethod(...args) : fbq.queue?.push(args)),
        { queue: [] as unknown[][], loaded: true, version: '2.0' },
      )
      fbq.push = fbq
      w.fbq = fbq
      w._fbq ??= fbq
    }
    w.fbq('init', id)
    w.fbq('track', 'PageView')
    inject(src)
  },
  'mexico-tag': ({ src }) => inject(src),
}

const list = document.getElementById('trackers')?.textContent
for (const tracker of list ? (JSON.parse(list) as TrackerLoad[]) : []) {
  const load = LOADERS[tracker.name]
  if (load) setTimeout(() => load(tracker), tracker.delayMs)
}
