import { z } from 'zod'
import { emailSchema, optionalText, personName, requiredText, valueErrors } from './fields'
import { submissionKey } from './form-schemas'
import { envelope } from './schemas'

/**
 * The whistleblower channel's half of the upstream contract (docs/api.md "Whistleblower channel"). The Worker checks
 * what the reporter typed (`reportFields`), seals it with the report's own key (src/whistleblower/sealed.ts) and sends
 * only sealed text to the API: `sealed` values are base64 of IV + AES-GCM ciphertext, `wrapped_key` base64 of the
 * AES-KW-wrapped report key, after the id of the Worker's key that wrapped it (`v2:{id}:`). The API stores and answers them as they are.
 */

/** What a report is about (EU Directive 2019/1937, art. 2, as the brand groups it). */
export const REPORT_CATEGORIES = [
  'fraud_corruption',
  'product_safety',
  'environment',
  'data_protection',
  'harassment_discrimination',
  'other',
] as const
export type ReportCategory = (typeof REPORT_CATEGORIES)[number]

/** Where a case stands, as the reporter and the handler see it. */
export const CASE_STATES = ['received', 'acknowledged', 'in_progress', 'closed'] as const
export type CaseState = (typeof CASE_STATES)[number]

/** At most this many attachments with a report or an answer, each at most this big (before sealing). */
export const ATTACHMENTS_MAX = 3
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024

/** An attachment's R2 key: `wb/<uuid>`. */
export const ATTACHMENT_KEY_FORMAT = /^wb\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** A receipt code as stored and answered: `WB-K7M2-Q9XD-4HNP-T3RS` (src/whistleblower/receipt.ts). */
export const RECEIPT_CODE_FORMAT = /^WB-[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/
/** A passphrase as given: six groups of four (src/whistleblower/receipt.ts). */
export const PASSPHRASE_FORMAT = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/

export const receiptCode = z.string().regex(RECEIPT_CODE_FORMAT, 'receipt_code')
export const passphrase = z.string().regex(PASSPHRASE_FORMAT, 'passphrase')

/** Base64 (standard alphabet) of a sealed value, at most `maxChars` long. */
export const sealed = (maxChars: number) =>
  z
    .string()
    .max(maxChars, 'too_long')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'sealed')
/** A whistleblower key's id (`WHISTLEBLOWER_KEYS`, docs/decisions/048): what a sealed value names its key by. */
export const WHISTLEBLOWER_KEY_ID = /^[A-Za-z0-9_-]{1,32}$/

/**
 * A wrapped AES-256 key: 40 bytes, 56 base64 characters, after `v2:{key id}:` (the Worker's key that wrapped it); a key
 * wrapped before key ids has no prefix.
 */
export const wrappedKey = z.string().regex(/^(v2:[A-Za-z0-9_-]{1,32}:)?[A-Za-z0-9+/]{54}==$/, 'wrapped_key')

/** The texts of a report as the reporter typed them, checked at the edge before they are sealed. */
export const REPORT_TEXT_MAX = 20_000
export const reportFields = z
  .object({
    category: z.enum(REPORT_CATEGORIES, { error: 'category' }),
    what: requiredText(REPORT_TEXT_MAX, 'many'),
    when_where: requiredText(2000, 'many'),
    involved: optionalText(2000, 'many'),
    anonymous: z.boolean(),
    // Checked as a name (`personName`, direction controls refused) only in a named report: an anonymous one drops it.
    name: optionalText(120, 'many'),
    /** How the reporter wants to be contacted (any words: a phone number, a postal address, a time of day). */
    contact: optionalText(500, 'many'),
    /** Where "there is news" mails go; the only use of it. */
    notify_email: z
      .union([emailSchema, z.literal(''), z.null()])
      .optional()
      .transform((value) => value || null),
  })
  .superRefine((report, context) => {
    if (report.anonymous) return
    const name = personName(120).safeParse(report.name ?? '')
    for (const message of name.success ? [] : valueErrors(name.error))
      context.addIssue({ code: 'custom', path: ['name'], message })
    if (!report.contact && !report.notify_email)
      context.addIssue({ code: 'custom', path: ['contact'], message: 'contact_required' })
  })
