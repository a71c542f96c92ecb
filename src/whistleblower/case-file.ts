import { z } from 'zod'
import type { CaseEvent, CaseFile, CaseSummary } from '../../contract/staff-schemas'
import type { CaseMessage } from '../../contract/whistleblower-schemas'
import { openBytes, openReportKey, openText, sealText } from './sealed'
import { sealRecipient } from './sealed-recipient'
import type { WhistleblowerKeyring } from './keyring'

/**
 * A case as the console shows it: the API answers it sealed (docs/decisions/014); the Worker opens it with
 * the whistleblower keyring (the key its wrapped key names), one case at a time, and seals what a handler writes with the case's own key.
 */

/** What the reporter wrote, as sealed with the report (the category and anonymity are in the clear beside it). */
const reportText = z.object({
  what: z.string(),
  when_where: z.string(),
  involved: z.string().nullish(),
  name: z.string().nullish(),
  contact: z.string().nullish(),
})
export type ReportText = {
  what: string
  when_where: string
  involved: string | null
  name: string | null
  contact: string | null
}

/** An attachment's sealed `{ name, type }`. */
const attachmentMeta = z.object({ name: z.string(), type: z.string() })

export type OpenedMessage = Omit<CaseMessage, 'sealed_body'> & { body: string }
export type OpenedAttachment = {
  id: number
  message_id: number | null
  name: string
  type: string
  size: number
  created_at: string
}

export type OpenedCase = CaseSummary & {
  report: ReportText
  /** Where "there is news" mails go, when the reporter left an address. */
  notifyEmail: string | null
  outcome: string | null
  messages: OpenedMessage[]
  attachments: OpenedAttachment[]
  events: CaseEvent[]
}

/** Thrown when a case cannot be opened: its key names one the ring does not hold (UnknownKeyId), or it was altered. */
export class UnreadableCase extends Error {
  override name = 'UnreadableCase'
}

/** Work with a case's key; any failure of it (a key the ring lacks, altered data) is an UnreadableCase. */
async function withCaseKey<T>(
  keyring: WhistleblowerKeyring,
  file: Pick<CaseFile, 'wrapped_key'>,
  work: (key: CryptoKey) => Promise<T>,
): Promise<T> {
  try {
    return await work(await openReportKey(keyring, file.wrapped_key))
  } catch (error) {
    throw new UnreadableCase(error instanceof Error ? error.name : 'unknown')
  }
}

/** A case opened: its report, address, outcome, messages and attachments' names in plain text. */
export async function openCaseFile(keyring: WhistleblowerKeyring, file: CaseFile): Promise<OpenedCase> {
  const { wrapped_key, sealed_report, sealed_notify, sealed_outcome, messages, attachments, ...summary } = file
  return withCaseKey(keyring, file, async (key) => {
    const report = reportText.parse(JSON.parse(await openText(key, sealed_report)))
    return {
      ...summary,
      report: {
        what: report.what,
        when_where: report.when_where,
        involved: report.involved ?? null,
        name: report.name ?? null,
        contact: report.contact ?? null,
      },
      notifyEmail: sealed_notify ? await openText(key, sealed_notify) : null,
      outcome: sealed_outcome ? await openText(key, sealed_outcome) : null,
      messages: await Promise.all(
        messages.map(async ({ sealed_body, ...message }) => ({ ...message, body: await openText(key, sealed_body) })),
      ),
      attachments: await Promise.all(
        attachments.map(async ({ sealed_meta, ...attachment }) => ({
          ...attachment,
          ...attachmentMeta.parse(JSON.parse(await openText(key, sealed_meta))),
        })),
      ),
    }
  })
}

/** A handler's text (a message, a note, an outcome) sealed with the case's key. */
export const sealForCase = (
  keyring: WhistleblowerKeyring,
  file: Pick<CaseFile, 'wrapped_key'>,
  text: string,
): Promise<string> => withCaseKey(keyring, file, (key) => sealText(key, text))

/** An attachment opened with the case's key: its name and type (sealed beside it) and its bytes (as stored in R2). */
export const openAttachment = (
  keyring: WhistleblowerKeyring,
  file: Pick<CaseFile, 'wrapped_key'>,
  attachment: { sealed_meta: string },
  sealed: Uint8Array<ArrayBuffer>,
): Promise<{ name: string; type: string; bytes: Uint8Array<ArrayBuffer> }> =>
  withCaseKey(keyring, file, async (key) => ({
    ...attachmentMeta.parse(JSON.parse(await openText(key, attachment.sealed_meta))),
    bytes: await openBytes(key, sealed),
  }))

/** The reporter's status page, in the market and language they reported in: what a "there is news" mail links. */
export const statusUrl = (origin: string, report: Pick<CaseSummary, 'site' | 'locale'>) =>
  `${origin}/${report.site}-${report.locale}/whistleblower-form/status`

/**
 * The `notify` of a change: the reporter's address, opened with the case's key and sealed again for the mail sender
 * (it never leaves the Worker in the clear), and their status page; null when they left none. Throws when an address
 * must be written to but the site has no public origin to link.
 */
export async function notifyOf(
  keyring: WhistleblowerKeyring,
  origin: string | null,
  file: CaseFile,
): Promise<{ sealed_recipient: string; status_url: string } | null> {
  if (!file.sealed_notify) return null
  if (!origin) throw new Error('PUBLIC_ORIGIN is not set')
  const sealed = file.sealed_notify
  const address = await withCaseKey(keyring, file, (key) => openText(key, sealed))
  return { sealed_recipient: await sealRecipient(keyring, address), status_url: statusUrl(origin, file) }
}
