import { Hono } from 'hono'
import { consoleApp, consoleError, isConsolePath } from './console/app'
import { endSessionOnUnauthorized, guestOnly, requireViewer } from './auth/guards'
import { logOut } from './auth/log-out'
import { FORGOT_PASSWORD_PATH, LOGIN_PATH, LOGOUT_PATH, REGISTER_PATH, REGISTER_SENT_PATH } from './auth/paths'
import { viewer } from './auth/viewer'
import { answerCaching } from './cache/answer-caching'
import type { AppEnv, MarketEnv } from './env'
import { PageError } from './errors/page-error'
import { PICK_MARKET_PATH } from './market/pick-form'
import { pickMarket } from './market/pick-market'
import { requireArea, requirePage } from './market/request-availability'
import { resolveMarket } from './market/resolve-market'
import { deepHealth } from './ops/deep-health'
import { health } from './ops/health'
import { errorName, logEvent } from './ops/log'
import { purge } from './ops/purge'
import { rewrapWhistleblower } from './ops/rewrap'
import { loggablePath } from './ops/request-log'
import {
  addressesPage,
  createAddress,
  deleteAddress,
  deleteAddressPage,
  editAddressPage,
  makeDefaultAddress,
  updateAddress,
} from './pages/account/addresses'
import { bikesPage, registerBike } from './pages/account/bikes'
import { orderPage } from './pages/account/order'
import { ordersPage } from './pages/account/orders'
import { accountNewsletterPage, submitAccountNewsletter } from './pages/account/newsletter'
import { accountOverview } from './pages/account/overview'
import { changePassword, passwordPage } from './pages/account/password'
import { eraseAccount, erasedPage, erasePage } from './pages/account/erase'
import { profilePage, saveProfile } from './pages/account/profile'
import { addToCart, cartPage, changeCartLine, removeCartLine } from './pages/cart'
import { applyCartDiscount, removeCartDiscount } from './cart/cart-discount'
import { checkoutPage, submitCheckout } from './pages/checkout/checkout-form'
import { resultPage, submitResult } from './pages/checkout/result'
import { reviewPage, submitReview } from './pages/checkout/review'
import { contentPage } from './pages/content-page'
import { dealerPage } from './pages/dealer'
import { sendErrorPage } from './pages/error-page'
import { home } from './pages/home'
import { landing } from './pages/landing'
import {
  newsletterConfirmed,
  newsletterConfirmPage,
  newsletterPage,
  newsletterSent,
  submitNewsletter,
  submitNewsletterConfirm,
} from './pages/newsletter'
import { newsletterUnsubscribePage, submitNewsletterUnsubscribe } from './pages/newsletter-unsubscribe'
import { leadFormBodyLimit, leadFormSent, submitLeadForm } from './pages/lead-form'
import { loginPage, submitForgotPassword, submitLogin } from './pages/login'
import { registerPage, registerSent, submitRegister } from './pages/register'
import { confirmEmailPage, resendConfirmation, submitConfirmEmail } from './pages/confirm-email'
import { articlePage, articlePermalink, newsIndex } from './pages/news'
import { productPage } from './pages/product'
import { productsPage } from './pages/products'
import { searchSuggestions } from './pages/search-suggestions'
import { searchPage } from './pages/search'
import { submitUpdatePassword, updatePasswordPage } from './pages/update-password'
import { pageCache } from './page-cache/page-cache'
import { requestContext } from './request-context'
import { publicApi } from './upstream/public-api'
import { securityHeaders } from './security/headers'
import { acceptBodiesUpTo, allowCrossSite, unsafeRequests } from './security/unsafe-requests'
import { robots } from './seo/robots'
import { CONSENT_PATH } from './tracking/consent'
import { submitConsent } from './tracking/submit-consent'
import { marketSitemap, sitemapIndex } from './seo/sitemap'
import { noTrace } from './whistleblower/no-trace'
import { requirePaymentProvider } from './payments/providers'
import { submitTestPayment, testPaymentPage } from './payments/test-payment-page'
import { deliverTestWebhooksTo, TEST_PAYMENTS_PATH, WEBHOOK_PATH } from './payments/test-provider'
import { receivePaymentWebhook, WEBHOOK_BODY_BYTES } from './payments/webhook'
import { MAIL_EVENT_BODY_BYTES, MAIL_EVENTS_PATH, receiveMailEvent } from './mail/mail-events'
import { REPORT_BODY_BYTES, reportPage, submitReport } from './pages/whistleblower/report'
import { statusPage, submitStatus } from './pages/whistleblower/status'

/**
 * The pages of one market, `/{country}-{locale}/…`: the market is resolved (404/503) before any of them runs. Its
 * generic content-page route (`/:page`, a pageLinks slug) comes last, so every route above it answers first: a new
 * page is one line above it.
 */
const market = new Hono<MarketEnv>()
market.use(resolveMarket())
// Public pages from the page cache (src/page-cache/): its own renders are a second dispatch of this app.
market.use(pageCache((request, env, ctx) => app.fetch(request, env, ctx)))
market.get('/', home)