export type ReportFields = z.infer<typeof reportFields>

/** What a reporter or a handler writes later: an answer, a message, a note, an outcome. */
export const MESSAGE_TEXT_MAX = 10_000
export const messageText = requiredText(MESSAGE_TEXT_MAX, 'many')

/** An attachment as stored: its sealed bytes in R2 under `object_key`, its sealed `{ name, type }`, its sealed size. */
export const attachmentRecord = z.object({
  object_key: z.string().regex(ATTACHMENT_KEY_FORMAT, 'attachment'),
  sealed_meta: sealed(2000),
  size: z
    .number()
    .int()
    .positive()
    .max(ATTACHMENT_MAX_BYTES + 64),
})
export type AttachmentRecord = z.infer<typeof attachmentRecord>

/** Sealed text of at most `chars` characters before sealing (UTF-8 up to 4 bytes each, base64's 4/3, IV and tag). */
const sealedText = (chars: number) => sealed(Math.ceil(((chars * 4 + 28) * 4) / 3) + 4)

/**
 * `POST api/whistleblower/reports` (market headers): a new report. The Worker made the receipt code and the passphrase
 * (the API stores only the passphrase's slow hash). The same `submission_key` twice stores one report and answers
 * `created: false` (the Worker then deletes the second call's attachments).
 */
export const newReportRequest = z.object({
  submission_key: submissionKey,
  receipt_code: receiptCode,
  passphrase,
  category: z.enum(REPORT_CATEGORIES, { error: 'category' }),
  anonymous: z.boolean(),
  wrapped_key: wrappedKey,
  sealed_report: sealedText(REPORT_TEXT_MAX + 7000),
  sealed_notify: sealedText(254).nullable(),
  attachments: z.array(attachmentRecord).max(ATTACHMENTS_MAX, 'attachments_count'),
})
export type NewReportRequest = z.infer<typeof newReportRequest>

export const newReportAnswer = envelope(z.object({ receipt_code: receiptCode, created: z.boolean() }))

/** `POST api/whistleblower/status`: the receipt code and the passphrase open the case (404 for any wrong pair). */
export const caseKeyRequest = z.object({ receipt_code: receiptCode, passphrase })
export type CaseKey = z.infer<typeof caseKeyRequest>

/** `POST api/whistleblower/replies`: the reporter's answer, with the case key, sealed, with attachments. */
export const replyRequest = caseKeyRequest.extend({
  submission_key: submissionKey,
  sealed_body: sealedText(MESSAGE_TEXT_MAX),
  attachments: z.array(attachmentRecord).max(ATTACHMENTS_MAX, 'attachments_count'),
})
export type ReplyRequest = z.infer<typeof replyRequest>
export const replyAnswer = envelope(z.object({ created: z.boolean() }))

/** An attachment as the API answers it. */
export const attachmentSchema = z.object({
  id: z.number().int(),
  message_id: z.number().int().nullable(),
  sealed_meta: z.string(),
  size: z.number().int(),
  created_at: z.string(),
})
export type Attachment = z.infer<typeof attachmentSchema>

/** A message of a case: the reporter's, a handler's to the reporter, or (console only) a handler's internal note. */
export const caseMessageSchema = z.object({
  id: z.number().int(),
  author: z.enum(['reporter', 'handler', 'note']),
  /** The handler who wrote it (console only; never answered to the reporter). */
  staff_name: z.string().nullish(),
  sealed_body: z.string(),
  created_at: z.string(),
})
export type CaseMessage = z.infer<typeof caseMessageSchema>

/** What the reporter sees of their case: no note, no handler's name. */
export const reporterCaseSchema = z.object({
  receipt_code: receiptCode,
  category: z.enum(REPORT_CATEGORIES),
  state: z.enum(CASE_STATES),
  received_at: z.string(),
  acknowledged_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  wrapped_key: z.string(),
  sealed_report: z.string(),
  sealed_outcome: z.string().nullable(),
  messages: z.array(caseMessageSchema),
  attachments: z.array(attachmentSchema),
})
export type ReporterCase = z.infer<typeof reporterCaseSchema>
export const reporterCaseAnswer = envelope(reporterCaseSchema)
