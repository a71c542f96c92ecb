import { receiveMailEvent } from '../../src/mail/mail-events'
import { describe, expect, it } from 'vitest'
import { publicApi } from '../../src/upstream/public-api'
import { app } from '../../src/app'
import { logOut } from '../../src/auth/log-out'
import { consoleHome } from '../../src/console/app'
import { downloadAttachment } from '../../src/console/cases/attachment-download'
import { acknowledgeCase, addNote, closeCase, writeToReporter } from '../../src/console/cases/case-changes'
import { casesPage } from '../../src/console/cases/case-list'
import { casePage } from '../../src/console/cases/case-page'
import { leadCv, leadPage, leadsPage, markLeadHandled } from '../../src/console/leads'
import { changeMarket, marketsPage } from '../../src/console/markets'
import { createDiscountCode, disableDiscountCode, discountCodesPage } from '../../src/console/discount-codes'
import { cancelOrder, markOrderPaid, refundOrder, shipOrder } from '../../src/console/order-actions'
import { consoleOrderPage, consoleOrdersPage } from '../../src/console/orders'
import { outboxMailPage, outboxPage } from '../../src/console/outbox'
import { purgePage, submitPurge } from '../../src/console/purge'
import { consoleLoginPage, consoleLogout, submitConsoleLogin } from '../../src/console/sign-in'
import { purge } from '../../src/ops/purge'
import { rewrapWhistleblower } from '../../src/ops/rewrap'
import { deepHealth } from '../../src/ops/deep-health'
import { health } from '../../src/ops/health'
import { pickMarket } from '../../src/market/pick-market'
import {
  addressesPage,
  createAddress,
  deleteAddress,
  deleteAddressPage,
  editAddressPage,
  makeDefaultAddress,
  updateAddress,
} from '../../src/pages/account/addresses'
import { bikesPage, registerBike } from '../../src/pages/account/bikes'
import { orderPage } from '../../src/pages/account/order'
import { ordersPage } from '../../src/pages/account/orders'
import { eraseAccount, erasedPage, erasePage } from '../../src/pages/account/erase'
import { accountNewsletterPage, submitAccountNewsletter } from '../../src/pages/account/newsletter'
import { accountOverview } from '../../src/pages/account/overview'
import { changePassword, passwordPage } from '../../src/pages/account/password'
import { profilePage, saveProfile } from '../../src/pages/account/profile'
import { addToCart, cartPage, changeCartLine, removeCartLine } from '../../src/pages/cart'
import { applyCartDiscount, removeCartDiscount } from '../../src/cart/cart-discount'
import { checkoutPage, submitCheckout } from '../../src/pages/checkout/checkout-form'
import { resultPage, submitResult } from '../../src/pages/checkout/result'
import { reviewPage, submitReview } from '../../src/pages/checkout/review'
import { contentPage } from '../../src/pages/content-page'
import { dealerPage } from '../../src/pages/dealer'
import { home } from '../../src/pages/home'
import { landing } from '../../src/pages/landing'
import { loginPage, submitForgotPassword, submitLogin } from '../../src/pages/login'
import { articlePage, articlePermalink, newsIndex } from '../../src/pages/news'
import { productPage } from '../../src/pages/product'
import { productsPage } from '../../src/pages/products'
import { leadFormSent, submitLeadForm } from '../../src/pages/lead-form'
import {
  newsletterConfirmed,
  newsletterConfirmPage,
  newsletterPage,
  newsletterSent,
  submitNewsletter,
  submitNewsletterConfirm,
} from '../../src/pages/newsletter'
import { newsletterUnsubscribePage, submitNewsletterUnsubscribe } from '../../src/pages/newsletter-unsubscribe'
import { searchSuggestions } from '../../src/pages/search-suggestions'
import { searchPage } from '../../src/pages/search'
import { submitUpdatePassword, updatePasswordPage } from '../../src/pages/update-password'
import { registerPage, registerSent, submitRegister } from '../../src/pages/register'
import { confirmEmailPage, resendConfirmation, submitConfirmEmail } from '../../src/pages/confirm-email'
import { robots } from '../../src/seo/robots'
import { marketSitemap, sitemapIndex } from '../../src/seo/sitemap'
import { reportPage, submitReport } from '../../src/pages/whistleblower/report'
import { statusPage, submitStatus } from '../../src/pages/whistleblower/status'
import { submitConsent } from '../../src/tracking/submit-consent'
import { submitTestPayment, testPaymentPage } from '../../src/payments/test-payment-page'
import { receivePaymentWebhook } from '../../src/payments/webhook'

type Handler = (...args: never[]) => unknown

