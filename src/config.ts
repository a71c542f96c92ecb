import type { Bindings } from './env'
import { MIN_FILL_SECONDS } from './forms/form-token'
import { logEvent } from './ops/log'
import { type Area, HOLDABLE_AREAS, declaredAreas } from './upstream/areas'
import { upstreamFingerprint } from './upstream/fingerprint'
import type { Region } from '../contract/schemas'

/**
 * Where the site's data comes from: the embedded API, the brand's API over HTTP, or a `UPSTREAM_URL` that is no URL
 * (or plain `http:` on a host other than this machine's). Each has its fingerprint: the part of every cached lookup's
 * key that names the upstream (src/upstream/fingerprint.ts), so a switch of upstream starts from empty caches.
 */
export type UpstreamConfig =
  | { kind: 'embedded'; fingerprint: string }
  | { kind: 'http'; url: string; origin: string; fingerprint: string }
  | { kind: 'invalid'; fingerprint: string }

/** The Worker's settings, read from its variables once per isolate and environment. */
export type Config = {
  upstream: UpstreamConfig
  upstreamTimeoutMs: number
  /**
   * The contract's areas the upstream serves (`UPSTREAM_AREAS`, src/upstream/areas.ts): every one with the embedded
   * API or an empty variable, else those listed (`none`: the original's eight calls only).
   */
  upstreamAreas: ReadonlySet<Area> | 'all'
  /**
   * The areas the deployment chose to hold on the Worker's D1 although the backend lacks them and the Worker does not
   * hold them by itself (`UPSTREAM_HOLD`: `catalogue`, `cart-checkout`; docs/decisions/043). Empty with the embedded API.
   */
  upstreamHold: ReadonlySet<Area>
  /**
   * `RENDER_MODE`: `auto` (a page rendered whole when its data is there, its kept parts reused: src/render/kept.tsx),
   * `fresh` (the same with every part rendered afresh: the reference the kept parts are checked and measured against)
   * or `stream` (always React's stream: the benchmark's baseline).
   */
  renderMode: 'auto' | 'fresh' | 'stream'
  /**
   * Whether public pages are answered from the page cache (`PAGE_CACHE`, on unless `off`: src/page-cache/). Off, every
   * request renders its page (the benchmark's uncached runs).
   */
  pageCache: boolean
  /** The dealer map's tile URL template (`{z}/{x}/{y}`) and its origin, or null when none is set or it is no URL. */
  mapTiles: { url: string; origin: string } | null
  /**
   * The site's public origin (`https://www.brand.example`): every absolute URL the site writes (canonical, hreflang,
   * Open Graph, mails) starts with it, never with the request's `Host`. Null when it is not set or no origin.
   */
  publicOrigin: string | null
  /** Turnstile's public key when lead forms are checked by Turnstile (both its keys set), else null. */
  turnstileSiteKey: string | null
  /** How many days lead-form submissions and their CVs are kept (`SUBMISSION_RETENTION_DAYS`, 1–3650; 365). */
  retentionDays: number
  /**
   * The seconds a person takes at least to fill in a form (`FORM_MIN_FILL_SECONDS`, 0–60; 3): a form sent faster is a
   * bot's (src/forms/form-token.ts). The browser tests' site sets 0.
   */
  formMinFillSeconds: number
  /** What the tracking of every market needs from the deployment (docs/decisions/012). */
  tracking: TrackingConfig
  /**
   * The payment provider (`PAYMENT_PROVIDER`): `stripe`, or `test`, the embedded test provider (also an empty value),
   * which moves no money and is taken only where it belongs: a site on this machine (`PUBLIC_ORIGIN` on loopback, its
   * backend embedded or on this machine too) or a deployment that names itself `staging`
   * (`PAYMENT_TEST_PROVIDER_ALLOWED`). Null when the value names no provider this Worker has, or the test provider
   * anywhere else (logged `config_invalid`): payments are off and checkout answers 503 (docs/decisions/046).
   */
  paymentProvider: 'test' | 'stripe' | null
  /** Where Stripe's API is (`STRIPE_API_URL`; Stripe's own when empty or invalid, logged). */
  stripeApi: StripeApi
  /**
   * The origin of the provider's hosted payment page, which checkout's forms lead to (their CSP's `form-action`):
   * Stripe's Checkout, or the stand-in's at `STRIPE_API_URL`; null for the test provider (its page is the site's).
   */
  paymentPageOrigin: string | null
  /**
   * Whether pictures are served through Cloudflare's image resizing (`IMAGE_RESIZING = "on"`): raster pictures then
   * come with `srcset` candidates at the widths they are shown (src/components/responsive-image.tsx). Off (the default,
   * and locally, where no zone resizes): the original files.
   */
  imageResizing: boolean
}

