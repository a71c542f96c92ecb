import { HTTPException } from 'hono/http-exception'
import { isUpstreamError } from '../upstream/errors'

/** The exact messages of the site's error answers (PRODUCT.md §3). */
export const ErrorMessages = {
  noCountry: 'This page could not be found (no-country).',
  noLocale: 'This page could not be found (no-locale).',
  maintenance: 'This page its under maintenance, please check again later.',
  featureOff: 'This page could not be found.',
  pageNotFound: (fullPath: string) => `Page Not Found: ${fullPath}`,
  badRequest: 'This request could not be understood.',
  unknownMarket: 'This market is not available.',
  crossSite: 'This form was sent from another site.',
  tooLarge: 'This form is too large.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  serverError: 'Something went wrong on our side. Please try again.',
} as const

/** The statuses an error page answers with. */
export type ErrorStatus = 400 | 403 | 404 | 405 | 413 | 429 | 500 | 502 | 503
const CLIENT_ERRORS = [400, 403, 404, 405, 413, 429] as const

/** How the error page introduces itself: not found, maintenance, or a failure of ours. */
export type ErrorKind = 'not-found' | 'maintenance' | 'bad-request' | 'server-error'

/**
 * The one error of the page path: thrown by middleware and loaders before anything streams, turned into the error
 * page by the app's `onError`. `market` says whose texts the page shows (null: int-en's).
 */
export class PageError extends Error {
  override readonly name = 'PageError'
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly kind: ErrorKind = status === 503
      ? 'maintenance'
      : status === 404
        ? 'not-found'
        : status >= 500
          ? 'server-error'
          : 'bad-request',
  ) {
    super(message)
  }

  static notFound(message: string) {
    return new PageError(404, message)
  }

  /** 404 "Page Not Found: {fullPath}" for a request URL (path and query, as the original showed it). */
  static pageNotFound(requestUrl: string) {
    const { pathname, search } = new URL(requestUrl)
    return new PageError(404, ErrorMessages.pageNotFound(pathname + search))
  }

  static maintenance() {
    return new PageError(503, ErrorMessages.maintenance)
  }

  /**
   * The one mapping of errors to answers: page errors as they are, upstream failures as maintenance (an upstream
   * refusal nobody expected as a bad request, or as 429 when it was one), refusals 4xx, the rest 500. A 401 reaching
   * here had no session to end (the app ends a logged-in visitor's first): the API refused the site's own call, a bad
   * answer from the gateway's side (502), not maintenance (only a failed site lookup is, seed §8), so the visitor keeps
   * their market.
   */
  static from(error: unknown): PageError {
    if (error instanceof PageError) return error
    if (isUpstreamError(error) && error.failure === 'unauthorized') return new PageError(502, ErrorMessages.serverError)
    if (isUpstreamError(error) && error.failure === 'rejected') {
      return error.status === 429
        ? new PageError(429, ErrorMessages.tooManyAttempts)
        : new PageError(400, ErrorMessages.badRequest)
    }
    if (isUpstreamError(error)) return PageError.maintenance()
    if (error instanceof HTTPException && error.status < 500) {
      const status = CLIENT_ERRORS.find((s) => s === error.status) ?? 400
      return new PageError(status, ErrorMessages.badRequest)
    }
    return new PageError(500, ErrorMessages.serverError)
  }
}
