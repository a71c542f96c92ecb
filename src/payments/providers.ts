import type { MiddlewareHandler } from 'hono'
import { configOf } from '../config'
import type { Bindings, MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { logEvent } from '../ops/log'
import type { PaymentProvider } from './provider'
import { stripeProvider } from './stripe-provider'
import { type TestDelivery, testProvider } from './test-provider'

/**
 * The deployment's provider: `ready`, `off` (none usable: `PAYMENT_PROVIDER` names none this Worker has, or the test
 * provider where it does not belong — src/config.ts, logged `config_invalid` — or there is no public origin: the
 * webhook and the test provider's page answer 404, checkout 503), or `unavailable` (configured, but a secret is
 * missing: 503, logged `payment_secret_missing`).
 */
export type ProviderChoice = { kind: 'ready'; provider: PaymentProvider } | { kind: 'off' } | { kind: 'unavailable' }

/**
 * The provider `PAYMENT_PROVIDER` chose: Stripe (`stripe`: its secret key `STRIPE_SECRET_KEY`, its API at
 * `STRIPE_API_URL`) or the embedded test provider (`test`, only on a site on this machine or a named staging
 * deployment: docs/decisions/046), each with the webhook signing secret `PAYMENT_WEBHOOK_SECRET` (docs/api.md
 * "Payments"). `delivery` (the request's env and context) lets the test provider deliver a refund's webhook at once.
 *
 * @example
 * const choice = paymentProviderOf(c.env)
 * if (choice.kind !== 'ready') throw new PaymentError('unavailable')
 * const { redirectUrl } = await choice.provider.createPayment({ orderCode, amount, … })
 */
export function paymentProviderOf(env: Bindings, delivery?: Pick<TestDelivery, 'ctx'>): ProviderChoice {
  const config = configOf(env)
  if (!config.paymentProvider || !config.publicOrigin) return { kind: 'off' }
  const secret = env.PAYMENT_WEBHOOK_SECRET
  if (!secret || (config.paymentProvider === 'stripe' && !env.STRIPE_SECRET_KEY)) {
    logEvent('error', 'payment_secret_missing')
    return { kind: 'unavailable' }
  }
  const provider =
    config.paymentProvider === 'stripe'
      ? stripeProvider({
          secretKey: env.STRIPE_SECRET_KEY ?? '',
          webhookSecret: secret,
          api: config.stripeApi,
          publicOrigin: config.publicOrigin,
        })
      : testProvider(env.DB, secret, config.publicOrigin, delivery && { env, ctx: delivery.ctx })
  return { kind: 'ready', provider }
}

/**
 * Checkout's guard: a market that sells online takes no order it can never be paid for. With no provider configured
 * (none, a name this Worker does not have, the test provider outside its places: src/config.ts logged why as
 * `config_invalid`) every checkout page answers 503 "temporarily unavailable", logged `payment_provider_missing`. A
 * provider missing a secret is `unavailable` instead: the order may be placed, and paying answers 503 with the way
 * back (src/pages/checkout/pay.tsx), as when the provider cannot be reached.
 *
 * @example
 * market.use('/checkout/*', requirePage('checkout'), requireViewer(), requirePaymentProvider())
 */
export function requirePaymentProvider(): MiddlewareHandler<MarketEnv> {
  return async (c, next) => {
    if (paymentProviderOf(c.env).kind === 'off') {
      logEvent('error', 'payment_provider_missing')
      throw PageError.unavailable()
    }
    await next()
  }
}
