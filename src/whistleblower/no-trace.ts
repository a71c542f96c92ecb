import type { MiddlewareHandler } from 'hono'
import { Caching } from '../cache/answer-caching'
import type { AppEnv } from '../env'

/** The whistleblower channel's pages: `/{m}/whistleblower-form` and everything under it. */
export const WHISTLEBLOWER_SLUG = 'whistleblower-form'

/** Whether a request's path is one of the whistleblower channel's (whatever its market, known or not). */
const isWhistleblowerPath = (path: string) => /^\/[^/]+\/whistleblower-form(?:\/|$)/.test(path)

/**
 * No trace of a reporter (issue 10, item 2), on every answer of the channel's paths, whatever made it (the page, the
 * error page, a 413, a 429): no cookie is set (not the remembered market, not a session's end, not a device cookie),
 * nothing keeps the answer (`no-store`), no page it links to learns where the visitor came from (`no-referrer`).
 * Whether a request is the channel's is decided here once, as `c.var.noTrace`, and read by the rest: the session is
 * not even read there (src/auth/viewer.ts), the request's log line holds its path, status and duration only
 * (src/ops/request-log.ts, src/request-context.ts), and the channel stays open in maintenance
 * (src/market/resolve-market.ts). Runs inside `answerCaching` and outside everything else.
 *
 * @example
 * app.use(noTrace())
 * // later: if (c.var.noTrace) …
 */
export const noTrace = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const channel = isWhistleblowerPath(c.req.path)
  c.set('noTrace', channel)
  if (!channel) return next()
  c.var.caching.lower(Caching.never)
  await next()
  c.res.headers.delete('Set-Cookie')
  c.res.headers.set('Referrer-Policy', 'no-referrer')
}