/** Stripe's API address as the `stripe` package takes it (`protocol`, `host`, `port`). */
export type StripeApi = { protocol: 'https' | 'http'; host: string; port: number }

/** Stripe's own API. */
export const STRIPE_API: StripeApi = { protocol: 'https', host: 'api.stripe.com', port: 443 }

/** The deployment's part of tracking and consent: region fallbacks, the Mexico tag's script, the policies' links. */
export type TrackingConfig = {
  /** The tag manager's container per region, for sites without their own (`GTM_FALLBACKS`). */
  tagManagerFallbacks: Partial<Record<Region, string>>
  /**
   * The Mexico-specific tag's script URL and its origin, or null: it never loads (`MEXICO_TAG_URL`). The original's site
   * record has no setting for it, so the deployment names it, for the markets of Mexico (docs/decisions/024).
   */
  mexicoTag: { url: string; origin: string } | null
  /**
   * The cookie policy's URL template (`{id}`) and the policy id of each language that has its own, or null
   * (`CONSENT_POLICY_*`). sl and hr have none: they link English's (ENGLISH_POLICY_LANGUAGES).
   */
  policies: { url: string; ids: Record<string, string> } | null
}

/** What a tag manager container id looks like: nothing else is ever written into a page's script. */
export const CONTAINER_ID = /^GTM-[A-Z0-9]{1,12}$/

const DEFAULT_TIMEOUT_MS = 3000
const read = new WeakMap<object, Config>()

/** The validated configuration of an environment; a timeout out of range falls back to the default. */
export function configOf(env: Bindings): Config {
  let config = read.get(env)
  if (!config) {
    const upstream = upstreamOf(env.UPSTREAM_URL, env.UPSTREAM_AREAS, env.UPSTREAM_HOLD)
    const upstreamAreas = env.UPSTREAM_URL ? upstreamAreasOf(env.UPSTREAM_AREAS) : 'all'
    const publicOrigin = publicOriginOf(env.PUBLIC_ORIGIN)
    config = {
      upstream,
      upstreamAreas,
      upstreamHold: upstreamAreas === 'all' ? new Set() : upstreamHoldOf(env.UPSTREAM_HOLD, upstreamAreas),
      upstreamTimeoutMs: timeout(env.UPSTREAM_TIMEOUT_MS),
      renderMode: env.RENDER_MODE === 'stream' || env.RENDER_MODE === 'fresh' ? env.RENDER_MODE : 'auto',
      pageCache: env.PAGE_CACHE !== 'off',
      mapTiles: mapTilesOf(env.MAP_TILE_URL),
      publicOrigin,
      turnstileSiteKey: env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET_KEY ? env.TURNSTILE_SITE_KEY : null,
      retentionDays: retentionDaysOf(env.SUBMISSION_RETENTION_DAYS),
      formMinFillSeconds: formMinFillSecondsOf(env.FORM_MIN_FILL_SECONDS),
      tracking: {
        tagManagerFallbacks: tagManagerFallbacksOf(env.GTM_FALLBACKS),
        mexicoTag: scriptUrlOf('MEXICO_TAG_URL', env.MEXICO_TAG_URL),
        policies: policiesOf(env.CONSENT_POLICY_URL, env.CONSENT_POLICY_IDS),
      },
      paymentProvider: paymentProviderOf(env.PAYMENT_PROVIDER, {
        local: isLocalSite(publicOrigin, upstream),
        staging: env.PAYMENT_TEST_PROVIDER_ALLOWED === 'staging',
      }),
      stripeApi: stripeApiOf(env.STRIPE_API_URL),
      paymentPageOrigin: null,
      imageResizing: imageResizingOf(env.IMAGE_RESIZING),
    }
    if (config.paymentProvider === 'stripe') config.paymentPageOrigin = paymentPageOriginOf(config.stripeApi)
    read.set(env, config)
  }
  return config
}

