import { z } from 'zod'
import { TOKEN_FORMAT } from './tokens'
import { emailSchema, ticked } from './fields'
import { submissionKey } from './form-schemas'
import { envelope } from './schemas'

/**
 * The newsletter's half of the upstream contract (docs/api.md "Newsletter"): a sign-up with double opt-in. The schemas
 * are shared by the Worker's form and the embedded API; their messages are keys of the translated `validation.*` texts.
 */

/**
 * Where the mailed confirmation link points: `{token}` stands for the token. HTTPS (plain HTTP only on this machine),
 * into a market's `newsletter/confirm/` page.
 */
export const newsletterLinkTemplate = z
  .string()
  .max(300)
  .regex(
    /^(https:\/\/[^/?#]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)\/[a-z]{2,3}-[a-z]{2}\/newsletter\/confirm\/\{token\}$/,
  )

/**
 * The one-click unsubscribe link a newsletter mail carries (`List-Unsubscribe`, RFC 8058): HTTPS (plain HTTP only on
 * this machine), into a market's `newsletter/unsubscribe/` page, its token signed by the site.
 */
export const newsletterUnsubscribeLink = z
  .string()
  .max(700)
  .regex(
    /^(https:\/\/[^/?#]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)\/[a-z]{2,3}-[a-z]{2}\/newsletter\/unsubscribe\/[A-Za-z0-9_.-]+$/,
  )

/** What the sign-up form sends: the address and the consent. */
export const newsletterFields = z.object({
  email: emailSchema,
  consent: ticked('newsletter_consent'),
})

/**
 * `POST api/newsletter/subscriptions`: the fields, the template of the confirmation link, the form's key (the form
 * token's id: the same form sent twice with the same address is one sign-up, one mail) and, optionally, the address's
 * one-click unsubscribe link, which the mail carries.
 */
export const newsletterRequest = newsletterFields.extend({
  link_template: newsletterLinkTemplate,
  submission_key: submissionKey,
  unsubscribe_link: newsletterUnsubscribeLink.optional(),
})
export type NewsletterRequest = z.infer<typeof newsletterRequest>

/** `POST api/newsletter/confirm`. */
export const newsletterConfirmRequest = z.object({ token: z.string().regex(TOKEN_FORMAT) })

/** A usable confirmation link's address (`GET api/newsletter/confirm/{token}`), and the answer of a confirmation. */
export const newsletterLinkAnswer = envelope(z.object({ email: z.string(), expires_at: z.string().min(10) }))

/** `POST api/newsletter/unsubscribe`: the market's newsletter, and any sign-up still pending, end for the address. */
export const newsletterUnsubscribeRequest = z.object({ email: emailSchema })

/**
 * `POST api/newsletter/status` (`{ email }`, the site's call for a logged-in customer's own address): whether the
 * address is a subscriber of the market's newsletter, and whether a sign-up waits for its confirmation.
 */
export const newsletterStatusAnswer = envelope(z.object({ subscribed: z.boolean(), pending: z.boolean() }))
