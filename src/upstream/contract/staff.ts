import { acknowledgedAnswer } from '../../../contract/account-schemas'
import type { Upstream } from '../client'
import type { SubmissionKind } from '../../../contract/form-schemas'
import {
  type MarketSwitch,
  marketAnswer,
  marketListAnswer,
  outboxAnswer,
  outboxMailAnswer,
  staffAnswer,
  type staffEventRequest,
  staffEventsAnswer,
  type StaffLogin,
  staffLoginAnswer,
  submissionAnswer,
  submissionListAnswer,
} from '../../../contract/staff-schemas'
import type { z } from 'zod'
import {
  type DiscountCodeInput,
  staffDiscountCodeAnswer,
  staffDiscountCodeListAnswer,
} from '../../../contract/discount-schemas'
import { dataOf, listOf, pagedOf, query, segment } from './answers'

/** The lead list's filters (`GET api/staff/submissions`): a market, a kind, a date range (inclusive), handled or not. */
export type SubmissionFilters = {
  site?: string
  kind?: SubmissionKind
  /** `YYYY-MM-DD`, inclusive. */
  from?: string
  /** `YYYY-MM-DD`, inclusive. */
  to?: string
  handled?: boolean
  /** Where the page starts: the `next_cursor` of the page before (docs/decisions/068); none: the newest. */
  cursor?: string
}

/**
 * The staff console's calls (docs/api.md "Staff console"), not bound to a market. `login` goes out without a token;
 * every other call through the client of `staffCalls(c.var.staffApi)`, which carries the staff member's token. A token
 * the API no longer knows throws `UpstreamError` `unauthorized` (the console then ends its session); a wrong sign-in
 * throws `rejected` 422.
 *
 * @example
 * const leads = await staffCalls(c.var.staffApi).submissions({ site: 'it', handled: false })
 */
export const staffCalls = (client: Upstream) => ({
  /** `POST api/staff/login`: e-mail, password and TOTP code → a bearer token, its expiry and the staff member. */
  login: (credentials: StaffLogin) => client.send('POST', 'staff/login', credentials, staffLoginAnswer),
  /** `GET api/staff/me`: the token's staff member. */
  me: () => dataOf(client.get('staff/me', staffAnswer)),
  /** `POST api/staff/logout`: revokes the token. */
  logout: () => client.send('POST', 'staff/logout', {}, acknowledgedAnswer),

  /** `GET api/staff/submissions?site=&kind=&from=&to=&handled=&cursor=`: newest first, by keyset. */
  submissions: (filters: SubmissionFilters = {}) =>
    pagedOf(
      client.get(
        `staff/submissions${query({ ...filters, handled: filters.handled === undefined ? undefined : filters.handled ? 1 : 0 })}`,
        submissionListAnswer,
      ),
    ),
  /** `GET api/staff/submissions/{id}`: one in full, or null. */
  submission: (id: number) => dataOf(client.get(`staff/submissions/${segment(id)}`, submissionAnswer)),
  /** `POST api/staff/submissions/{id}/handled`: marks it handled by the token's staff member (recorded). */
  markHandled: (id: number) =>
    dataOf(client.send('POST', `staff/submissions/${segment(id)}/handled`, {}, submissionAnswer)),

  /** `GET api/staff/outbox?kind=&cursor=`: the mails the site sent, newest first, by keyset. */
  outbox: (filters: { kind?: string; cursor?: string } = {}) =>
    pagedOf(client.get(`staff/outbox${query(filters)}`, outboxAnswer)),

  /** `GET api/staff/outbox/{id}`: one mail in full, or null. */
  mail: (id: number) => dataOf(client.get(`staff/outbox/${segment(id)}`, outboxMailAnswer)),

  /** `GET api/staff/markets`: every market with its switches. */
  markets: () => listOf(client.get('staff/markets', marketListAnswer)),
  /** `POST api/staff/markets/{country}`: changes switches (recorded); answers the market after the change, or null. */
  changeMarket: (country: string, change: Partial<Record<MarketSwitch, boolean>>) =>
    dataOf(client.send('POST', `staff/markets/${segment(country)}`, change, marketAnswer)),

  /** `GET api/staff/discount-codes?market=`: the discount codes (of a market), newest first, with their uses. */
  discountCodes: (market?: string) =>
    listOf(client.get(`staff/discount-codes${query({ market })}`, staffDiscountCodeListAnswer)),
  /** `POST api/staff/discount-codes`: a new code (recorded); a refusal (422, 409 `code_taken`) throws `rejected`. */
  createDiscountCode: (code: DiscountCodeInput) =>
    dataOf(client.send('POST', 'staff/discount-codes', code, staffDiscountCodeAnswer)),
  /** `POST api/staff/discount-codes/{id}/disable`: the code stops applying (recorded); null when there is none. */
  disableDiscountCode: (id: number) =>
    dataOf(client.send('POST', `staff/discount-codes/${segment(id)}/disable`, {}, staffDiscountCodeAnswer)),

  /** `POST api/staff/events`: records something staff did at the edge (a purge). */
  recordEvent: (event: z.infer<typeof staffEventRequest>) =>
    client.send('POST', 'staff/events', event, acknowledgedAnswer),
  /** `GET api/staff/events?target=`: what was done to a target (`market:it`, `cache:everything`), newest first. */
  events: (target: string) => listOf(client.get(`staff/events${query({ target })}`, staffEventsAnswer)),
})
