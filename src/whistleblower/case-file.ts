import { z } from 'zod'
import type { CaseEvent, CaseFile, CaseSummary } from '../upstream/staff-schemas'
import type { CaseMessage } from '../upstream/whistleblower-schemas'
import { openBytes, openReportKey, openText, sealText } from './sealed'

/**
 * A case as the console shows it: the API answers it sealed (docs/decisions/014); the Worker opens it with
 * `WHISTLEBLOWER_KEY`, one case at a time, and seals what a handler writes with the case's own key.
 */

/** What the reporter wrote, as sealed with the report (the category and anonymity are in the clear beside it). */
const reportText = z.object({
  what: z.string(),
  when_where: z.string(),
  involved: z.string().nullish(),
  name: z.string().nullish(),
  contact: z.string().nullish(),
})
export type ReportText = { what: string; when_where: string; involved: string | null; name: string | null; contact: string | null }

/** An attachment's sealed `{ name, type }`. */
const attachmentMeta = z.object({ name: z.string(), type: z.string() })

export type OpenedMessage = Omit<CaseMessage, 'sealed_body'> & { body: string }
export type OpenedAttachment = { id: number; message_id: number | null; name: string; type: string; size: number; created_at: string }

export type OpenedCase = CaseSummary & {
  report: ReportText
  /** Where "there is news" mails go, when the reporter left an address. */
  notifyEmail: string | null
  outcome: string | null
  messages: OpenedMessage[]
  attachments: OpenedAttachment[]
  events: CaseEvent[]
}

/** Thrown when a case cannot be opened: sealed with another `WHISTLEBLOWER_KEY`, or altered. */
export class UnreadableCase extends Error {
  override name = 'UnreadableCase'
}

/** A case opened: its report, address, outcome, messages and attachments' names in plain text. */
export async function openCaseFile(secret: string, file: CaseFile): Promise<OpenedCase> {
  const { wrapped_key, sealed_report, sealed_notify, sealed_outcome, messages, attachments, ...summary } = file
  try {
    const key = await openReportKey(secret, wrapped_key)
    const report = reportText.parse(JSON.parse(await openText(key, sealed_report)))
    return {
      ...summary,
      report: { what: report.what, when_where: report.when_where, involved: report.involved ?? null, name: report.name ?? null, contact: report.contact ?? null },
      notifyEmail: sealed_notify ? await openText(key, sealed_notify) : null,
      outcome: sealed_outcome ? await openText(key, sealed_outcome) : null,
      messages: await Promise.all(messages.map(async ({ sealed_body, ...message }) => ({ ...message, body: await openText(key, sealed_body) }))),
      attachments: await Promise.all(
        attachments.map(async ({ sealed_meta, ...attachment }) => ({ ...attachment, ...attachmentMeta.parse(JSON.parse(await openText(key, sealed_meta))) })),
      ),
    }
  } catch (error) {
    throw new UnreadableCase(error instanceof Error ? error.name : 'unknown')
  }
}

/** A handler's text (a message, a note, an outcome) sealed with the case's key. */
export async function sealForCase(secret: string, file: Pick<CaseFile, 'wrapped_key'>, text: string): Promise<string> {
  return sealText(await openReportKey(secret, file.wrapped_key), text)
}

/** An attachment's bytes, as stored in R2, opened with the case's key. */
export async function openAttachment(secret: string, file: Pick<CaseFile, 'wrapped_key'>, sealed: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await openBytes(await openReportKey(secret, file.wrapped_key), sealed)
  } catch (error) {
    throw new UnreadableCase(error instanceof Error ? error.name : 'unknown')
  }
}

/** The reporter's status page, in the market and language they reported in: what a "there is news" mail links. */
export const statusUrl = (origin: string, report: Pick<CaseSummary, 'site' | 'locale'>) =>
  `${origin}/${report.site}-${report.locale}/whistleblower-form/status`

/**
 * The `notify` of a change: the reporter's address (opened) and their status page, or null when they left none.
 * Throws when an address must be written to but the site has no public origin to link.
 */
export async function notifyOf(secret: string, origin: string | null, file: CaseFile): Promise<{ email: string; status_url: string } | null> {
  if (!file.sealed_notify) return null
  if (!origin) throw new Error('PUBLIC_ORIGIN is not set')
  return { email: await openText(await openReportKey(secret, file.wrapped_key), file.sealed_notify), status_url: statusUrl(origin, file) }
}