/** Every route of the Worker: its method and pattern, a path it answers, and the handler that must answer it. */
const ROUTES: Array<[method: string, pattern: string, example: string, handler: Handler]> = [
  // The Worker's own paths.
  ['GET', '/_health', '/_health', health],
  ['GET', '/_health/deep', '/_health/deep', deepHealth],
  ['POST', '/_purge', '/_purge', purge],
  ['POST', '/_rewrap/whistleblower', '/_rewrap/whistleblower', rewrapWhistleblower],
  ['GET', '/robots.txt', '/robots.txt', robots],
  ['GET', '/sitemap.xml', '/sitemap.xml', sitemapIndex],
  ['ALL', '/api/*', '/api/sites/it', publicApi],
  // Payments: the providers' webhook and the embedded test provider's page.
  ['POST', '/_webhooks/payments', '/_webhooks/payments', receivePaymentWebhook],
  ['GET', '/_test-payments/:id', '/_test-payments/tp_0123456789abcdef01234567', testPaymentPage],
  ['POST', '/_test-payments/:id', '/_test-payments/tp_0123456789abcdef01234567', submitTestPayment],
  // Mail: the mail service's webhook (bounces and complaints).
  ['POST', '/_webhooks/mail', '/_webhooks/mail', receiveMailEvent],
  // The staff console (src/console/): sign-in, home, then its sections.
  ['GET', '/_console/login', '/_console/login', consoleLoginPage],
  ['POST', '/_console/login', '/_console/login', submitConsoleLogin],
  ['POST', '/_console/logout', '/_console/logout', consoleLogout],
  ['GET', '/_console', '/_console', consoleHome],
  ['GET', '/_console/cases', '/_console/cases', casesPage],
  ['GET', '/_console/cases/:id', '/_console/cases/7', casePage],
  ['GET', '/_console/cases/:id/attachments/:attachment', '/_console/cases/7/attachments/12', downloadAttachment],
  ['POST', '/_console/cases/:id/acknowledge', '/_console/cases/7/acknowledge', acknowledgeCase],
  ['POST', '/_console/cases/:id/messages', '/_console/cases/7/messages', writeToReporter],
  ['POST', '/_console/cases/:id/notes', '/_console/cases/7/notes', addNote],
  ['POST', '/_console/cases/:id/close', '/_console/cases/7/close', closeCase],
  ['GET', '/_console/leads', '/_console/leads', leadsPage],
  ['GET', '/_console/leads/:id', '/_console/leads/12', leadPage],
  ['GET', '/_console/leads/:id/cv', '/_console/leads/12/cv', leadCv],
  ['POST', '/_console/leads/:id/handled', '/_console/leads/12/handled', markLeadHandled],
  ['GET', '/_console/orders', '/_console/orders', consoleOrdersPage],
  ['GET', '/_console/orders/:code', '/_console/orders/AUR-1', consoleOrderPage],
  ['POST', '/_console/orders/:code/paid', '/_console/orders/AUR-1/paid', markOrderPaid],
  ['POST', '/_console/orders/:code/ship', '/_console/orders/AUR-1/ship', shipOrder],
  ['POST', '/_console/orders/:code/cancel', '/_console/orders/AUR-1/cancel', cancelOrder],
  ['POST', '/_console/orders/:code/refund', '/_console/orders/AUR-1/refund', refundOrder],
  ['GET', '/_console/outbox', '/_console/outbox', outboxPage],
  ['GET', '/_console/outbox/:id', '/_console/outbox/3', outboxMailPage],
  ['GET', '/_console/markets', '/_console/markets', marketsPage],
  ['POST', '/_console/markets/:country', '/_console/markets/it', changeMarket],
  ['GET', '/_console/discount-codes', '/_console/discount-codes', discountCodesPage],
  ['POST', '/_console/discount-codes', '/_console/discount-codes', createDiscountCode],
  ['POST', '/_console/discount-codes/:id/disable', '/_console/discount-codes/3/disable', disableDiscountCode],
  ['GET', '/_console/purge', '/_console/purge', purgePage],
  ['POST', '/_console/purge', '/_console/purge', submitPurge],
  // Paths without a market.
  ['GET', '/', '/', landing],
  ['POST', '/_market', '/_market', pickMarket],
  ['POST', '/_consent', '/_consent', submitConsent],
  ['GET', '/login', '/login', loginPage],
  ['POST', '/login', '/login', submitLogin],
  ['POST', '/login/forgot', '/login/forgot', submitForgotPassword],
  ['GET', '/login/register', '/login/register', registerPage],
  ['POST', '/login/register', '/login/register', submitRegister],
  ['GET', '/login/register/sent', '/login/register/sent', registerSent],
  ['POST', '/logout', '/logout', logOut],
  // The markets.
  ['GET', '/:market', '/it-it', home],
  ['GET', '/:market/update-password/:token', '/it-it/update-password/abc', updatePasswordPage],
  ['POST', '/:market/update-password/:token', '/it-it/update-password/abc', submitUpdatePassword],
  ['GET', '/:market/confirm-email/:token', '/it-it/confirm-email/abc', confirmEmailPage],
  ['POST', '/:market/confirm-email/:token', '/it-it/confirm-email/abc', submitConfirmEmail],
  ['GET', '/:market/my-account', '/it-it/my-account', accountOverview],
  ['POST', '/:market/my-account/confirm-email', '/it-it/my-account/confirm-email', resendConfirmation],
  ['GET', '/:market/my-account/orders', '/it-it/my-account/orders', ordersPage],
  ['GET', '/:market/my-account/orders/:code', '/it-it/my-account/orders/AUR-1', orderPage],
  ['GET', '/:market/my-account/bikes', '/it-it/my-account/bikes', bikesPage],
  ['POST', '/:market/my-account/bikes', '/it-it/my-account/bikes', registerBike],
  ['GET', '/:market/my-account/addresses', '/it-it/my-account/addresses', addressesPage],
  ['POST', '/:market/my-account/addresses', '/it-it/my-account/addresses', createAddress],
  ['GET', '/:market/my-account/addresses/:id/edit', '/it-it/my-account/addresses/1/edit', editAddressPage],
  ['POST', '/:market/my-account/addresses/:id', '/it-it/my-account/addresses/1', updateAddress],
  ['GET', '/:market/my-account/addresses/:id/delete', '/it-it/my-account/addresses/1/delete', deleteAddressPage],
  ['POST', '/:market/my-account/addresses/:id/delete', '/it-it/my-account/addresses/1/delete', deleteAddress],
  ['POST', '/:market/my-account/addresses/:id/default', '/it-it/my-account/addresses/1/default', makeDefaultAddress],
  ['GET', '/:market/my-account/profile', '/it-it/my-account/profile', profilePage],
  ['POST', '/:market/my-account/profile', '/it-it/my-account/profile', saveProfile],
  ['GET', '/:market/my-account/profile/password', '/it-it/my-account/profile/password', passwordPage],
  ['POST', '/:market/my-account/profile/password', '/it-it/my-account/profile/password', changePassword],
  ['GET', '/:market/my-account/profile/delete', '/it-it/my-account/profile/delete', erasePage],
  ['POST', '/:market/my-account/profile/delete', '/it-it/my-account/profile/delete', eraseAccount],
  ['GET', '/:market/my-account/newsletter', '/it-it/my-account/newsletter', accountNewsletterPage],
  ['POST', '/:market/my-account/newsletter', '/it-it/my-account/newsletter', submitAccountNewsletter],
  ['GET', '/:market/account-deleted', '/it-it/account-deleted', erasedPage],
  ['GET', '/:market/cart', '/it-it/cart', cartPage],
  ['POST', '/:market/cart/items', '/it-it/cart/items', addToCart],
  ['POST', '/:market/cart/items/:sku', '/it-it/cart/items/STR9-M-RED', changeCartLine],
  ['POST', '/:market/cart/items/:sku/remove', '/it-it/cart/items/STR9-M-RED/remove', removeCartLine],
  ['POST', '/:market/cart/discount', '/it-it/cart/discount', applyCartDiscount],
  ['POST', '/:market/cart/discount/remove', '/it-it/cart/discount/remove', removeCartDiscount],
  ['GET', '/:market/checkout/:code', `/it-it/checkout/${'A'.repeat(32)}`, checkoutPage],
  ['POST', '/:market/checkout/:code', `/it-it/checkout/${'A'.repeat(32)}`, submitCheckout],
  ['GET', '/:market/checkout/:code/review', `/it-it/checkout/${'A'.repeat(32)}/review`, reviewPage],
  ['POST', '/:market/checkout/:code/review', `/it-it/checkout/${'A'.repeat(32)}/review`, submitReview],
  ['GET', '/:market/checkout/:code/result', `/it-it/checkout/${'A'.repeat(32)}/result`, resultPage],
  ['POST', '/:market/checkout/:code/result', `/it-it/checkout/${'A'.repeat(32)}/result`, submitResult],
  ['GET', '/:market/products', '/it-it/products', productsPage],
  ['GET', '/:market/products/type/:type', '/it-it/products/type/road', productsPage],
  ['GET', '/:market/products/:slug', '/it-it/products/strada-9', productPage],
  ['GET', '/:market/news', '/it-it/news', newsIndex],
  ['GET', '/:market/news/details/:slug', '/it-it/news/details/a-story', articlePage],
  ['GET', '/:market/news/:slugId', '/it-it/news/a-story-12', articlePermalink],
  ['GET', '/:market/search/suggestions.json', '/it-it/search/suggestions.json', searchSuggestions],
  ['GET', '/:market/search/:type', '/it-it/search/all', searchPage],
  ['GET', '/:market/dealers/:slug', '/it-it/dealers/a-shop', dealerPage],
  ['GET', '/:market/whistleblower-form', '/it-it/whistleblower-form', reportPage],
  ['POST', '/:market/whistleblower-form', '/it-it/whistleblower-form', submitReport],
  ['GET', '/:market/whistleblower-form/status', '/it-it/whistleblower-form/status', statusPage],
  ['POST', '/:market/whistleblower-form/status', '/it-it/whistleblower-form/status', submitStatus],
  ['GET', '/:market/newsletter', '/it-it/newsletter', newsletterPage],
  ['POST', '/:market/newsletter', '/it-it/newsletter', submitNewsletter],
  ['GET', '/:market/newsletter/sent', '/it-it/newsletter/sent', newsletterSent],
  ['GET', '/:market/newsletter/confirmed', '/it-it/newsletter/confirmed', newsletterConfirmed],
  ['GET', '/:market/newsletter/confirm/:token', '/it-it/newsletter/confirm/abc', newsletterConfirmPage],
  ['POST', '/:market/newsletter/confirm/:token', '/it-it/newsletter/confirm/abc', submitNewsletterConfirm],
  ['GET', '/:market/newsletter/unsubscribe/:token', '/it-it/newsletter/unsubscribe/abc', newsletterUnsubscribePage],
  ['POST', '/:market/newsletter/unsubscribe/:token', '/it-it/newsletter/unsubscribe/abc', submitNewsletterUnsubscribe],
  ['GET', '/:market/:page/sent', '/it-it/contatti/sent', leadFormSent],
  [
    'GET',
    '/:market/:sitemap{sitemap(?:-(?:dealers|products|news))?(?:-[0-9]+)?\\.xml}',
    '/it-it/sitemap-products-0.xml',
    marketSitemap,
  ],
  ['GET', '/:market/:page', '/it-it/chi-siamo', contentPage],
  ['POST', '/:market/:page', '/it-it/contatti', submitLeadForm],
]

