/**
 * The outbox's rows as the Worker sends them (docs/mail.md, docs/decisions/047): the shapes the mail queue's consumer
 * and the reference API's outbox sender share when the API is embedded (src/upstream/reference-api.ts).
 */

/**
 * A queued row of the outbox, as stored (a sealed recipient still sealed): its plain text, its HTML part (null in rows
 * written before there was one) and its headers as JSON (null: none).
 */
export type QueuedMail = {
  id: number
  recipient: string
  subject: string
  body: string
  kind: string
  html: string | null
  headers: string | null
}

/** What became of one row: sent (or recorded only), suppressed (marked failed), or nothing left to send. */
export type MailOutcome = 'sent' | 'recorded' | 'suppressed' | 'nothing_to_send'

/** Why an address takes no more mail, as the mail service reported it. */
export type SuppressionReason = 'bounced' | 'complained'
