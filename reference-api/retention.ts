/**
 * The reference API's part of the retention (the deployment's Cron Trigger decides the cut-offs and logs the counts):
 * lead-form submissions with their mails, and whistleblowers' "there is news" mails.
 */

/** Rows deleted per statement: each stays short, however much has piled up. */
const ROWS_PER_DELETE = 500

/**
 * Deletes the submissions created before the cut-off, a few hundred at a time; answers how many. Their mails go with
 * them: the outbox rows' foreign key says `ON DELETE CASCADE`, and D1 enforces foreign keys (`PRAGMA foreign_keys` is
 * on, tested).
 */
export async function deleteSubmissions(db: D1Database, cutOff: Date): Promise<number> {
  // Counted by what the statement returns: D1's `changes` counts the cascaded mails too.
  const statement = db
    .prepare(
      `DELETE FROM form_submissions WHERE id IN (SELECT id FROM form_submissions WHERE created_at < ? ORDER BY created_at LIMIT ${ROWS_PER_DELETE}) RETURNING id`,
    )
    .bind(cutOff.toISOString())
  let deleted = 0
  for (;;) {
    const { results } = await statement.all()
    deleted += results.length
    if (results.length < ROWS_PER_DELETE) return deleted
  }
}

/**
 * How long a whistleblower's "there is news" mail that was never sent is kept: its recipient ties an address to a
 * report, so it goes as soon as it is sent, or after this many days.
 */
export const REPORTER_MAIL_DAYS = 30

const DAY_MS = 24 * 60 * 60 * 1000

/** Deletes the whistleblowers' "there is news" mails once sent, or unsent ones older than REPORTER_MAIL_DAYS at `now`. */
export async function deleteReporterMails(db: D1Database, now: Date): Promise<number> {
  const cutOff = new Date(now.getTime() - REPORTER_MAIL_DAYS * DAY_MS)
  const { meta } = await db
    .prepare(`DELETE FROM outbox WHERE kind = 'whistleblower_news' AND (sent_at IS NOT NULL OR created_at < ?)`)
    .bind(cutOff.toISOString())
    .run()
  return meta.changes
}

/** What one retention run deleted. */
export type ApiRetention = { submissions: number; reporterMails: number }

/**
 * The API's whole retention run as of `now`: the submissions older than `retentionDays` with their mails, and the
 * reporters' mails (REPORTER_MAIL_DAYS). The standalone Worker's Cron Trigger runs it (reference-api/worker.ts); the
 * site's runs the two parts beside its own R2 deletes (src/forms/retention.ts).
 */
export async function runRetention(db: D1Database, now: Date, retentionDays: number): Promise<ApiRetention> {
  const [submissions, reporterMails] = await Promise.all([
    deleteSubmissions(db, new Date(now.getTime() - retentionDays * DAY_MS)),
    deleteReporterMails(db, now),
  ])
  return { submissions, reporterMails }
}
