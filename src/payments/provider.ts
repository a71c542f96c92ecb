import { z } from 'zod'
import type { PaymentEvent } from '../../contract/payment-schemas'
import { type SignatureRefusal, verifyWebhookSignature } from './signature'

/**
 * The payment provider as the Worker sees it (docs/api.md "Payments"): checkout creates a payment and sends the buyer
 * to `redirectUrl`; the provider sends the buyer back to `returnUrl` and tells the Worker the outcome by a signed
 * webhook (`POST /_webhooks/payments`, src/payments/webhook.ts), whose event the brand's API settles (`POST
 * api/payments/events`);
 * the result page may ask `paymentStatus` while the webhook has not come. The embedded test provider
 * (src/payments/test-provider.ts) and Stripe (src/payments/stripe-provider.ts) implement it, chosen by
 * `PAYMENT_PROVIDER`.
 */
export interface PaymentProvider {
  readonly name: ProviderName
  /**
   * Creates the payment of an order, once per `idempotencyKey`: the same key again answers the same payment (a double
   * click, a retry after a timeout); the same key with another order, amount or currency throws
   * `PaymentError('idempotency_conflict')`. Stripe: `POST /v1/checkout/sessions` with an `Idempotency-Key` header.
   */
  createPayment(input: CreatePayment): Promise<CreatedPayment>
  /** The payment's state now, or null for an unknown id. Stripe: `GET /v1/checkout/sessions/{id}` (its PaymentIntent). */
  paymentStatus(paymentId: string): Promise<PaymentState | null>
  /**
   * Reads and checks a webhook delivery: its signature (constant time) and timestamp window, then its body as the
   * contract's provider-neutral event (src/upstream/payment-schemas.ts). It never acts: settling, once per event id,
   * is the brand's API's.
   * Stripe: the `Stripe-Signature` header (`t=…,v1=…`), the same scheme (src/payments/signature.ts).
   */
  verifyWebhook(request: Request): Promise<WebhookVerdict>
  /**
   * Refunds `amount` (minor units) of a paid payment, once per `idempotencyKey` (the same key again is the same
   * refund). The refund is pending until the provider's webhook confirms it (`payment.refunded`, settled like the
   * others). Throws `PaymentError('invalid')` for a payment the provider does not know, `unavailable` otherwise.
   * Stripe: `POST /v1/refunds` with the session's PaymentIntent and an `Idempotency-Key` header.
   */
  refund(paymentId: string, amount: number, idempotencyKey: string): Promise<StartedRefund>
  /**
   * Closes a payment still open (its order was cancelled by staff), so the buyer can no longer pay it; a payment
   * already paid, failed or closed is left as it is. Stripe: `POST /v1/checkout/sessions/{id}/expire`.
   */
  cancelPayment(paymentId: string): Promise<void>
}

/** A refund the provider took: its id there. */
export type StartedRefund = { refundId: string }

export type ProviderName = 'test' | 'stripe'

/** A payment's state at the provider: pending until the buyer's payment succeeds, fails or is abandoned. */
export type PaymentState = 'pending' | 'paid' | 'failed' | 'cancelled'

export const createPaymentInput = z.object({
  /** The order it pays (`AUR-10007`): the webhook names it, so the order is settled without another lookup. */
  orderCode: z.string().regex(/^[A-Za-z0-9-]{3,40}$/),
  /** Whole minor units of `currency` (cents), computed on the server, never from the browser. */
  amount: z.number().int().positive().max(100_000_000_00),
  /** ISO 4217. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** The market the order was placed in (`it-it`): the provider's page language and the result page's market. */
  market: z.string().regex(/^[a-z]{2,3}-[a-z]{2}$/),
  /** Where the provider sends the buyer afterwards: a URL on the site's `PUBLIC_ORIGIN` (checked), never elsewhere. */
  returnUrl: z.string().url().max(500),
  /** The checkout's key (22 to 64 base64url characters): one payment per placed checkout. */
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/),
  /** What the buyer's statement and the provider's page say (`Aurora Cycles order AUR-10007`). */
  description: z.string().min(1).max(200),
  /** The way to pay the buyer chose at checkout, if any: the provider's page offers it (Stripe: `payment_method_types`). */
  method: z.enum(['card', 'paypal']).optional(),
})
export type CreatePayment = z.infer<typeof createPaymentInput>

/**
 * A payment's input as every provider takes it: checked against `createPaymentInput`, its return URL on the site's own
 * origin; anything else throws `PaymentError('invalid')` before the provider is called.
 */
export function checkedPayment(input: CreatePayment, publicOrigin: string): CreatePayment {
  const parsed = createPaymentInput.safeParse(input)
  if (!parsed.success || new URL(parsed.data.returnUrl).origin !== publicOrigin) throw new PaymentError('invalid')
  return parsed.data
}

export type CreatedPayment = { paymentId: string; redirectUrl: string; state: PaymentState }

/** The event type that reports each state. */
export const EVENT_TYPES: Record<PaymentState, PaymentEvent['type']> = {
  paid: 'payment.succeeded',
  failed: 'payment.failed',
  pending: 'payment.pending',
  cancelled: 'payment.cancelled',
}

/**
 * A webhook verified (with its raw body, whose hash tells a retry from another event under the same id), verified but
 * of a type that settles nothing (`event: null`: acknowledged so the provider stops sending it), or refused: 400 for
 * what is no webhook of the scheme (no or malformed header, a body that is no event), 401 for a signature that is not
 * the secret's or a timestamp outside the window, 503 when the provider must be asked whose event it is and cannot
 * answer now (it delivers the event again).
 */
export type WebhookVerdict =
  | { ok: true; event: PaymentEvent; body: string }
  | { ok: true; event: null; ignored: { id: string; type: string } }
  | { ok: false; status: 400 | 401 | 503; reason: SignatureRefusal | 'body' | 'unavailable' }

/** Why a payment call failed: bad input, a key reused for another payment, or no usable provider. */
export class PaymentError extends Error {
  override readonly name = 'PaymentError'
  constructor(readonly code: 'invalid' | 'idempotency_conflict' | 'unavailable') {
    super(code)
  }
}

/**
 * The common part of `verifyWebhook` for providers that sign as Stripe does: the raw body checked against the header,
 * then parsed as a `PaymentEvent` by `toEvent` (a provider's own event shape mapped to the neutral one).
 */
export async function verifySignedEvent(
  request: Request,
  secret: string,
  header: string,
  toEvent: (json: unknown) => PaymentEvent | null,
  now = Date.now() / 1000,
): Promise<WebhookVerdict> {
  const body = await request.text()
  const check = await verifyWebhookSignature(secret, request.headers.get(header), body, now)
  if (!check.ok) return { ok: false, status: check.reason === 'malformed' ? 400 : 401, reason: check.reason }
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return { ok: false, status: 400, reason: 'body' }
  }
  const event = toEvent(json)
  return event ? { ok: true, event, body } : { ok: false, status: 400, reason: 'body' }
}
