/** Why an upstream call failed. `unauthorized` is a 401: the session issue logs the visitor out on it. */
export type UpstreamFailure = 'unauthorized' | 'unavailable' | 'timeout' | 'invalid'

/** The one error type of the upstream client: every failed call throws it, nothing else. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError'
  constructor(
    readonly failure: UpstreamFailure,
    readonly path: string,
    readonly status?: number,
  ) {
    super(`upstream ${failure}${status ? ` (${status})` : ''} on ${path}`)
  }
}

export const isUpstreamError = (error: unknown): error is UpstreamError => error instanceof UpstreamError
