import { configOf } from '../config'
import type { Bindings } from '../env'
import { logEvent } from '../ops/log'
import { isSealedRecipient, openRecipient } from '../whistleblower/sealed-recipient'

/**
 * Sending the embedded API's outbox (docs/decisions/027): the deployment's mail service is a `MailTransport`; a run
 * reads the queued mails, opens a sealed recipient only then, hands each mail over and marks it sent — or, when its
 * recipient was sealed (a whistleblower's "there is news"), deletes its row, so that nothing stored ties the address
 * to a report once the mail has left. A brand's own backend sends its own outbox.
 */

/** A mail as it leaves the site: the only moment a sealed recipient is in the clear, and it is never stored so. */
export type OutgoingMail = { id: number; to: string; subject: string; body: string; kind: string }

/** Where mails leave the site: a mail service's API, or a recorder in tests. Throws when the mail was not taken. */
export type MailTransport = { send(mail: OutgoingMail): Promise<void> }

/** A queued row of the outbox, as stored. */
export type QueuedMail = { id: number; recipient: string; subject: string; body: string; kind: string }

export type SendingReport = { sent: number; failed: number }

/** At most this many mails in one run: each run stays short, however much has piled up. */
export const MAILS_PER_RUN = 50

/**
 * Sends the oldest queued mails, one at a time (runs do not overlap: the caller runs one at once). A mail that could
 * not be opened or was not taken stays queued for the next run and is logged with its kind, its id and the error's
 * name, never its recipient or its words.
 *
 * @example await sendQueuedMails(env, mailService)
 */
export async function sendQueuedMails(env: Bindings, transport: MailTransport, limit = MAILS_PER_RUN): Promise<SendingReport> {
  if (configOf(env).upstream.kind !== 'embedded') return { sent: 0, failed: 0 }
  const { results } = await env.DB.prepare('SELECT id, recipient, subject, body, kind FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?')
    .bind(limit)
    .all<QueuedMail>()
  const report: SendingReport = { sent: 0, failed: 0 }
  for (const queued of results) {
    try {
      await transport.send(await outgoingMail(env, queued))
      await sentMail(env.DB, queued).run()
      report.sent += 1
    } catch (error) {
      report.failed += 1
      // The error's name only: a mail service's message may well name the recipient.
      logEvent('error', 'mail_not_sent', { id: queued.id, kind: queued.kind, error: error instanceof Error ? error.name : typeof error })
    }
  }
  return report
}

/** A queued mail as it is to leave: a sealed recipient opened with `WHISTLEBLOWER_KEY` (throws without it). */
export async function outgoingMail(env: Pick<Bindings, 'WHISTLEBLOWER_KEY'>, queued: QueuedMail): Promise<OutgoingMail> {
  const { recipient, ...mail } = queued
  if (!isSealedRecipient(recipient)) return { ...mail, to: recipient }
  if (!env.WHISTLEBLOWER_KEY) throw new Error('WHISTLEBLOWER_KEY is not set')
  return { ...mail, to: await openRecipient(env.WHISTLEBLOWER_KEY, recipient) }
}

/** What a sent mail leaves: its row marked sent, or none at all when its recipient was sealed. */
function sentMail(db: D1Database, queued: QueuedMail): D1PreparedStatement {
  return isSealedRecipient(queued.recipient)
    ? db.prepare('DELETE FROM outbox WHERE id = ?').bind(queued.id)
    : db.prepare(`UPDATE outbox SET sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`).bind(queued.id)
}
