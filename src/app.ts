import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { csrf } from 'hono/csrf'
import { api, publicApi } from './api'
import type { AppEnv } from './env'
import { PICK_MARKET_PATH, pickMarket } from './market/pick-market'
import { resolveMarket } from './market/resolve-market'
import { health } from './ops/health'
import { purge } from './ops/purge'
import { errorName, logEvent } from './ops/log'
import { loggablePath } from './ops/request-log'
import { PageError } from './errors/page-error'
import { securityHeaders } from './ops/security-headers'
import { requestContext } from './request-context'
import { contentPage } from './pages/content-page'
import { sendErrorPage } from './pages/error-page'
import { home } from './pages/home'
import { landing } from './pages/landing'
import { HtmlCache } from './render/respond'
import { robots } from './seo/robots'

const FORM_LIMIT = 16 * 1024

export const app = new Hono<AppEnv>()

app.use(securityHeaders())
app.use(requestContext(api))

// The Worker's own paths: never markets.
app.get('/_health', health)
app.post('/_purge', purge)
app.post(PICK_MARKET_PATH, csrf(), bodyLimit({ maxSize: FORM_LIMIT }), pickMarket)
app.get('/robots.txt', robots)
app.all('/api/*', publicApi)
app.get('/', landing)

// Everything else is /{country}-{locale}/…: resolved (404/503) before any page renders.
app.use('*', resolveMarket())
app.get('/:market', home)
app.get('/:market/:page', contentPage)
// Later issues mount here: login, my-account, checkout, products, news, search, dealers, forms, whistleblower.

app.notFound((c) => sendErrorPage(c, PageError.pageNotFound(c.req.url)))

app.onError(async (error, c) => {
  const pageError = PageError.from(error)
  if (pageError.status >= 500 && pageError.kind === 'server-error') {
    c.var.log.error = errorName(error)
    logEvent('error', 'unhandled', { path: loggablePath(c.req.path), error: errorName(error) })
  }
  try {
    return await sendErrorPage(c, pageError)
  } catch (renderError) {
    logEvent('error', 'error_page_failed', { path: loggablePath(c.req.path), error: errorName(renderError) })
    return c.text(pageError.message, pageError.status, { 'Cache-Control': HtmlCache.never })
  }
})

