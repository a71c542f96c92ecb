import Stripe from 'stripe'
import { type PaymentEvent, paymentEvent } from '../../contract/payment-schemas'
import type { StripeApi } from '../config'
import {
  type CreatedPayment,
  type CreatePayment,
  checkedPayment,
  EVENT_TYPES,
  PaymentError,
  type PaymentProvider,
  type PaymentState,
  type StartedRefund,
  type WebhookVerdict,
} from './provider'
import { WEBHOOK_TOLERANCE_SECONDS } from './signature'
import { stripeLocaleOf } from './stripe-locale'

/** Stripe's signature header on its webhooks (`t=…,v1=…`, the scheme of src/payments/signature.ts). */
export const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature'

/** What a Checkout Session id looks like (`cs_test_a1B2…`, `cs_live_…`). */
export const STRIPE_SESSION_ID = /^cs_[A-Za-z0-9_]{8,200}$/

/**
 * The currencies PayPal takes through Stripe (docs.stripe.com/payments/paypal): a buyer who chose PayPal is offered
 * only PayPal there; elsewhere, as for cards, Stripe offers what the Dashboard enables for the currency.
 */
export const PAYPAL_CURRENCIES: ReadonlySet<string> = new Set([
  'AUD',
  'CAD',
  'CHF',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'NOK',
  'NZD',
  'PLN',
  'SEK',
  'SGD',
  'USD',
])

/** What the Stripe provider needs: its secret key, the webhook signing secret, where its API is, the site's origin. */
export type StripeProviderOptions = { secretKey: string; webhookSecret: string; api: StripeApi; publicOrigin: string }

/**
 * Stripe behind the PaymentProvider interface (docs/api.md "Payments", docs/decisions/046), with the official `stripe`
 * package over `fetch` and Web Crypto: a hosted Checkout Session per payment attempt (one line of the order's total,
 * the order code as `client_reference_id` and metadata, our idempotency key as Stripe's, the market's language, the
 * way back on `PUBLIC_ORIGIN`), its state read back from the session, and its webhooks checked with Stripe's own
 * scheme and mapped to the contract's provider-neutral events.
 *
 * @example
 * const provider = stripeProvider({ secretKey, webhookSecret, api: config.stripeApi, publicOrigin })
 * const { redirectUrl } = await provider.createPayment({ orderCode, amount, currency, market, … })
 */
export function stripeProvider({
  secretKey,
  webhookSecret,
  api,
  publicOrigin,
}: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    protocol: api.protocol,
    host: api.host,
    port: api.port,
    // Each retry carries the same idempotency key: Stripe answers it with the first session, never a second one.
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
  })
  const crypto = Stripe.createSubtleCryptoProvider()
  /** The order a PaymentIntent was made for, from the metadata its session gave it; null for one Stripe does not know. */
  const orderOfIntent = async (intent: string): Promise<string | null> => {
    try {
      return (await stripe.paymentIntents.retrieve(intent)).metadata?.order_code || null
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null
      throw new PaymentError('unavailable')
    }
  }

  return {
    name: 'stripe',

    async createPayment(input: CreatePayment): Promise<CreatedPayment> {
      const { orderCode, amount, currency, market, description, returnUrl, idempotencyKey, method } = checkedPayment(
        input,
        publicOrigin,
      )
      const metadata = { order_code: orderCode, payment_key: idempotencyKey, market }
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            client_reference_id: orderCode,
            metadata,
            // The charge and its refunds carry the order too (a refund's webhook names the charge, not the session).
            payment_intent_data: { metadata, description },
            // One line of the order's total: delivery, VAT or sales tax are the order's, already inside it.
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: currency.toLowerCase(),
                  unit_amount: amount,
                  product_data: { name: description },
                },
              },
            ],
            locale: stripeLocaleOf(market) as Stripe.Checkout.SessionCreateParams.Locale,
            ...(method === 'paypal' && PAYPAL_CURRENCIES.has(currency) ? { payment_method_types: ['paypal'] } : {}),
            success_url: returnUrl,
            cancel_url: returnUrl,
          },
          { idempotencyKey },
        )
        if (!session.url) throw new PaymentError('unavailable')
        return { paymentId: session.id, redirectUrl: session.url, state: stateOf(session) }
      } catch (error) {
        if (error instanceof PaymentError) throw error
        if (error instanceof Stripe.errors.StripeIdempotencyError) throw new PaymentError('idempotency_conflict')
        throw new PaymentError('unavailable')
      }
    },

    async paymentStatus(paymentId: string): Promise<PaymentState | null> {
      if (!STRIPE_SESSION_ID.test(paymentId)) return null
      try {
        return stateOf(await stripe.checkout.sessions.retrieve(paymentId, { expand: ['payment_intent'] }))
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) return null
        throw new PaymentError('unavailable')
      }
    },

    async verifyWebhook(request: Request): Promise<WebhookVerdict> {
      const body = await request.text()
      const header = request.headers.get(STRIPE_SIGNATURE_HEADER)
      if (!header) return { ok: false, status: 400, reason: 'malformed' }
      let event: Stripe.Event
      try {
        event = await stripe.webhooks.constructEventAsync(
          body,
          header,
          webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          crypto,
        )
      } catch (error) {
        const reason = refusalOf(error)
        return { ok: false, status: reason === 'malformed' ? 400 : 401, reason }
      }
      let mapped: PaymentEvent | 'ignored' | null
      try {
        mapped = event.type === 'charge.refunded' ? await refundEventOf(event, orderOfIntent) : paymentEventOf(event)
      } catch {
        // Stripe could not say whose refund it is: 503, and Stripe delivers the event again later.
        return { ok: false, status: 503, reason: 'unavailable' }
      }
      if (mapped === 'ignored') return { ok: true, event: null, ignored: { id: event.id, type: event.type } }
      const checked = mapped && paymentEvent.safeParse(mapped).data
      return checked ? { ok: true, event: checked, body } : { ok: false, status: 400, reason: 'body' }
    },

    async refund(paymentId: string, amount: number, idempotencyKey: string): Promise<StartedRefund> {
      if (!STRIPE_SESSION_ID.test(paymentId)) throw new PaymentError('invalid')
      try {
        const session = await stripe.checkout.sessions.retrieve(paymentId)
        const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id
        if (!intent) throw new PaymentError('invalid')
        const refund = await stripe.refunds.create(
          { payment_intent: intent, amount, metadata: { order_code: session.metadata?.order_code ?? '' } },
          { idempotencyKey },
        )
        return { refundId: refund.id }
      } catch (error) {
        if (error instanceof PaymentError) throw error
        if (error instanceof Stripe.errors.StripeError && (error.statusCode === 404 || error.statusCode === 400))
          throw new PaymentError('invalid')
        throw new PaymentError('unavailable')
      }
    },

    async cancelPayment(paymentId: string): Promise<void> {
      if (!STRIPE_SESSION_ID.test(paymentId)) return
      try {
        await stripe.checkout.sessions.expire(paymentId)
      } catch (error) {
        // A session no longer open (paid, expired) is left as it is.
        if (error instanceof Stripe.errors.StripeError && (error.statusCode === 400 || error.statusCode === 404)) return
        throw new PaymentError('unavailable')
      }
    },
  }
}

