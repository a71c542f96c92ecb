import type { Upstream } from '../client'
import { type PaymentEvent, paymentEventAnswer } from '../../../contract/payment-schemas'
import { dataOf } from './answers'

/**
 * The payment events the Worker's webhook verified, told to the brand's API (docs/api.md "Settling a payment"), over
 * the unbound client with the Worker's service token (`UPSTREAM_SERVICE_TOKEN`). Idempotent by event id: the same
 * event again answers what its first delivery did; another event under a known id, or the same one while it is being
 * settled, throws `UpstreamError` (409, `PAYMENT_EVENT_REFUSALS`).
 *
 * @example
 * const settled = await paymentCalls(upstream.withToken(serviceToken)).settle(event, linkTemplate)
 */
export const paymentCalls = (client: Upstream) => ({
  /**
   * `POST api/payments/events`: settles the event's order once (null: the API has no such call, 404). `linkTemplate`
   * is where the confirmation mail's link points (`{origin}/{market}/my-account/orders/{code}`).
   */
  settle: (event: PaymentEvent, linkTemplate: string) =>
    dataOf(client.send('POST', 'payments/events', { event, link_template: linkTemplate }, paymentEventAnswer)),
})
