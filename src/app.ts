import { Hono } from 'hono'
import { api, publicApi } from './api'
import { endSessionOnUnauthorized, guestOnly, loginAvailable, requireViewer } from './auth/guards'
import { logOut } from './auth/log-out'
import { FORGOT_PASSWORD_PATH, LOGIN_PATH, LOGOUT_PATH } from './auth/paths'
import { viewer } from './auth/viewer'
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
import { formGuards } from './forms'
import { addressesPage, createAddress, deleteAddress, editAddressPage, makeDefaultAddress, updateAddress } from './pages/account/addresses'
import { bikesPage, registerBike } from './pages/account/bikes'
import { orderPage } from './pages/account/order'
import { ordersPage } from './pages/account/orders'
import { accountOverview } from './pages/account/overview'
import { contentPage } from './pages/content-page'
import { dealerPage } from './pages/dealer'
import { sendErrorPage } from './pages/error-page'
import { home } from './pages/home'
import { landing } from './pages/landing'
import { loginPage, submitForgotPassword, submitLogin } from './pages/login'
import { articlePage, articlePermalink, newsIndex } from './pages/news'
import { productPage } from './pages/product'
import { productsPage } from './pages/products'
import { searchPage } from './pages/search'
import { submitUpdatePassword, updatePasswordPage } from './pages/update-password'
import { HtmlCache } from './render/respond'
import { robots } from './seo/robots'

export const app = new Hono<AppEnv>()
/** Every route that receives a form: same-origin only, small bodies. */
const form = formGuards()

app.use(securityHeaders())
app.use(requestContext(api))
app.use(viewer())

// The Worker's own paths: never markets.
app.get('/_health', health)
app.post('/_purge', purge)
app.post(PICK_MARKET_PATH, ...form, pickMarket)
app.get('/robots.txt', robots)
app.all('/api/*', publicApi)
app.get('/', landing)
app.get(LOGIN_PATH, guestOnly(), loginPage)
app.post(LOGIN_PATH, ...form, loginAvailable(), submitLogin)
app.post(FORGOT_PASSWORD_PATH, ...form, guestOnly(), submitForgotPassword)
app.post(LOGOUT_PATH, ...form, logOut)

// Everything else is /{country}-{locale}/…: resolved (404/503) before any page renders.
app.use('*', resolveMarket())
app.get('/:market', home)

app.use('/:market/update-password/*', guestOnly())
app.get('/:market/update-password/:token', updatePasswordPage)
app.post('/:market/update-password/:token', ...form, submitUpdatePassword)

app.use('/:market/my-account/*', requireViewer())
app.use('/:market/checkout/*', requireViewer())
app.get('/:market/my-account', accountOverview)
app.get('/:market/my-account/orders', ordersPage)
app.get('/:market/my-account/orders/:code', orderPage)
app.get('/:market/my-account/bikes', bikesPage)
app.post('/:market/my-account/bikes', ...form, registerBike)
app.get('/:market/my-account/addresses', addressesPage)
app.post('/:market/my-account/addresses', ...form, createAddress)
app.get('/:market/my-account/addresses/:id/edit', editAddressPage)
app.post('/:market/my-account/addresses/:id', ...form, updateAddress)
app.post('/:market/my-account/addresses/:id/delete', ...form, deleteAddress)
app.post('/:market/my-account/addresses/:id/default', ...form, makeDefaultAddress)

app.get('/:market/products', productsPage)
app.get('/:market/products/type/:type', productsPage)
app.get('/:market/products/:slug', productPage)
app.get('/:market/news', newsIndex)
app.get('/:market/news/details/:slug', articlePage)
app.get('/:market/news/:slugId', articlePermalink)
app.get('/:market/search/:type', searchPage)
app.get('/:market/dealers/:slug', dealerPage)
app.get('/:market/:page', contentPage)
// Later issues mount here: checkout, forms, whistleblower, sitemap.

app.notFound((c) => sendErrorPage(c, PageError.pageNotFound(c.req.url)))

app.onError(async (error, c) => {
  const loggedOut = await endSessionOnUnauthorized(c, error)
  if (loggedOut) return loggedOut
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

