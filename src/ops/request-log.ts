import type { D1Rows } from '../../contract/d1-rows'
import type { CacheOutcome } from '../cache/swr'
import type { UpstreamCall } from '../upstream/client'
import { logEvent } from './log'

/**
 * Path segments after which the next segment is a secret (a password-reset or an address-confirmation token, a
 * newsletter confirmation's (`newsletter/confirm/{token}`): the site's pages and the API's calls; a test payment's id,
 * which opens its page): logged as `:token`.
 */
const SECRET_AFTER = new Set(['update-password', 'reset-password', 'confirm-email', 'confirm', '_test-payments'])

/** A path as it may be logged: secrets in it replaced. */
export function loggablePath(path: string): string {
  const segments = path.split('/')
  return segments
    .map((segment, i) => (i > 0 && SECRET_AFTER.has(segments[i - 1] as string) ? ':token' : segment))
    .join('/')
}

/** How the page cache answered a page: from the isolate's memory, the data centre's cache, stale, or rendered. */
export type PageCacheOutcome = 'memory' | 'cache' | 'stale' | 'miss'

/**
 * What one request did as its metrics data point takes it (src/ops/metrics.ts): its outcome and counts, no path. On the
 * whistleblower channel's paths the market, the cache and the upstream are left out, as in its log line.
 */
export type RequestSummary = {
  method: string
  status: number
  market: string | null
  /** How the page cache answered the page, or else the weakest of the request's cached lookups. */
  cache: PageCacheOutcome | CacheOutcome | 'none'
  upstreamCalls: number
  /** The calls the backend failed (a 5xx, a timeout, no answer, an unreadable answer), not its 401s or refusals. */
  upstreamFailures: number
  durationMs: number
}

/**
 * What one request did, written as one JSON line when it ends. It never holds cookies, tokens, query strings or
 * form content: only the method, the path, the market and counts. On the whistleblower channel's paths it holds the
 * path, the status and the duration only: no market, no upstream call, nothing that could single a reporter out.
 */
export class RequestLog {
  private readonly started = Date.now()
  private readonly cache: Partial<Record<CacheOutcome, number>> = {}
  private readonly failures: Array<{ path: string; failure: string; status: number }> = []
  private upstreamCalls = 0
  /** The largest value the request wrote to KV, in bytes (the cached lookups' stores). */
  private kvLargestPut = 0
  /** The D1 rows the embedded API read and wrote for this request (reference-api/row-count.ts adds to it). */
  readonly d1Rows: D1Rows = { read: 0, written: 0 }
  /** The failed calls that were the backend's failures (a 5xx, a timeout, no answer, garbage), not its refusals. */
  private backendFailures = 0
  market: string | null = null
  error: string | null = null
  /** How the page cache answered (src/page-cache/page-cache.ts), on the pages it keeps. */
  page: PageCacheOutcome | null = null

  private readonly path: string
  private readonly bare: boolean

  /** `noTrace`: the request is the whistleblower channel's (`c.var.noTrace`): its line is bare. */
  constructor(
    private readonly method: string,
    path: string,
    { noTrace }: { noTrace: boolean },
  ) {
    this.path = loggablePath(path)
    this.bare = noTrace
  }

  private readonly told = new Set<string>()

  /**
   * Whether an event is told for the first time in this request (the page cache's own render shares its visitor's
   * line, and meets the same fallbacks): a warning is logged once per request.
   */
  firstTime(event: string): boolean {
    if (this.told.has(event)) return false
    this.told.add(event)
    return true
  }

  /** Counts a cache lookup by how it was answered. */
  cacheOutcome = (_key: string, outcome: CacheOutcome): void => {
    this.cache[outcome] = (this.cache[outcome] ?? 0) + 1
  }

  /** Notes a value written to KV, by its size in bytes: the line reports the largest. */
  kvPut = (_key: string, bytes: number): void => {
    if (bytes > this.kvLargestPut) this.kvLargestPut = bytes
  }

  /** Counts an upstream call, and remembers a failed one (its path without query, secrets redacted). */
  upstreamCall = (call: UpstreamCall): void => {
    this.upstreamCalls++
    if (call.failure && call.failure !== 'rejected' && call.failure !== 'unauthorized') this.backendFailures++
    if (call.failure)
      this.failures.push({
        path: loggablePath(call.path.split('?')[0] as string),
        failure: call.failure,
        status: call.status,
      })
  }

  /** How many upstream calls failed so far (a render that met one is not kept by the page cache). */
  get failureCount(): number {
    return this.failures.length
  }

  /** The cache outcome of the whole request: the weakest of its lookups. */
  get cacheSummary(): CacheOutcome | 'none' {
    for (const outcome of ['miss', 'stale', 'hit', 'memo'] as const) if (this.cache[outcome]) return outcome
    return 'none'
  }

  /** What the request did, for its metrics data point. */
  summary(status: number): RequestSummary {
    const durationMs = Date.now() - this.started
    if (this.bare)
      return {
        method: this.method,
        status,
        market: null,
        cache: 'none',
        upstreamCalls: 0,
        upstreamFailures: 0,
        durationMs,
      }
    return {
      method: this.method,
      status,
      market: this.market,
      cache: this.page ?? this.cacheSummary,
      upstreamCalls: this.upstreamCalls,
      upstreamFailures: this.backendFailures,
      durationMs,
    }
  }

  /** Writes the line. */
  write(status: number): void {
    if (this.bare) {
      logEvent(status >= 500 ? 'error' : 'info', 'request', {
        path: this.path,
        status,
        durationMs: Date.now() - this.started,
      })
      return
    }
    logEvent(status >= 500 ? 'error' : 'info', 'request', {
      method: this.method,
      path: this.path,
      status,
      market: this.market,
      cache: this.cacheSummary,
      cacheLookups: this.cache,
      page: this.page ?? undefined,
      upstreamCalls: this.upstreamCalls,
      upstreamFailures: this.failures.length ? this.failures : undefined,
      rowsRead: this.d1Rows.read || undefined,
      rowsWritten: this.d1Rows.written || undefined,
      kvLargestPut: this.kvLargestPut || undefined,
      error: this.error ?? undefined,
      durationMs: Date.now() - this.started,
    })
  }
}
