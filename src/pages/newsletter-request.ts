import type { Context } from 'hono'
import type { MarketEnv } from '../env'
import { unsubscribeLink } from '../mail/unsubscribe-link'
import type { NewsletterRequest } from '../../contract/newsletter-schemas'

/**
 * A sign-up to the market's newsletter as the API takes it (double opt-in: it mails the confirmation link, and the
 * address is a subscriber only once confirmed): the address, the consent, the confirmation link's template, the
 * address's one-click unsubscribe link and the form's key (the same form sent twice mails one link). The footer's
 * form and the account's newsletter page both send it.
 *
 * @example
 * await c.var.api.newsletter.subscribe(await newsletterRequestOf(c, secret, origin, { email, consent: true }, token.id))
 */
export async function newsletterRequestOf(
  c: Context<MarketEnv>,
  secret: string,
  origin: string,
  fields: { email: string; consent: true },
  submissionKey: string,
): Promise<NewsletterRequest> {
  const segment = c.var.market.segment
  return {
    ...fields,
    link_template: `${origin}/${segment}/newsletter/confirm/{token}`,
    unsubscribe_link: await unsubscribeLink(secret, origin, segment, fields.email),
    submission_key: submissionKey,
  }
}
