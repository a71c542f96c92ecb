import type { Rejection } from '../../contract/account-schemas'

/**
 * Why an upstream call failed. `unauthorized` is a 401 (the session ends); `rejected` is the API refusing the request
 * itself (400, 409, 410, 422, 429…), with its reasons; the others are failures of the API.
 */
export type UpstreamFailure = 'unauthorized' | 'rejected' | 'unavailable' | 'timeout' | 'invalid'

/** The one error type of the upstream client: every failed call throws it, nothing else. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError'
  constructor(
    readonly failure: UpstreamFailure,
    readonly path: string,
    readonly status?: number,
    /** The API's reasons, for `rejected`. */
    readonly rejection?: Rejection,
  ) {
    super(`upstream ${failure}${status ? ` (${status})` : ''} on ${path}`)
  }
}

export const isUpstreamError = (error: unknown): error is UpstreamError => error instanceof UpstreamError

/** Whether an error is the API refusing the request (a 4xx with reasons), as forms expect for invalid input. */
export const isRejection = (error: unknown, status?: number): error is UpstreamError & { rejection: Rejection } =>
  isUpstreamError(error) && error.failure === 'rejected' && (status === undefined || error.status === status)

/** A call's outcome when the API may refuse it the way a form expects: its answer, or the refusal. */
export type Outcome<T> =
  | { answer: T; refused?: undefined }
  | { answer?: undefined; refused: UpstreamError & { rejection: Rejection } }

/**
 * Awaits a call, turning the refusals a form expects (e.g. 409, 410, 422) into `{ refused }`; anything else still
 * throws to the app's one error path.
 *
 * @example
 * const { refused } = await unlessRefused(account.registerBike(bike), [409, 422])
 */
export async function unlessRefused<T>(call: Promise<T>, statuses: readonly number[]): Promise<Outcome<T>> {
  try {
    return { answer: await call }
  } catch (error) {
    if (isRejection(error) && statuses.includes(error.status ?? 0)) return { refused: error }
    throw error
  }
}
