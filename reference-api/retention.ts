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
      `DELETE FROM form_submissions WHERE id IN (SELECT id FROM form_submissions WHERE created_at < ? ORDER BY id LIMIT ${ROWS_PER_DELETE}) RETURNING id`,
    )
    .bind(cutOff.toISOString())
  let deleted = 0
  for (;;) {
    const { results } = await statement.all()
    deleted += results.length
    if (results.length < ROWS_PER_DELETE) return deleted
  }
}

/** Deletes the whistleblowers' "there is news" mails once sent, or unsent ones created before the cut-off. */
export async function deleteReporterMails(db: D1Database, cutOff: Date): Promise<number> {
  const { meta } = await db
    .prepare(`DELETE FROM outbox WHERE kind = 'whistleblower_news' AND (sent_at IS NOT NULL OR created_at < ?)`)
    .bind(cutOff.toISOString())
    .run()
  return meta.changes
}
