import { HTTPException } from 'hono/http-exception'
import { isUpstreamError } from '../upstream/errors'

/** The exact messages of the site's error answers (PRODUCT.md §3). */
export const ErrorMessages = {
  noCountry: 'This page could not be found (no-country).',
  noLocale: 'This page could not be found (no-locale).',
  maintenance: 'This page its under maintenance, please check again later.',
  unavailable: 'This page is temporarily unavailable, please try again in a moment.',
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

/**
 * How the error page introduces itself: not found, maintenance (the site lookup's 500/503 or `under_maintenance`),
 * temporarily unavailable (any other failed call of the page's own data), or a failure of ours.
 */
export type ErrorKind = 'not-found' | 'maintenance' | 'unavailable' | 'bad-request' | 'server-error'

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

  /** 503 "temporarily unavailable": the page's own data could not be read; not maintenance, the market is kept. */
  static unavailable() {
    return new PageError(503, ErrorMessages.unavailable, 'unavailable')
  }

  /**
   * What a failed site lookup means (seed §8): its 500 or 503 is maintenance; any other failure (a timeout, garbage,
   * another status) is thrown on as it is, a failed call like any other.
   *
   * @example
   * const site = await lookups.site(country, locale).catch(PageError.fromSiteLookup)
   */
  static fromSiteLookup(error: unknown): never {
    if (isUpstreamError(error) && (error.status === 500 || error.status === 503)) throw PageError.maintenance()
    throw error
  }

  /**
   * The one mapping of errors to answers (the original's catalogue, seed §8): page errors as they are (maintenance
   * among them, thrown only by the site lookup's 500/503 and `under_maintenance`), an upstream refusal nobody expected
   * as a bad request (or 429 when it was one), any other upstream failure as 503 "temporarily unavailable", client
   * errors 4xx, the rest 500. A 401 reaching here had no session to end (the app ends a logged-in visitor's first): the
   * API refused an anonymous visitor's call, a failed call like any other, never maintenance.
   */
  static from(error: unknown): PageError {
    if (error instanceof PageError) return error
    if (isUpstreamError(error) && error.failure === 'rejected') {
      return error.status === 429
        ? new PageError(429, ErrorMessages.tooManyAttempts)
        : new PageError(400, ErrorMessages.badRequest)
    }
    if (isUpstreamError(error)) return PageError.unavailable()
    if (error instanceof HTTPException && error.status < 500) {
      const status = CLIENT_ERRORS.find((s) => s === error.status) ?? 400
      return new PageError(status, ErrorMessages.badRequest)
    }
    return new PageError(500, ErrorMessages.serverError)
  }
}