/**
 * An https URL; plain http only on this machine (127.0.0.1 or localhost: a backend run beside `npm start`), so
 * the service credential and visitors' data never cross a network in clear (docs/decisions/040).
 */
function upstreamOf(value: string | undefined, areas: string | undefined, hold: string | undefined): UpstreamConfig {
  if (!value) return { kind: 'embedded', fingerprint: upstreamFingerprint('embedded') }
  try {
    const url = new URL(value)
    if (url.protocol === 'https:' || (url.protocol === 'http:' && isThisMachine(url.hostname))) {
      const href = url.href.replace(/\/+$/, '')
      // The areas it serves (and those held in its stead) change what the site links and caches: another list is
      // another upstream's caches.
      const lists = [areas?.trim() ?? '', hold?.trim() ? `hold:${hold.trim()}` : ''].filter(Boolean).join(' ')
      const fingerprint = upstreamFingerprint(lists ? `${href} ${lists}` : href)
      return { kind: 'http', url: href, origin: url.origin, fingerprint }
    }
  } catch {}
  logEvent('error', 'config_invalid', { variable: 'UPSTREAM_URL' })
  return { kind: 'invalid', fingerprint: upstreamFingerprint('invalid') }
}

/** `UPSTREAM_AREAS` (src/upstream/areas.ts `declaredAreas`): an unknown name is left out, logged `config_invalid`. */
function upstreamAreasOf(value: string | undefined): ReadonlySet<Area> | 'all' {
  const { areas, unknown } = declaredAreas(value)
  if (unknown.length) logEvent('error', 'config_invalid', { variable: 'UPSTREAM_AREAS' })
  return areas
}

/**
 * `UPSTREAM_HOLD`: a comma-separated list of the areas to hold on D1 (`catalogue`, `cart-checkout`); one the backend
 * serves is served, not held. Any other name is left out, logged `config_invalid`; so is `cart-checkout` when the
 * catalogue is neither served nor held: a shop with no product page to buy from (docs/decisions/043).
 */
function upstreamHoldOf(value: string | undefined, served: ReadonlySet<Area>): ReadonlySet<Area> {
  const hold = new Set<Area>()
  for (const name of (value ?? '').split(',').map((part) => part.trim())) {
    if (!name) continue
    if ((HOLDABLE_AREAS as readonly string[]).includes(name)) hold.add(name as Area)
    else logEvent('error', 'config_invalid', { variable: 'UPSTREAM_HOLD' })
  }
  if (hold.has('cart-checkout') && !hold.has('catalogue') && !served.has('catalogue')) {
    hold.delete('cart-checkout')
    logEvent('error', 'config_invalid', { variable: 'UPSTREAM_HOLD', reason: 'cart-checkout without the catalogue' })
  }
  return hold
}

const isThisMachine = (hostname: string) => hostname === '127.0.0.1' || hostname === 'localhost'

/** An HTTPS tile template on one host (`{s}` subdomains would each need their own CSP entry). */
function mapTilesOf(value: string | undefined): Config['mapTiles'] {
  if (!value) return null
  try {
    // Parsed as written: a placeholder in the host ({s}, {z}…) stays visible there, and would not match the CSP's origin.
    const url = new URL(value)
    if (url.protocol === 'https:' && !value.includes('{s}') && !/[{}]/.test(url.host))
      return { url: value, origin: url.origin }
  } catch {}
  logEvent('error', 'config_invalid', { variable: 'MAP_TILE_URL' })
  return null
}

