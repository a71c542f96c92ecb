import type { MailOutcome, QueuedMail, SuppressionReason } from '../contract/outbox-mail'
import { SEALED_RECIPIENT_PREFIX } from '../contract/staff-schemas'
import { sha256Hex } from './bytes'

/**
 * Sending the reference API's outbox (docs/decisions/027 and 047): each row written is announced to the deployment's
 * mail queue by its id (`claimUnqueuedMails`); the queue's consumer sends one row at a time (`sendMail`), through the
 * deployment's delivery (which opens a sealed recipient only then), and marks it sent with the mail service's id — or,
 * when its recipient was sealed (a whistleblower's "there is news"), deletes its row, so that nothing stored ties the
 * address to a report once the mail has left. A mail that never could be sent is marked failed with its reason.
 */

/**
 * Where a queued mail goes: answers the mail service's id, or null when the deployment only records mails (the row
 * stays as it is, the record). Throws when the mail was not taken.
 */
export type OutboxDelivery = (mail: QueuedMail) => Promise<string | null>

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`
const UNSENT = 'sent_at IS NULL AND failed_at IS NULL'

/**
 * Marks at most `limit` rows not yet announced as queued, oldest first, and answers their ids (one statement: two
 * callers never claim the same row).
 *
 * @example const ids = await claimUnqueuedMails(env.DB, 100)
 */
export async function claimUnqueuedMails(db: D1Database, limit: number): Promise<number[]> {
  const { results } = await db
    .prepare(
      `UPDATE outbox SET queued_at = ${NOW} WHERE id IN
        (SELECT id FROM outbox WHERE queued_at IS NULL AND ${UNSENT} ORDER BY id LIMIT ?) RETURNING id`,
    )
    .bind(limit)
    .all<{ id: number }>()
  return results.map((row) => row.id).sort((a, b) => a - b)
}

/** Gives claimed rows back (their announcement failed): the scheduled run announces them again. */
export async function releaseMails(db: D1Database, ids: readonly number[]): Promise<void> {
  if (!ids.length) return
  await db
    .prepare(`UPDATE outbox SET queued_at = NULL WHERE id IN (${ids.map(() => '?').join(', ')}) AND ${UNSENT}`)
    .bind(...ids)
    .run()
}

/**
 * Sends one row through `deliver`, once: a row already sent, failed or deleted is left alone (a message delivered
 * twice is harmless); a row whose address takes no more mail of its kind is marked failed "suppressed_…" unsent. When
 * `deliver` throws, the attempt and its reason (`reasonOf`: a code, never the recipient) are kept on the row and the
 * error is thrown again, for the queue to retry.
 *
 * @example await sendMail(env.DB, 42, (mail) => sender.send(mail), (error) => error.name)
 */
export async function sendMail(
  db: D1Database,
  id: number,
  deliver: OutboxDelivery,
  reasonOf: (error: unknown) => string,
): Promise<MailOutcome> {
  const queued = await db
    .prepare(`SELECT id, recipient, subject, body, kind, html, headers FROM outbox WHERE id = ? AND ${UNSENT}`)
    .bind(id)
    .first<QueuedMail>()
  if (!queued) return 'nothing_to_send'
  const suppression = await suppressionOf(db, queued)
  if (suppression) {
    await failMail(db, id, `suppressed_${suppression}`)
    return 'suppressed'
  }
  let providerId: string | null
  try {
    providerId = await deliver(queued)
  } catch (error) {
    await db
      .prepare('UPDATE outbox SET attempts = attempts + 1, failure = ? WHERE id = ?')
      .bind(reasonOf(error), id)
      .run()
    throw error
  }
  if (providerId === null) return 'recorded'
  await sentMail(db, queued, providerId).run()
  return 'sent'
}

/** Marks a row failed for good (dead-lettered, refused or suppressed), keeping `reason` or else its last attempt's. */
export async function failMail(db: D1Database, id: number, reason?: string): Promise<void> {
  await db
    .prepare(
      `UPDATE outbox SET failed_at = ${NOW}, failure = COALESCE(?, failure, 'unknown') WHERE id = ? AND ${UNSENT}`,
    )
    .bind(reason ?? null, id)
    .run()
}

/**
 * Stops mail to an address the mail service reported: a suppression record (by the address's SHA-256), and the
 * address's newsletter subscriptions and pending sign-ups end.
 *
 * @example await suppressAddress(env.DB, 'bounced@example.com', 'bounced')
 */
export async function suppressAddress(db: D1Database, address: string, reason: SuppressionReason): Promise<void> {
  const email = address.trim().toLowerCase()
  await db.batch([
    // A bounce outranks a complaint: the address takes nothing at all.
    db
      .prepare(
        `INSERT INTO mail_suppressions (address_hash, reason) VALUES (?, ?)
          ON CONFLICT (address_hash) DO UPDATE SET reason = 'bounced' WHERE excluded.reason = 'bounced'`,
      )
      .bind(await sha256Hex(email), reason),
    db.prepare('DELETE FROM newsletter_subscribers WHERE lower(email) = ?').bind(email),
    db.prepare('DELETE FROM newsletter_requests WHERE lower(email) = ?').bind(email),
  ])
}

/**
 * Whether a mail may not go to its address: the newsletter's to an address that bounced or complained, any mail to
 * one that bounced (a complaint still lets through what the person asked for: a reset link, an order's confirmation).
 * A sealed recipient is not known here and is never suppressed.
 */
async function suppressionOf(db: D1Database, queued: QueuedMail): Promise<SuppressionReason | null> {
  if (queued.recipient.startsWith(SEALED_RECIPIENT_PREFIX)) return null
  const row = await db
    .prepare('SELECT reason FROM mail_suppressions WHERE address_hash = ?')
    .bind(await sha256Hex(queued.recipient.trim().toLowerCase()))
    .first<{ reason: SuppressionReason }>()
  if (!row) return null
  return row.reason === 'bounced' || queued.kind.startsWith('newsletter') ? row.reason : null
}

/** What a sent mail leaves: its row marked sent with the service's id, or none at all when its recipient was sealed. */
function sentMail(db: D1Database, queued: QueuedMail, providerId: string): D1PreparedStatement {
  return queued.recipient.startsWith(SEALED_RECIPIENT_PREFIX)
    ? db.prepare('DELETE FROM outbox WHERE id = ?').bind(queued.id)
    : db
        .prepare(`UPDATE outbox SET sent_at = ${NOW}, provider_id = ?, failure = NULL WHERE id = ?`)
        .bind(providerId, queued.id)
}
