import { z } from 'zod'
import { envelope } from './schemas'

/**
 * The payments' half of the upstream contract (docs/api.md "Settling a payment"): a verified payment event, in the
 * provider-neutral shape every provider's webhook is mapped to, told to the brand's API, which settles the order.
 * Shared by the Worker's webhook (src/payments/webhook.ts) and the embedded API.
 */

/**
 * What a webhook says, in the provider-neutral shape the Worker acts on. `type` is the event (`payment.succeeded`,
 * `payment.failed`, `payment.pending`, `payment.cancelled`, `payment.refunded`); a Stripe adapter maps
 * `checkout.session.completed`, `…async_payment_succeeded`, `…async_payment_failed`, `checkout.session.expired` and
 * `charge.refunded` to these.
 */
export const paymentEvent = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/),
  type: z.enum(['payment.succeeded', 'payment.failed', 'payment.pending', 'payment.cancelled', 'payment.refunded']),
  created: z.number().int().nonnegative(),
  data: z.object({
    payment_id: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/),
    order_code: z.string().regex(/^[A-Za-z0-9-]{3,40}$/),
    amount: z.number().int().positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    state: z.enum(['pending', 'paid', 'failed', 'cancelled', 'refunded']),
    /**
     * `payment.refunded` only: how much of the payment the provider has refunded in all, so far (minor units; Stripe:
     * the charge's `amount_refunded`). Cumulative, so a replayed or late event never counts a refund twice.
     */
    refunded: z.number().int().positive().optional(),
    /**
     * The idempotency key the payment was created with, when the provider reports it (Stripe: the session's
     * `metadata.payment_key`): it names the order's attempt, so a failure before the payment id is recorded fails only
     * its own attempt.
     */
    idempotency_key: z
      .string()
      .regex(/^[A-Za-z0-9_-]{22,64}$/)
      .optional(),
  }),
})
export type PaymentEvent = z.infer<typeof paymentEvent>

/**
 * Where the confirmation mail's link to a paid order points: `{market}` and `{code}` stand for the order's. HTTPS
 * (plain HTTP only on this machine), into the account's orders.
 */
export const orderLinkTemplate = z
  .string()
  .max(300)
  .regex(/^(https:\/\/[^/?#]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)\/\{market\}\/my-account\/orders\/\{code\}$/)

/** `POST api/payments/events`: a verified event and the link the confirmation mail carries. */
export const paymentEventRequest = z.object({ event: paymentEvent, link_template: orderLinkTemplate })
export type PaymentEventRequest = z.infer<typeof paymentEventRequest>

/**
 * What settling did to the order: `paid` (it became paid now, once), `failed` (its payment failed: the buyer may
 * try again, the order waits), `refunded` (more of it is refunded now: the refunds staff asked for, confirmed), `unchanged` (nothing to change: already so, a pending report, or an event of an older
 * payment), `no_order` (no order has that code), `amount_mismatch` (the payment is not for the order's total and
 * currency: nothing changes, logged for staff).
 */
export const SETTLEMENTS = ['paid', 'failed', 'refunded', 'unchanged', 'no_order', 'amount_mismatch'] as const
export type Settlement = (typeof SETTLEMENTS)[number]

/**
 * The answer of `POST api/payments/events`: what the event did to its order. `duplicate`: the event was settled
 * before (a provider's retry), and `outcome` is what that first delivery did; nothing was done again.
 */
export const paymentEventAnswer = envelope(
  z.object({ event_id: z.string(), outcome: z.enum(SETTLEMENTS), duplicate: z.boolean() }),
)
export type SettledEvent = z.infer<typeof paymentEventAnswer>['data']

/**
 * The codes of the call's 409: another event under a known id (`event_conflict`, refused: the provider's event is
 * not the one first received), or the same event while its first delivery is still being settled
 * (`event_in_progress`: try again later).
 */
export const PAYMENT_EVENT_REFUSALS = ['event_conflict', 'event_in_progress'] as const
