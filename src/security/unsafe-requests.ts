import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { matchedRoutes } from 'hono/route'
import { ErrorMessages, PageError } from '../errors/page-error'

/** The largest body a route reads unless it asks for more (the site's forms are a few hundred bytes). */
export const DEFAULT_BODY_LIMIT = 16 * 1024

type Handler = MiddlewareHandler | ((...args: never[]) => unknown)

const crossSiteAllowed = new WeakSet<Handler>()
const largerBodies = new WeakSet<Handler>()

/**
 * Marks a route that other sites may call (the purge with its bearer secret, a payment provider's signed webhook):
 * it proves its caller itself. Every other unsafe request must come from this site.
 *
 * @example
 * app.post('/_purge', allowCrossSite(), purge)
 */
export function allowCrossSite(): MiddlewareHandler {
  const mark: MiddlewareHandler = async (_c, next) => next()
  crossSiteAllowed.add(mark)
  return mark
}

/**
 * Lets a route read bodies up to `bytes` (a CV upload) instead of the default 16 KiB; a route whose pages differ
 * (the lead forms) gives a function of the request, asked after the middleware before the route (the market's).
 *
 * @example
 * market.post('/:page', acceptBodiesUpTo((c) => leadFormOf(c)?.maxBytes ?? DEFAULT_BODY_LIMIT), submitLeadForm)
 */
export function acceptBodiesUpTo(bytes: number | ((c: Context) => number)): MiddlewareHandler {
  const limits = new Map<number, MiddlewareHandler>()
  const limitOf = (maxSize: number) => {
    let limit = limits.get(maxSize)
    if (!limit) {
      limit = bodyLimit({ maxSize, onError: tooLarge })
      limits.set(maxSize, limit)
    }
    return limit
  }
  const mark: MiddlewareHandler = (c, next) => limitOf(typeof bytes === 'number' ? bytes : bytes(c))(c, next)
  largerBodies.add(mark)
  return mark
}

const defaultLimit = bodyLimit({ maxSize: DEFAULT_BODY_LIMIT, onError: tooLarge })

/**
 * Every unsafe request (anything but GET, HEAD, OPTIONS), whatever its route and whatever its body's type: from this
 * site only (`fromThisSite`) unless the route allows other sites; and a small body unless the route asked for more.
 * Runs before the routes, so a route added later is protected without doing anything.
 *
 * @example
 * app.use(unsafeRequests())
 */
export const unsafeRequests = (): MiddlewareHandler => async (c, next) => {
  if (isSafe(c.req.method)) return next()
  const marks = marksOfAnsweringRoute(c)
  if (!marks.some((mark) => crossSiteAllowed.has(mark))) await refuseCrossSite(c)
  if (marks.some((mark) => largerBodies.has(mark))) return next()
  return defaultLimit(c, next)
}

/**
 * The middleware of the route that answers the request: the first matched route that is no middleware (a handler of
 * one parameter), and the middleware registered with it (same method and path). A mark on another route that also
 * matches (`POST /:market/:page` matches `/login/forgot`) is not this request's.
 */
function marksOfAnsweringRoute(c: Context): Handler[] {
  const routes = matchedRoutes(c)
  const answering = routes.find((route) => route.handler.length < 2)
  if (!answering) return []
  return routes
    .filter((route) => route.path === answering.path && route.method === answering.method)
    .map((route) => route.handler)
}

async function refuseCrossSite(c: Context): Promise<void> {
  if (!fromThisSite(c.req.header('Sec-Fetch-Site'), c.req.header('Origin'), new URL(c.req.url).origin)) {
    throw new PageError(403, ErrorMessages.crossSite)
  }
}

/**
 * Whether an unsafe request came from one of this site's own pages, judged by where the browser says it came from and
 * never by the body's type (Hono's `csrf` looks only at the types a page can send without a preflight, so a JSON
 * post went unjudged): fetch metadata, when sent, must be `same-origin`; an `Origin`, when sent, must be the site's
 * (`null`, which the no-referrer whistleblower pages make browsers send, names none); and one of the two must vouch
 * for the site. A request that names neither (no current browser sends such a post) is refused too.
 */
function fromThisSite(fetchSite: string | undefined, origin: string | undefined, siteOrigin: string): boolean {
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false
  if (origin !== undefined && origin !== 'null' && origin !== siteOrigin) return false
  return fetchSite === 'same-origin' || origin === siteOrigin
}

function tooLarge(): never {
  throw new PageError(413, ErrorMessages.tooLarge)
}

const isSafe = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