/** A session's state: paid, expired (cancelled), its payment refused (failed), else pending. */
function stateOf(session: Stripe.Checkout.Session): PaymentState {
  if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') return 'paid'
  if (session.status === 'expired') return 'cancelled'
  const intent = session.payment_intent
  if (intent && typeof intent === 'object' && intent.status === 'requires_payment_method' && intent.last_payment_error)
    return 'failed'
  return 'pending'
}

/** Why Stripe's check refused a delivery, in the words of src/payments/signature.ts. */
function refusalOf(error: unknown): 'malformed' | 'signature' | 'stale' {
  const message = error instanceof Error ? error.message : ''
  if (/tolerance/i.test(message)) return 'stale'
  if (/extract timestamp|expected scheme/i.test(message)) return 'malformed'
  return 'signature'
}

/** The state each Checkout Session event reports. */
const SESSION_EVENTS: Record<string, (session: Stripe.Checkout.Session) => PaymentState> = {
  'checkout.session.completed': (session) => (stateOf(session) === 'paid' ? 'paid' : 'pending'),
  'checkout.session.async_payment_succeeded': () => 'paid',
  'checkout.session.async_payment_failed': () => 'failed',
  'checkout.session.expired': () => 'cancelled',
}

/**
 * A verified Stripe event as the contract's neutral event; `ignored` for every other type and for sessions that are
 * not an order's (no order code in their metadata: another integration on the same account); null for a session
 * event whose session is no session (its body is refused).
 */
function paymentEventOf(event: Stripe.Event): PaymentEvent | 'ignored' | null {
  const toState = SESSION_EVENTS[event.type]
  if (!toState) return 'ignored'
  const session = event.data.object as Stripe.Checkout.Session
  const orderCode = session.metadata?.order_code ?? session.client_reference_id
  if (!orderCode) return 'ignored'
  if (typeof session.id !== 'string' || !session.amount_total || !session.currency) return null
  const state = toState(session)
  return {
    id: event.id,
    type: EVENT_TYPES[state],
    created: event.created,
    data: {
      payment_id: session.id,
      order_code: orderCode,
      amount: session.amount_total,
      currency: session.currency.toUpperCase(),
      state,
      ...(session.metadata?.payment_key ? { idempotency_key: session.metadata.payment_key } : {}),
    },
  }
}

/**
 * `charge.refunded` as the contract's `payment.refunded`: the charge's amount and what Stripe has refunded of it in
 * all (`amount_refunded`), the order from the charge's metadata or, where the charge carries none, from the metadata
 * the session gave its PaymentIntent (`orderOfIntent`, one API call); `ignored` for a charge that is no order's, null
 * for one that is no charge.
 */
async function refundEventOf(
  event: Stripe.Event,
  orderOfIntent: (intent: string) => Promise<string | null>,
): Promise<PaymentEvent | 'ignored' | null> {
  const charge = event.data.object as Stripe.Charge
  const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id
  const orderCode = charge.metadata?.order_code || (intent ? await orderOfIntent(intent) : null)
  if (!orderCode) return 'ignored'
  if (!intent || !charge.amount || !charge.amount_refunded || !charge.currency) return null
  return {
    id: event.id,
    type: 'payment.refunded',
    created: event.created,
    data: {
      payment_id: intent,
      order_code: orderCode,
      amount: charge.amount,
      currency: charge.currency.toUpperCase(),
      state: 'refunded',
      refunded: charge.amount_refunded,
    },
  }
}
