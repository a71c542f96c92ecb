import { type LetterBlock, type LetterFooter, letterHtml, letterOf } from './letter'

/**
 * The embedded API's outgoing mail: written to the `outbox` table in the recipient's language (the translations
 * table's `mail.*` texts, English when the locale has none), its plain text and its HTML part (letter.ts) side by side.
 * A deployment plugs in a sender that drains the table.
 */

/**
 * A mail to write: its plain text (`body`) and, for its HTML part, the recipient's `locale` (English without one),
 * the label of its link's button, blocks of its own in place of marked paragraphs (`partMarker`), a footer, or
 * `html` made whole; `headers` go with it (the newsletter's List-Unsubscribe).
 */
export type Mail = {
  recipient: string
  subject: string
  body: string
  kind: string
  locale?: string
  linkLabel?: string
  parts?: Record<string, LetterBlock>
  footer?: LetterFooter
  html?: string
  headers?: Record<string, string>
}

/** A mail's HTML part: made whole by its writer, else its text as a letter. */
function mailHtml(mail: Mail): string {
  return (
    mail.html ??
    letterHtml(
      letterOf(mail.locale ?? 'en', mail.subject, mail.body, {
        linkLabel: mail.linkLabel,
        parts: mail.parts,
        footer: mail.footer,
      }),
    )
  )
}

/** A mail's headers as the outbox keeps them (JSON), or null. */
const headersOf = (mail: Mail): string | null => (mail.headers ? JSON.stringify(mail.headers) : null)

/** A `mail.*` text in a locale (else English) with its `{{placeholders}}` filled. */
export async function mailText(
  db: D1Database,
  locale: string,
  key: string,
  params: Record<string, string>,
): Promise<string> {
  const row = await db
    .prepare(
      `SELECT value FROM translations WHERE key = ?1 AND scope = '*' AND locale IN (?2, 'en') ORDER BY locale = 'en' LIMIT 1`,
    )
    .bind(key, locale)
    .first<{ value: string }>()
  return (row?.value ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => params[name] ?? '')
}

/**
 * The statement that queues a mail, to run alone or in a batch with the change it reports; with `only`, just when its
 * SQL condition holds (in a batch: after the statements before it). The mail's own values are `?1` to `?6`: a condition
 * with numbered parameters starts at `?7`.
 */
export function queueMail(db: D1Database, mail: Mail, only?: { when: string; params: unknown[] }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO outbox (recipient, subject, body, kind, html, headers) SELECT ?, ?, ?, ?, ?, ? WHERE ${only?.when ?? 'TRUE'}`,
    )
    .bind(mail.recipient, mail.subject, mail.body, mail.kind, mailHtml(mail), headersOf(mail), ...(only?.params ?? []))
}

/** Texts of a locale (English where it has none) under some key prefixes, as a translator with `{{placeholders}}`. */
export async function mailTexts(
  db: D1Database,
  locale: string,
  prefixes: readonly string[],
): Promise<(key: string, params?: Record<string, string>) => string> {
  const { results } = await db
    .prepare(
      `SELECT key, value FROM translations WHERE scope = '*' AND locale IN (?1, 'en')
          AND (${prefixes.map((_, i) => `key LIKE ?${i + 2}`).join(' OR ')}) ORDER BY locale = ?1`,
    )
    .bind(locale, ...prefixes.map((prefix) => `${prefix}%`))
    .all<{ key: string; value: string }>()
  // English first, the locale's own texts over it.
  const texts = new Map(results.map((row) => [row.key, row.value]))
  return (key, params = {}) =>
    (texts.get(key) ?? key).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => params[name] ?? '')
}

/** The statement that queues a mail about a submission (found by its reference, so it only runs once it is stored). */
export function queueSubmissionMail(db: D1Database, mail: Mail, reference: string): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO outbox (recipient, subject, body, kind, html, headers, submission_id) SELECT ?, ?, ?, ?, ?, ?, id FROM form_submissions WHERE reference = ?',
    )
    .bind(mail.recipient, mail.subject, mail.body, mail.kind, mailHtml(mail), headersOf(mail), reference)
}
