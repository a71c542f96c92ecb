import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { csrf } from 'hono/csrf'
import { HTTPException } from 'hono/http-exception'
import { api } from './api'
import type { AppEnv } from './env'
import { pickMarket } from './market/pick-market'
import { resolveMarket } from './market/resolve-market'
import { health } from './operator/health'
import { purge } from './operator/purge'
import { edgeContext } from './ops/edge-context'
import { errorName, logEvent } from './ops/log'
import { ErrorMessages, PageError } from './ops/page-error'
import { securityHeaders } from './ops/security-headers'
import { contentPage } from './pages/content-page'
import { sendErrorPage } from './pages/error-page'
import { home } from './pages/home'
import { landing } from './pages/landing'
import { robots } from './seo/robots'
import { isUpstreamError } from './upstream/errors'

const FORM_LIMIT = 16 * 1024

export const app = new Hono<AppEnv>()

app.use(edgeContext(api))
app.use(securityHeaders())

// The Worker's own paths: never markets.
app.get('/_health', health)
app.post('/_purge', purge)
app.post('/_market', csrf(), bodyLimit({ maxSize: FORM_LIMIT }), pickMarket)
app.get('/robots.txt', robots)
app.all('/api/*', (c) =>
  c.env.UPSTREAM_URL ? c.json({ message: 'Not Found' }, 404) : api.fetch(c.req.raw, c.env, c.executionCtx))
app.get('/', landing)

// Everything else is /{country}-{locale}/…: resolved (404/503) before any page renders.
app.use('*', resolveMarket())
app.get('/:market', home)
app.get('/:market/:page', contentPage)
// Later issues mount here: login, my-account, checkout, products, news, search, dealers, forms, whistleblower.

app.notFound((c) => sendErrorPage(c, PageError.pageNotFound(c.req.url)))

app.onError(async (error, c) => {
  const pageError = toPageError(error)
  if (pageError.status >= 500 && pageError.kind === 'server-error') {
    c.var.log.error = errorName(error)
    logEvent('error', 'unhandled', { path: c.req.path, error: errorName(error) })
  }
  try {
    return await sendErrorPage(c, pageError)
  } catch (renderError) {
    logEvent('error', 'error_page_failed', { path: c.req.path, error: errorName(renderError) })
    return c.text(pageError.message, pageError.status, { 'Cache-Control': 'no-store' })
  }
})

/** The one mapping of errors to answers: page errors as they are, upstream failures as maintenance, the rest 500. */
function toPageError(error: Error): PageError {
  if (error instanceof PageError) return error
  if (isUpstreamError(error)) return PageError.maintenance()
  if (error instanceof HTTPException && error.status < 500) {
    const status = ([400, 403, 404, 405, 413] as const).find((s) => s === error.status) ?? 400
    return new PageError(status, ErrorMessages.badRequest)
  }
  return new PageError(500, ErrorMessages.serverError)
}