/** An https origin (plain http only for this machine: `npm start`), with nothing after it. */
function publicOriginOf(value: string | undefined): string | null {
  try {
    const url = new URL(value ?? '')
    const local = url.protocol === 'http:' && isThisMachine(url.hostname)
    if ((url.protocol === 'https:' || local) && url.origin === value?.replace(/\/$/, '')) return url.origin
  } catch {}
  logEvent('error', 'config_invalid', { variable: 'PUBLIC_ORIGIN' })
  return null
}

/**
 * `stripe`; `test` or empty, the test provider, only on a local site or a named staging deployment; anything else is
 * none, logged with what to do (a production configuration with the test provider fails here, never pays for nothing).
 */
function paymentProviderOf(
  value: string | undefined,
  { local, staging }: { local: boolean; staging: boolean },
): Config['paymentProvider'] {
  if (value === 'stripe') return 'stripe'
  if (!value || value === 'test') {
    if (local || staging) return 'test'
    logEvent('error', 'config_invalid', {
      variable: 'PAYMENT_PROVIDER',
      reason:
        'the test provider moves no money: set PAYMENT_PROVIDER = "stripe", or PAYMENT_TEST_PROVIDER_ALLOWED = "staging" on a staging deployment',
    })
    return null
  }
  logEvent('error', 'config_invalid', { variable: 'PAYMENT_PROVIDER' })
  return null
}

/**
 * A site on this machine: its public origin on loopback and its data from the embedded API or a backend on this
 * machine too (an `http:` upstream, which upstreamOf takes only from 127.0.0.1 or localhost).
 */
const isLocalSite = (publicOrigin: string | null, upstream: UpstreamConfig) =>
  publicOrigin !== null &&
  isThisMachine(new URL(publicOrigin).hostname) &&
  (upstream.kind === 'embedded' || (upstream.kind === 'http' && upstream.origin.startsWith('http:')))

/** Stripe's hosted Checkout; a stand-in serves its page where it serves its API. */
const paymentPageOriginOf = (api: StripeApi) =>
  api === STRIPE_API ? 'https://checkout.stripe.com' : new URL(`${api.protocol}://${api.host}:${api.port}`).origin

/** An https origin (plain http only on this machine), else Stripe's own; a value that is neither is logged. */
function stripeApiOf(value: string | undefined): StripeApi {
  if (!value) return STRIPE_API
  try {
    const url = new URL(value)
    if (url.protocol === 'https:' || (url.protocol === 'http:' && isThisMachine(url.hostname))) {
      const protocol = url.protocol === 'https:' ? 'https' : 'http'
      return { protocol, host: url.hostname, port: Number(url.port) || (protocol === 'https' ? 443 : 80) }
    }
  } catch {}
  logEvent('error', 'config_invalid', { variable: 'STRIPE_API_URL' })
  return STRIPE_API
}

/** `on` or `off` (empty: off); anything else is off, logged, so a typo never sends every picture to a missing service. */
function imageResizingOf(value: string | undefined): boolean {
  if (value === 'on') return true
  if (value && value !== 'off') logEvent('error', 'config_invalid', { variable: 'IMAGE_RESIZING' })
  return false
}

/**
 * A whole number within `[min, max]`; empty keeps `fallback` quietly, anything else keeps it logged `config_invalid`
 * (a typo never means "delete everything" or "no check at all").
 */
function wholeNumberOf(
  variable: string,
  value: string | undefined,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  if (value === undefined || value === '') return fallback
  const number = Number(value)
  if (Number.isInteger(number) && number >= min && number <= max) return number
  logEvent('error', 'config_invalid', { variable })
  return fallback
}

/** Days from 1 to 3650; a year when unset or wrong. */
const retentionDaysOf = (value: string | undefined) =>
  wholeNumberOf('SUBMISSION_RETENTION_DAYS', value, { min: 1, max: 3650, fallback: 365 })

