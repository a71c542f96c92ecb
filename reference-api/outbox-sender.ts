import { SEALED_RECIPIENT_PREFIX } from '../contract/staff-schemas'
import { logEvent } from './log'

/**
 * Sending the reference API's outbox (docs/decisions/027): a run reads the queued mails, hands each to the
 * deployment's delivery (which opens a sealed recipient only then) and marks it sent — or, when its recipient was sealed
 * (a whistleblower's "there is news"), deletes its row, so that nothing stored ties the address to a report once the
 * mail has left.
 */

/** A queued row of the outbox, as stored (a sealed recipient still sealed). */
export type QueuedMail = { id: number; recipient: string; subject: string; body: string; kind: string }

/** Where a queued mail goes; throws when it was not taken. */
export type OutboxDelivery = (mail: QueuedMail) => Promise<void>

export type SendingReport = { sent: number; failed: number }

/**
 * Sends the oldest queued mails, at most `limit`, one at a time (runs do not overlap: the caller runs one at once). A
 * mail that was not taken stays queued for the next run and is logged with its kind, its id and the error's name,
 * never its recipient or its words.
 *
 * @example await sendOutbox(env.DB, (mail) => mailService.send(mail), 50)
 */
export async function sendOutbox(db: D1Database, deliver: OutboxDelivery, limit: number): Promise<SendingReport> {
  const { results } = await db
    .prepare('SELECT id, recipient, subject, body, kind FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?')
    .bind(limit)
    .all<QueuedMail>()
  const report: SendingReport = { sent: 0, failed: 0 }
  for (const queued of results) {
    try {
      await deliver(queued)
      await sentMail(db, queued).run()
      report.sent += 1
    } catch (error) {
      report.failed += 1
      // The error's name only: a mail service's message may well name the recipient.
      logEvent('error', 'mail_not_sent', {
        id: queued.id,
        kind: queued.kind,
        error: error instanceof Error ? error.name : typeof error,
      })
    }
  }
  return report
}

/** What a sent mail leaves: its row marked sent, or none at all when its recipient was sealed. */
function sentMail(db: D1Database, queued: QueuedMail): D1PreparedStatement {
  return queued.recipient.startsWith(SEALED_RECIPIENT_PREFIX)
    ? db.prepare('DELETE FROM outbox WHERE id = ?').bind(queued.id)
    : db.prepare(`UPDATE outbox SET sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`).bind(queued.id)
}
