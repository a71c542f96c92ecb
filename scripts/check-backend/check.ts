import { AREAS, type Area, type CheckContext } from './areas'
import { AreaMissing, areaProbe, type CallResult } from './probe'

/** An area's verdict: every call conformed, the backend lacks it, a call failed, or nothing could be called. */
export type AreaOutcome = 'conforms' | 'missing' | 'fails' | 'unchecked'

export type AreaReport = {
  id: string
  name: string
  required: boolean
  /** Whether the deployment declares the area served (`UPSTREAM_AREAS`): then it must conform, as a required one. */
  declared: boolean
  outcome: AreaOutcome
  calls: CallResult[]
  /** What was not read and why (no token given). */
  note?: string
}

export type BackendReport = {
  base: string
  market: { country?: string; locale?: string }
  areas: AreaReport[]
  /** Whether areas were declared (`UPSTREAM_AREAS`, `--areas`): else the optional areas are only reported. */
  declaring: boolean
  /** False when a required area (the original's eight calls) or a declared one is missing or fails. */
  passed: boolean
}

/** What to check and how: the backend, a fetch, and what the command line gave. */
export type CheckOptions = {
  /** The backend's origin (`https://api.brand.example`); the calls go to `${base}/api/…`. */
  base: string
  fetch: typeof fetch
  /** The market to read (`it`), else the first of `api/sites`; its locale, else the site's first. */
  country?: string
  locale?: string
  token?: string
  credentials?: { email: string; password: string }
  staffToken?: string
  /** Only GET calls (`--embedded`: the public `/api/` serves reads alone). */
  readsOnly?: boolean
  /** The areas to read, all by default (tests pass one). */
  areas?: Area[]
  /**
   * The areas the deployment declares its backend serves (`UPSTREAM_AREAS` as src/upstream/areas.ts reads it: `all`
   * for an empty one); left out, nothing is declared and the optional areas are only reported.
   */
  declared?: ReadonlySet<string> | 'all'
}

/**
 * Reads every area of the contract from a backend with the shared schemas and answers, area by area, what conforms,
 * what is missing and what fails (with the first mismatching field). It passes when the original's eight calls and
 * every area the deployment declares (`declared`) conform.
 *
 * @example
 * const report = await checkBackend({ base: 'https://api.brand.example', fetch })
 * process.exitCode = report.passed ? 0 : 1
 */
export async function checkBackend(options: CheckOptions): Promise<BackendReport> {
  const context: CheckContext = {
    country: options.country,
    locale: options.locale,
    token: options.token,
    credentials: options.credentials,
    readsOnly: options.readsOnly,
    staffToken: options.staffToken,
  }
  const areas: AreaReport[] = []
  for (const area of options.areas ?? AREAS) {
    const market = context.country && context.locale ? { country: context.country, locale: context.locale } : undefined
    const probe = areaProbe({ base: options.base, fetch: options.fetch, market, readsOnly: options.readsOnly })
    let note: string | undefined
    let missing = false
    try {
      note = await area.check(probe, context)
    } catch (error) {
      if (!(error instanceof AreaMissing)) throw error
      missing = true
    }
    const outcome: AreaOutcome = missing
      ? 'missing'
      : probe.calls.length === 0 && probe.skipped.length > 0
        ? 'unchecked'
        : probe.calls.length > 0 && probe.calls.every((call) => call.outcome === 'conforms')
          ? 'conforms'
          : 'fails'
    if (probe.skipped.length > 0)
      note = [`not called (reads only): ${probe.skipped.join(', ')}`, note].filter(Boolean).join('; ')
    const declared = !area.required && (options.declared === 'all' || (options.declared?.has(area.id) ?? false))
    areas.push({ id: area.id, name: area.name, required: area.required, declared, outcome, calls: probe.calls, note })
  }
  return {
    base: options.base,
    market: { country: context.country, locale: context.locale },
    areas,
    declaring: options.declared !== undefined,
    passed: areas.every((area) => !(area.required || area.declared) || area.outcome === 'conforms'),
  }
}