/** Seconds from 0 to 60; the default fill time when unset or wrong. */
const formMinFillSecondsOf = (value: string | undefined) =>
  wholeNumberOf('FORM_MIN_FILL_SECONDS', value, { min: 0, max: 60, fallback: MIN_FILL_SECONDS })

const REGIONS: readonly Region[] = ['africa', 'americas', 'asia', 'europe', 'oceania']

/** A JSON object of region → container id; a region with a malformed id (or an unknown region) is left out, logged. */
function tagManagerFallbacksOf(value: string | undefined): TrackingConfig['tagManagerFallbacks'] {
  if (!value) return {}
  const parsed = jsonObject(value)
  const fallbacks: TrackingConfig['tagManagerFallbacks'] = {}
  for (const [region, id] of Object.entries(parsed ?? {})) {
    if (REGIONS.includes(region as Region) && typeof id === 'string' && CONTAINER_ID.test(id))
      fallbacks[region as Region] = id
  }
  if (!parsed || Object.keys(fallbacks).length !== Object.keys(parsed).length)
    logEvent('error', 'config_invalid', { variable: 'GTM_FALLBACKS' })
  return fallbacks
}

/** An https URL template with one `{id}` in its path or query (never in its host, which the CSP names). */
function scriptTemplateOf(variable: string, value: string | undefined): { url: string; origin: string } | null {
  if (!value) return null
  try {
    const url = new URL(value.replace('{id}', 'id'))
    if (url.protocol === 'https:' && value.includes('{id}') && !/[{}]/.test(url.host) && value.startsWith(url.origin))
      return { url: value, origin: url.origin }
  } catch {}
  logEvent('error', 'config_invalid', { variable })
  return null
}

/** An https script URL whose origin the CSP can name, with no placeholder in it (an old `{id}` template is refused). */
function scriptUrlOf(variable: string, value: string | undefined): { url: string; origin: string } | null {
  if (!value) return null
  try {
    const url = new URL(value)
    if (url.protocol === 'https:' && !/[{}]/.test(value) && url.href === value)
      return { url: value, origin: url.origin }
  } catch {}
  logEvent('error', 'config_invalid', { variable })
  return null
}

/**
 * The languages whose banner links the English cookie policy, as the original did (seed §9: "for sl and hr the terms
 * page uses English"; docs/decisions/024). An id given for one of them would never be read.
 */
export const ENGLISH_POLICY_LANGUAGES: readonly string[] = ['sl', 'hr']

/**
 * The policy URL template and a JSON object of language → policy id (letters, digits, dashes). Ids of the languages
 * that link English's are left out, logged `config_unused`.
 */
function policiesOf(url: string | undefined, ids: string | undefined): TrackingConfig['policies'] {
  if (!url && !ids) return null
  const template = scriptTemplateOf('CONSENT_POLICY_URL', url)
  const parsed = jsonObject(ids ?? '')
  const valid =
    parsed &&
    Object.entries(parsed).every(
      ([locale, id]) => /^[a-z]{2}$/.test(locale) && typeof id === 'string' && /^[A-Za-z0-9-]{1,40}$/.test(id),
    )
  if (!valid) logEvent('error', 'config_invalid', { variable: 'CONSENT_POLICY_IDS' })
  if (!template || !valid) return null
  const unused = Object.keys(parsed).filter((language) => ENGLISH_POLICY_LANGUAGES.includes(language))
  if (unused.length) logEvent('warn', 'config_unused', { variable: 'CONSENT_POLICY_IDS', languages: unused })
  const read = Object.entries(parsed as Record<string, string>).filter(([language]) => !unused.includes(language))
  return { url: template.url, ids: Object.fromEntries(read) }
}

function jsonObject(value: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(value)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function timeout(value: string | undefined): number {
  const ms = Number(value)
  return Number.isInteger(ms) && ms >= 100 && ms <= 30_000 ? ms : DEFAULT_TIMEOUT_MS
}