/** A route's handler (the last of its handlers: the ones before it are its middleware). */
const isMiddleware = (handler: Handler) => handler.length > 1

type Matched = { handler: Handler; path: string }

/** The routes the router picks for a request, in the order they run (the Worker's own middleware first). */
function routesFor(method: string, path: string): Matched[] {
  const [matches] = app.router.match(method === 'ALL' ? 'GET' : method, path) as unknown as [
    Array<[[Handler, Matched], unknown]>,
  ]
  return matches.map(([[, route]]) => route)
}

/** The handler that answers a request: the first matched one that is not middleware. */
const answering = (method: string, path: string) =>
  routesFor(method, path).find((route) => !isMiddleware(route.handler))?.handler

describe('the route table', () => {
  it('is exactly the table below: a new route is added here too, with its example', () => {
    const routes = app.routes
      .filter((route) => !isMiddleware(route.handler as Handler))
      .map((route) => `${route.method} ${route.path}`)
    expect(routes.sort()).toEqual(ROUTES.map(([method, pattern]) => `${method} ${pattern}`).sort())
  })

  it.each(ROUTES)('sends %s %s (e.g. %s) to its own handler', (method, _pattern, example, handler) => {
    expect(answering(method, example)).toBe(handler)
  })

  it("matches the Worker's own paths before any market is resolved", () => {
    for (const [method, , example] of ROUTES.filter(([, pattern]) => !pattern.startsWith('/:market'))) {
      const routes = routesFor(method, example)
      const own = routes.findIndex((route) => !isMiddleware(route.handler))
      const market = routes.findIndex((route) => route.path.startsWith('/:market'))
      expect(own, example).toBeGreaterThanOrEqual(0)
      if (market >= 0) expect(own, example).toBeLessThan(market)
    }
  })

  it("keeps the generic content-page routes last among the market's, so a page added for whistleblower-form, cart or sitemap.xml answers", () => {
    const marketRoutes = app.routes.filter(
      (route) => route.path.startsWith('/:market') && !isMiddleware(route.handler as Handler),
    )
    expect(marketRoutes.slice(-2).map((route) => route.handler)).toEqual([contentPage, submitLeadForm])
    // A path that only the content page matches today is its, and the more specific routes above it win theirs.
    expect(answering('GET', '/it-it/whistleblower-form')).toBe(reportPage)
    expect(answering('POST', '/it-it/whistleblower-form')).toBe(submitReport)
    expect(answering('GET', '/it-it/chi-siamo')).toBe(contentPage)
    expect(answering('GET', '/it-it/news')).toBe(newsIndex)
    expect(answering('GET', '/it-it/sitemap.xml')).toBe(marketSitemap)
  })
})
