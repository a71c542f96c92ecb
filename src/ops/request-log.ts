import type { CacheOutcome } from '../cache/swr'
import type { UpstreamCall } from '../upstream/client'

/**
 * What one request did, written as one JSON line when it ends. It never holds cookies, tokens, query strings or
 * form content: only the method, the path, the market and counts.
 */
export class RequestLog {
  private readonly started = Date.now()
  private readonly cache: Partial<Record<CacheOutcome, number>> = {}
  private readonly failures: Array<{ path: string; failure: string; status: number }> = []
  private upstreamCalls = 0
  market: string | null = null
  error: string | null = null

  constructor(
    private readonly method: string,
    private readonly path: string,
  ) {}

  /** Counts a cache lookup by how it was answered. */
  cacheOutcome = (_key: string, outcome: CacheOutcome): void => {
    this.cache[outcome] = (this.cache[outcome] ?? 0) + 1
  }

  /** Counts an upstream call, and remembers a failed one (path only: upstream paths carry no personal data). */
  upstreamCall = (call: UpstreamCall): void => {
    this.upstreamCalls++
    if (call.failure) this.failures.push({ path: call.path.split('?')[0] as string, failure: call.failure, status: call.status })
  }

  /** The cache outcome of the whole request: the weakest of its lookups. */
  get cacheSummary(): CacheOutcome | 'none' {
    for (const outcome of ['miss', 'stale', 'hit', 'memo'] as const) if (this.cache[outcome]) return outcome
    return 'none'
  }

  /** Writes the line. */
  write(status: number): void {
    const line = {
      level: status >= 500 ? 'error' : 'info',
      method: this.method,
      path: this.path,
      status,
      market: this.market,
      cache: this.cacheSummary,
      cacheLookups: this.cache,
      upstreamCalls: this.upstreamCalls,
      upstreamFailures: this.failures.length ? this.failures : undefined,
      error: this.error ?? undefined,
      durationMs: Date.now() - this.started,
    }
    console.log(JSON.stringify(line))
  }
}
