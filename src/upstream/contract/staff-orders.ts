import { z } from 'zod'
import type { OrderStatus } from '../../../contract/account-schemas'
import type { Carrier } from '../../../contract/carriers'
import { refundAnswer, staffOrderAnswer, staffOrderListAnswer } from '../../../contract/staff-schemas'
import type { Upstream } from '../client'
import { dataOf, pagedOf, query, segment } from './answers'

/** The order list's filters (`GET api/staff/orders`): a market, a state, a date range (inclusive). */
export type OrderFilters = {
  site?: string
  status?: OrderStatus
  /** `YYYY-MM-DD`, inclusive. */
  from?: string
  /** `YYYY-MM-DD`, inclusive. */
  to?: string
  /** Where the page starts: the `next_cursor` of the page before (docs/decisions/068); none: the newest. */
  cursor?: string
}

/** What an order action answers: the order's code and its status after it. */
const actionAnswer = z.object({
  data: z.object({ code: z.string(), status: z.string(), payment_id: z.string().nullish() }),
})

/**
 * The console's order calls (docs/api.md "Staff console", docs/decisions/049), through the client that carries the
 * staff member's token. An action the order's state does not allow throws `UpstreamError` `rejected` 409 (its
 * message says why); a missing order answers null.
 *
 * @example
 * const list = await staffOrderCalls(c.var.staffApi).orders({ site: 'it', status: 'paid' })
 */
export const staffOrderCalls = (client: Upstream) => ({
  /** `GET api/staff/orders?site=&status=&from=&to=&cursor=`: newest first, by keyset. */
  orders: (filters: OrderFilters = {}) => pagedOf(client.get(`staff/orders${query(filters)}`, staffOrderListAnswer)),
  /** `GET api/staff/orders/{code}`: one order with its refunds and actions, or null. */
  order: (code: string) => dataOf(client.get(`staff/orders/${segment(code)}`, staffOrderAnswer)),
  /** `POST api/staff/orders/{code}/paid`: a bank transfer of `amount` (minor units) arrived. */
  markPaid: (code: string, amount: number, linkTemplate: string) =>
    dataOf(
      client.send('POST', `staff/orders/${segment(code)}/paid`, { amount, link_template: linkTemplate }, actionAnswer),
    ),
  /** `POST api/staff/orders/{code}/ship`: shipped with a carrier and its tracking number (the customer is mailed). */
  ship: (code: string, shipment: { carrier: Carrier; trackingCode: string }, linkTemplate: string) =>
    dataOf(
      client.send(
        'POST',
        `staff/orders/${segment(code)}/ship`,
        { carrier: shipment.carrier, tracking_code: shipment.trackingCode, link_template: linkTemplate },
        actionAnswer,
      ),
    ),
  /** `POST api/staff/orders/{code}/cancel`: an unpaid order cancelled. */
  cancel: (code: string) => dataOf(client.send('POST', `staff/orders/${segment(code)}/cancel`, {}, actionAnswer)),
  /** `POST api/staff/orders/{code}/refunds`: a refund recorded pending, with the key to give the provider. */
  refund: (code: string, amount: number) =>
    dataOf(client.send('POST', `staff/orders/${segment(code)}/refunds`, { amount }, refundAnswer)),
})