// Without the account area (src/upstream/areas.ts) its pages answer 404 before anything else is asked.
market.use('/update-password/*', requirePage('password-reset'), guestOnly())
market.get('/update-password/:token', updatePasswordPage)
market.post('/update-password/:token', submitUpdatePassword)

// Confirming an address works logged in or not (the link may be opened on another device).
market.use('/confirm-email/*', requirePage('account'), requirePage('email-confirmation'))
market.get('/confirm-email/:token', confirmEmailPage)
market.post('/confirm-email/:token', submitConfirmEmail)

// The account's pages of an area the backend lacks (orders: the shop's) answer 404 before the login is asked for.
market.use('/my-account/orders/*', requirePage('account-orders'))
market.use('/my-account/bikes/*', requirePage('account-bikes'))
market.use('/my-account/addresses/*', requirePage('account-addresses'))
market.use('/my-account/confirm-email', requirePage('email-confirmation'))
market.use('/my-account/profile/*', requirePage('account-profile'))
market.use('/my-account/newsletter', requirePage('newsletter'))
market.use('/my-account/*', requireViewer())
// Checkout exists only where the market sells online: 404 before the login is even asked for; 503 without a provider.
market.use('/checkout/*', requirePage('checkout'), requireViewer(), requirePaymentProvider())
market.get('/my-account', accountOverview)
market.post('/my-account/confirm-email', resendConfirmation)
market.get('/my-account/orders', ordersPage)
market.get('/my-account/orders/:code', orderPage)
market.get('/my-account/bikes', bikesPage)
market.post('/my-account/bikes', registerBike)
market.get('/my-account/addresses', addressesPage)
market.post('/my-account/addresses', createAddress)
market.get('/my-account/addresses/:id/edit', editAddressPage)
market.post('/my-account/addresses/:id', updateAddress)
market.get('/my-account/addresses/:id/delete', deleteAddressPage)
market.post('/my-account/addresses/:id/delete', deleteAddress)
market.post('/my-account/addresses/:id/default', makeDefaultAddress)
market.get('/my-account/profile', profilePage)
market.post('/my-account/profile', saveProfile)
market.get('/my-account/profile/password', passwordPage)
market.post('/my-account/profile/password', changePassword)
market.get('/my-account/profile/delete', erasePage)
market.post('/my-account/profile/delete', eraseAccount)
market.get('/my-account/newsletter', accountNewsletterPage)
market.post('/my-account/newsletter', submitAccountNewsletter)
// The goodbye page of an erased account: its visitor is logged out by then.
market.get('/account-deleted', requirePage('account'), erasedPage)

// The cart (src/pages/cart.tsx): only in markets that sell online (the availability rule's `cart`).
market.get('/cart', requirePage('cart'), cartPage)
market.post('/cart/items', requirePage('cart'), addToCart)
market.post('/cart/items/:sku', requirePage('cart'), changeCartLine)
market.post('/cart/items/:sku/remove', requirePage('cart'), removeCartLine)
market.post('/cart/discount', requirePage('cart'), applyCartDiscount)
market.post('/cart/discount/remove', requirePage('cart'), removeCartDiscount)

// Checkout (src/pages/checkout/): the form, the review (placing and paying), the provider's way back.
market.get('/checkout/:code', checkoutPage)
market.post('/checkout/:code', submitCheckout)
market.get('/checkout/:code/review', reviewPage)
market.post('/checkout/:code/review', submitReview)
market.get('/checkout/:code/result', resultPage)
market.post('/checkout/:code/result', submitResult)

market.get('/products', requirePage('products'), productsPage)
market.get('/products/type/:type', requirePage('products'), productsPage)
market.get('/products/:slug', productPage)
market.get('/news', requirePage('news'), newsIndex)
market.get('/news/details/:slug', requirePage('news'), articlePage)
market.get('/news/:slugId', requirePage('news'), articlePermalink)
market.get('/search/suggestions.json', requirePage('search'), searchSuggestions)
market.get('/search/:type', requirePage('search'), searchPage)
market.get('/dealers/:slug', requirePage('dealer-pages'), dealerPage)
market.get('/:sitemap{sitemap(?:-(?:dealers|products|news))?(?:-[0-9]+)?\\.xml}', marketSitemap)
// The whistleblower channel: pages of their own, not content pages (src/pages/whistleblower/, src/whistleblower/).
// Open even under maintenance; off only where neither the backend nor the Worker holds the channel.
market.use('/whistleblower-form/*', requireArea('whistleblower'))
market.get('/whistleblower-form', reportPage)
market.post('/whistleblower-form', acceptBodiesUpTo(REPORT_BODY_BYTES), submitReport)
market.get('/whistleblower-form/status', statusPage)
market.post('/whistleblower-form/status', acceptBodiesUpTo(REPORT_BODY_BYTES), submitStatus)
// The newsletter's double opt-in (src/pages/newsletter.tsx): the footer's form posts to /newsletter.
market.use('/newsletter/*', requirePage('newsletter'))
market.get('/newsletter', newsletterPage)
market.post('/newsletter', submitNewsletter)
market.get('/newsletter/sent', newsletterSent)
market.get('/newsletter/confirmed', newsletterConfirmed)
market.get('/newsletter/confirm/:token', newsletterConfirmPage)
market.post('/newsletter/confirm/:token', submitNewsletterConfirm)
// One-click unsubscribe (RFC 8058): a mail program posts from anywhere; the signed link is the proof.
market.get('/newsletter/unsubscribe/:token', newsletterUnsubscribePage)
market.post('/newsletter/unsubscribe/:token', allowCrossSite(), submitNewsletterUnsubscribe)
market.get('/:page/sent', leadFormSent)
// Last: any other single segment is a content page by its slug in the market's pageLinks (its lead form posts there).
market.get('/:page', contentPage)
market.post('/:page', acceptBodiesUpTo(leadFormBodyLimit), submitLeadForm)

