import { configOf, type UpstreamConfig } from '../config'
import type { Bindings } from '../env'
import { logEvent } from '../ops/log'
import type { PaymentProvider } from './provider'
import { testProvider } from './test-provider'

/**
 * The deployment's provider: `ready`, `off` (none configured — the test provider takes payments only with the
 * embedded API or a backend on this machine, so with a deployed backend its page and checkout's payments are off, 404),
 * or `unavailable` (configured, but the webhook secret is missing: 503, logged `payment_secret_missing`).
 */
export type ProviderChoice = { kind: 'ready'; provider: PaymentProvider } | { kind: 'off' } | { kind: 'unavailable' }

/**
 * What the provider is chosen for: taking the buyers' `payments` (checkout, the test provider's page) or checking
 * `webhooks`. The test provider moves no money: with a brand's backend it would mark real orders paid for nothing, so
 * it takes payments only with the embedded API or a backend on this machine: an `http:` upstream, which config.ts
 * allows only on 127.0.0.1 or localhost — a developer's, such as the reference API served as a Worker of its own in
 * the browser tests' "over HTTP" project (docs/decisions/042). A deployed backend is `https:`. Its webhooks are checked
 * whatever the backend, which settles them.
 */
export type ProviderUse = 'payments' | 'webhooks'

/**
 * The provider `PAYMENT_PROVIDER` chose, for a use. A real provider is one more case here (`stripe`: its adapter over
 * Stripe's API with `STRIPE_SECRET_KEY`, the webhook secret as `PAYMENT_WEBHOOK_SECRET`), docs/api.md "Payments".
 *
 * @example
 * const choice = paymentProviderOf(c.env)
 * if (choice.kind !== 'ready') throw new PaymentError('unavailable')
 * const { redirectUrl } = await choice.provider.createPayment({ orderCode, amount, … })
 */
export function paymentProviderOf(env: Bindings, use: ProviderUse = 'payments'): ProviderChoice {
  const config = configOf(env)
  if (config.paymentProvider !== 'test' || !config.publicOrigin) return { kind: 'off' }
  if (use === 'payments' && !onThisMachine(config.upstream)) return { kind: 'off' }
  if (!env.PAYMENT_WEBHOOK_SECRET) {
    logEvent('error', 'payment_secret_missing')
    return { kind: 'unavailable' }
  }
  return { kind: 'ready', provider: testProvider(env.DB, env.PAYMENT_WEBHOOK_SECRET, config.publicOrigin) }
}

/** The embedded API, or a backend over plain HTTP, which the configuration takes only from this machine. */
const onThisMachine = (upstream: UpstreamConfig) =>
  upstream.kind === 'embedded' || (upstream.kind === 'http' && upstream.origin.startsWith('http:'))
