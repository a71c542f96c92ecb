/**
 * Where mails leave the site (docs/mail.md): one `MailSender` interface, its implementations side by side — `record`
 * (nothing leaves, the outbox row is the record, as locally) and `resend` (Resend's HTTP API) — chosen in senders.ts.
 */

/**
 * A mail as it leaves the site: the only moment a sealed recipient is in the clear, and it is never stored so. `body`
 * is its plain-text part, `html` its HTML part (null: text only), `headers` what it carries besides (List-Unsubscribe).
 */
export type OutgoingMail = {
  id: number
  to: string
  subject: string
  body: string
  kind: string
  html: string | null
  headers: Record<string, string>
}

/**
 * A mail service. `send` answers the service's id for the mail, or null when the mail is only recorded (the outbox
 * row stays as it is); it throws a `MailNotTaken` when the service did not take it.
 */
export type MailSender = { name: string; send(mail: OutgoingMail): Promise<string | null> }

/**
 * A mail the service did not take: `reason` is a short code for the outbox (`http_500`, `network_error`…), never the
 * recipient or the service's message; `permanent` when trying again cannot help (the service refused the mail itself).
 */
export class MailNotTaken extends Error {
  override name = 'MailNotTaken'
  constructor(
    readonly reason: string,
    readonly permanent = false,
  ) {
    super(reason)
  }
}

/** The default: nothing leaves; the console's outbox shows the mail as it was written. */
export const recordSender: MailSender = { name: 'record', send: async () => null }