/**
 * The Worker: what every request runs, then its routes in three tiers — the Worker's own paths (never markets), the
 * paths without a market that visitors use, and the markets.
 */
export const app = new Hono<AppEnv>()
app.use(securityHeaders())
app.use(answerCaching())
app.use(noTrace())
app.use(requestContext())
app.use(unsafeRequests())
app.use(viewer())

// The Worker's own paths: matched before any market is resolved.
app.get('/_health', health)
app.get('/_health/deep', deepHealth)
app.post('/_purge', allowCrossSite(), purge)
app.post('/_rewrap/whistleblower', allowCrossSite(), rewrapWhistleblower)
app.get('/robots.txt', robots)
app.get('/sitemap.xml', sitemapIndex)
app.all('/api/*', publicApi)
app.route('/_console', consoleApp)
// Payments (src/payments/): the providers' signed webhook, the only POST other sites may send; the embedded test
// provider's page (404 unless it is the deployment's provider), whose buttons are same-origin like every form.
app.post(WEBHOOK_PATH, allowCrossSite(), acceptBodiesUpTo(WEBHOOK_BODY_BYTES), receivePaymentWebhook)
// The mail service's signed webhook (src/mail/mail-events.ts): bounces and complaints stop mail to an address.
app.post(MAIL_EVENTS_PATH, allowCrossSite(), acceptBodiesUpTo(MAIL_EVENT_BODY_BYTES), receiveMailEvent)
app.get(`${TEST_PAYMENTS_PATH}/:id`, testPaymentPage)
app.post(`${TEST_PAYMENTS_PATH}/:id`, submitTestPayment)

// Paths without a market.
app.get('/', landing)
app.post(PICK_MARKET_PATH, pickMarket)
app.post(CONSENT_PATH, submitConsent)
app.get(LOGIN_PATH, guestOnly(), loginPage)
app.post(LOGIN_PATH, requirePage('account'), submitLogin)
app.post(FORGOT_PASSWORD_PATH, requirePage('password-reset'), guestOnly(), submitForgotPassword)
app.get(REGISTER_PATH, requirePage('account'), requirePage('sign-up'), guestOnly(), registerPage)
app.post(REGISTER_PATH, requirePage('account'), requirePage('sign-up'), guestOnly(), submitRegister)
app.get(REGISTER_SENT_PATH, requirePage('account'), requirePage('sign-up'), registerSent)
app.post(LOGOUT_PATH, logOut)

// Everything else is /{country}-{locale}/…
app.route('/:market', market)

// The test provider delivers its webhooks to this app's own fetch, as a provider's HTTP call reaches the Worker.
deliverTestWebhooksTo(app)

app.notFound((c) =>
  isConsolePath(c.req.path)
    ? consoleError(c, PageError.notFound(''))
    : sendErrorPage(c, PageError.pageNotFound(c.req.url)),
)

app.onError(async (error, c) => {
  if (isConsolePath(c.req.path)) return consoleError(c, error)
  const loggedOut = await endSessionOnUnauthorized(c, error)
  if (loggedOut) return loggedOut
  const pageError = PageError.from(error)
  if (pageError.status >= 500 && pageError.kind === 'server-error') {
    c.var.log.error = errorName(error)
    logEvent('error', 'unhandled', { path: loggablePath(c.req.path), error: errorName(error) })
  }
  // The original's "other call failures" (seed §8): logged, the page "temporarily unavailable".
  if (pageError.kind === 'unavailable') {
    c.var.log.error = errorName(error)
    logEvent('warn', 'page_unavailable', { path: loggablePath(c.req.path), error: errorName(error) })
  }
  try {
    return await sendErrorPage(c, pageError)
  } catch (renderError) {
    logEvent('error', 'error_page_failed', { path: loggablePath(c.req.path), error: errorName(renderError) })
    return c.text(pageError.message, pageError.status)
  }
})
