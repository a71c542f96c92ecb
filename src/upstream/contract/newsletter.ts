import { acknowledgedAnswer } from '../../../contract/account-schemas'
import type { Upstream } from '../client'
import {
  newsletterLinkAnswer,
  type NewsletterRequest,
  newsletterStatusAnswer,
} from '../../../contract/newsletter-schemas'
import { dataOf, segment } from './answers'

/**
 * The market's newsletter, double opt-in (docs/api.md "Newsletter"). A sign-up answers the same whether or not the
 * address is subscribed; a spent link throws `UpstreamError` (410), callers await it through `unlessRefused`.
 *
 * @example
 * await newsletterCalls(marketClient).subscribe({ email, consent: true, link_template })
 */
export const newsletterCalls = (client: Upstream) => ({
  /** `POST api/newsletter/subscriptions`: stores a pending request and mails its confirmation link (null: 404, no such market). */
  subscribe: (request: NewsletterRequest) =>
    client.send('POST', 'newsletter/subscriptions', request, acknowledgedAnswer),
  /** `GET api/newsletter/confirm/{token}`: the address a link would subscribe, or null (410 when spent). */
  link: (token: string) => dataOf(client.get(`newsletter/confirm/${segment(token)}`, newsletterLinkAnswer)),
  /** `POST api/newsletter/confirm`: subscribes a link's address (once). */
  confirm: (token: string) => dataOf(client.send('POST', 'newsletter/confirm', { token }, newsletterLinkAnswer)),
  /** `POST api/newsletter/unsubscribe`: the market's newsletter and pending sign-ups end for the address. */
  unsubscribe: (email: string) => client.send('POST', 'newsletter/unsubscribe', { email }, acknowledgedAnswer),
  /** `POST api/newsletter/status`: whether a (logged-in customer's own) address is subscribed, or waits to confirm. */
  status: (email: string) => dataOf(client.send('POST', 'newsletter/status', { email }, newsletterStatusAnswer)),
})
