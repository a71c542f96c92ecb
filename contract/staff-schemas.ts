import { z } from 'zod'
import { orderSchema, orderStatusSchema, paymentStateSchema } from './account-schemas'
import { CARRIERS } from './carriers'
import { emailSchema, requiredText } from './fields'
import { REFERENCE_FORMAT, SUBMISSION_KINDS } from './form-schemas'
import { envelope, keysetEnvelope } from './schemas'
import {
  attachmentSchema,
  CASE_STATES,
  caseMessageSchema,
  MESSAGE_TEXT_MAX,
  REPORT_CATEGORIES,
  receiptCode,
  sealed,
} from './whistleblower-schemas'

/**
 * The staff console's half of the upstream contract (docs/api.md "Staff"): sign-in with a TOTP code, the cases of the
 * whistleblower channel (case handlers), the lead-form submissions, the outbox, the markets' switches and the orders
 * (editors: docs/decisions/049).
 * Every call but the sign-in carries the staff member's bearer token; a call outside the role answers 403.
 */

export const STAFF_ROLES = ['case_handler', 'editor'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

export const staffSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
})
export type Staff = z.infer<typeof staffSchema>

/** `POST api/staff/login`: e-mail, password and the current TOTP code (6 digits). 422 for any wrong one, unsaid which. */
export const staffLoginRequest = z.object({
  email: emailSchema,
  password: z.string().min(1, 'required').max(200, 'too_long'),
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, 'totp_code'),
})
export type StaffLogin = z.infer<typeof staffLoginRequest>
export const staffLoginAnswer = z.object({
  access_token: z.string().min(20),
  expires_at: z.string(),
  staff: staffSchema,
})

/** `GET api/staff/me`: the bearer's staff member (401 when the token is not, or no longer, good). */
export const staffAnswer = envelope(staffSchema)

// Cases (case handlers)

/** A case in the console's list: what it is about and where it stands, nothing the reporter wrote. */
export const caseSummarySchema = z.object({
  id: z.number().int(),
  receipt_code: receiptCode,
  site: z.string(),
  locale: z.string(),
  category: z.enum(REPORT_CATEGORIES),
  state: z.enum(CASE_STATES),
  anonymous: z.boolean(),
  received_at: z.string(),
  acknowledged_at: z.string().nullable(),
  feedback_at: z.string().nullable(),
  closed_at: z.string().nullable(),
})
export type CaseSummary = z.infer<typeof caseSummarySchema>
/**
 * `GET api/staff/cases?cursor=`: the open cases (not closed), the next deadline soonest due first (overdue ones first)
 * and those with none left last, paged by keyset (docs/decisions/077).
 */
export const openCaseListAnswer = keysetEnvelope(caseSummarySchema)
/** `GET api/staff/cases?state=closed&cursor=`: the closed cases, newest first, paged by keyset (docs/decisions/068). */
export const closedCaseListAnswer = keysetEnvelope(caseSummarySchema)

/** One entry of a case's audit trail. */
export const caseEventSchema = z.object({
  action: z.enum([
    'received',
    'reporter_opened',
    'reporter_replied',
    'opened',
    'file_downloaded',
    'acknowledged',
    'message_sent',
    'note_added',
    'closed',
  ]),
  /** The staff member's name; null: the reporter. */
  staff_name: z.string().nullable(),
  detail: z.string(),
  at: z.string(),
})
export type CaseEvent = z.infer<typeof caseEventSchema>

/**
 * `GET api/staff/cases/{id}`: the case sealed as stored, with its messages (notes included), attachments and audit
 * trail; the call itself is recorded (`opened`) before the answer, so the trail it answers shows it.
 */
export const caseFileSchema = caseSummarySchema.extend({
  wrapped_key: z.string(),
  sealed_report: z.string(),
  sealed_notify: z.string().nullable(),
  sealed_outcome: z.string().nullable(),
  messages: z.array(caseMessageSchema),
  attachments: z.array(attachmentSchema),
  events: z.array(caseEventSchema),
})
export type CaseFile = z.infer<typeof caseFileSchema>
export const caseFileAnswer = envelope(caseFileSchema)

/** `GET api/staff/cases/{id}/attachments/{attachment}`: where its sealed bytes are (recorded as `file_downloaded`). */
export const attachmentLocationAnswer = envelope(attachmentSchema.extend({ object_key: z.string() }))

/**
 * How a recipient sealed for the mail sender starts (docs/decisions/027): then `v2:{key id}:` (the Worker's key that
 * sealed it, docs/decisions/048) or, sealed before key ids, `v1:`; what follows is base64.
 */
export const SEALED_RECIPIENT_PREFIX = 'sealed:'

/** A reporter's address sealed for the mail sender: the API stores it as the mail's recipient and cannot open it. */
export const sealedRecipient = z
  .string()
  .max(600, 'too_long')
  .regex(/^sealed:(v1|v2:[A-Za-z0-9_-]{1,32}):[A-Za-z0-9+/]+={0,2}$/, 'sealed')

/**
 * A "there is news" mail to the reporter, when they left an address: the Worker opens the case's address, seals it
 * again for the mail sender (`sealed_recipient`) and names the status page; the API queues the mail in the report's
 * language (it says nothing else) with the sealed recipient.
 */
export const notifyReporter = z
  .object({ sealed_recipient: sealedRecipient, status_url: z.string().url().max(500) })
  .nullable()

const sealedMessage = sealed(Math.ceil(((MESSAGE_TEXT_MAX * 4 + 28) * 4) / 3) + 4)

/** `POST api/staff/cases/{id}/acknowledge`: received → acknowledged. */
export const acknowledgeRequest = z.object({ notify: notifyReporter })
/** `POST api/staff/cases/{id}/messages`: to the reporter (`handler`) or an internal `note`. */
export const caseMessageRequest = z.object({
  author: z.enum(['handler', 'note']),
  sealed_body: sealedMessage,
  notify: notifyReporter,
})
/** `POST api/staff/cases/{id}/close`: the outcome, sealed. */
export const closeCaseRequest = z.object({ sealed_outcome: sealedMessage, notify: notifyReporter })
/** What a case call that changed it answers: the case's summary after the change. */
export const caseChangeAnswer = envelope(caseSummarySchema)

// Leads, outbox, markets (editors)

/** A lead-form submission in the console's list. */
export const submissionSummarySchema = z.object({
  id: z.number().int(),
  /** Checked: a CV's download is named after it. */
  reference: z.string().regex(REFERENCE_FORMAT),
  kind: z.enum(SUBMISSION_KINDS),
  site: z.string(),
  locale: z.string(),
  email: z.string(),
  created_at: z.string(),
  handled_at: z.string().nullable(),
})
export type SubmissionSummary = z.infer<typeof submissionSummarySchema>
/** `GET api/staff/submissions?site=&kind=&from=&to=&page=`: newest first, paged. */
export const submissionListAnswer = keysetEnvelope(submissionSummarySchema)

/** `GET api/staff/submissions/{id}`: the submission in full (its checked fields as sent), who handled it. */
export const submissionSchema = submissionSummarySchema.extend({
  fields: z.record(z.string(), z.unknown()),
  file_key: z.string().nullable(),
  handled_by: z.string().nullable(),
})
export type Submission = z.infer<typeof submissionSchema>
export const submissionAnswer = envelope(submissionSchema)

/** A mail the site sent (or queued). */
export const outboxMailSchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  kind: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  /**
   * Where the mail is (docs/mail.md): queued (waiting or being retried), sent (with the mail service's id), failed
   * (with the reason: a code, never personal data). Optional: a backend that does not say is read from `sent_at`.
   */
  state: z.enum(['queued', 'sent', 'failed']).optional(),
  provider_id: z.string().nullable().optional(),
  failure: z.string().nullable().optional(),
  attempts: z.number().int().nonnegative().optional(),
})
export type OutboxMail = z.infer<typeof outboxMailSchema>
/** `GET api/staff/outbox?page=`: newest first, paged. */
export const outboxAnswer = keysetEnvelope(outboxMailSchema)
/** `GET api/staff/outbox/{id}`: one mail. */
export const outboxMailAnswer = envelope(outboxMailSchema)

/** The switches of a market the console changes. */
export const MARKET_SWITCHES = ['under_maintenance', 'test_ride_inquiry', 'become_a_partner', 'work_with_us'] as const
export type MarketSwitch = (typeof MARKET_SWITCHES)[number]

export const marketSwitchesSchema = z.object({
  country: z.string(),
  name: z.string(),
  locales: z.array(z.string()),
  under_maintenance: z.boolean(),
  test_ride_inquiry: z.boolean(),
  become_a_partner: z.boolean(),
  work_with_us: z.boolean(),
})
export type MarketSwitches = z.infer<typeof marketSwitchesSchema>
/** `GET api/staff/markets`. */
export const marketListAnswer = envelope(z.array(marketSwitchesSchema))
/** `POST api/staff/markets/{country}`: the switches to change (recorded as a staff event). */
export const marketChangeRequest = z
  .object(
    Object.fromEntries(MARKET_SWITCHES.map((name) => [name, z.boolean().optional()])) as Record<
      MarketSwitch,
      z.ZodOptional<z.ZodBoolean>
    >,
  )
  .strict()
export const marketAnswer = envelope(marketSwitchesSchema)

/** `POST api/staff/events`: something staff did at the edge (a cache purge), recorded with who and when. */
export const staffEventRequest = z.object({ action: z.enum(['cache_purged']), target: requiredText(80) })

/** A staff event as `GET api/staff/events?target=` answers it (a market's history on the markets page). */
export const staffEventSchema = z.object({
  action: z.string(),
  target: z.string(),
  detail: z.string(),
  staff_name: z.string(),
  at: z.string(),
})
export const staffEventsAnswer = envelope(z.array(staffEventSchema))

// Orders (editors: docs/decisions/049)

/** An order in the console's list: whose, where, how much, where it stands. */
export const staffOrderSummarySchema = z.object({
  code: z.string().regex(/^[A-Za-z0-9-]{3,40}$/),
  market: z.string(),
  status: orderStatusSchema,
  payment_state: paymentStateSchema,
  payment_method: z.string(),
  currency: z.string(),
  total: z.number().int(),
  /** Confirmed by the provider, in minor units. */
  refunded: z.number().int().nonnegative(),
  email: z.string(),
  placed_at: z.string(),
})
export type StaffOrderSummary = z.infer<typeof staffOrderSummarySchema>
/** `GET api/staff/orders?site=&status=&from=&to=&page=`: newest first, paged. */
export const staffOrderListAnswer = keysetEnvelope(staffOrderSummarySchema)

/** Something done to an order, by a staff member (or the provider: `staff_name` null), with when. */
export const orderActionSchema = z.object({
  action: z.enum(['marked_paid', 'shipped', 'cancelled', 'refund_requested', 'refund_confirmed']),
  staff_name: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: z.string(),
})
export type OrderAction = z.infer<typeof orderActionSchema>

/** A refund staff asked for: pending until the provider's webhook confirms it. */
export const orderRefundSchema = z.object({
  id: z.number().int(),
  amount: z.number().int().positive(),
  state: z.enum(['pending', 'refunded']),
  staff_name: z.string().nullable(),
  created_at: z.string(),
  confirmed_at: z.string().nullable(),
})

/**
 * `GET api/staff/orders/{code}`: the order as its customer sees it, with its payment's id at the provider, the
 * carrier, the refunds, what staff did (`actions`) and who the customer is.
 */
export const staffOrderSchema = orderSchema.extend({
  email: z.string(),
  payment_id: z.string().nullable(),
  carrier: z.string().nullable(),
  refunded: z.number().int().nonnegative(),
  refunds: z.array(orderRefundSchema),
  actions: z.array(orderActionSchema),
})
export type StaffOrder = z.infer<typeof staffOrderSchema>
export const staffOrderAnswer = envelope(staffOrderSchema)

/** Where the customer's mails about an order link to (`{market}`, `{code}`): as `POST api/payments/events` takes it. */
const orderLink = z.object({ link_template: z.string().max(300) })

/** `POST api/staff/orders/{code}/paid`: a bank transfer arrived; `amount` (minor units) must be the order's total. */
export const markPaidRequest = orderLink.extend({ amount: z.number().int().positive() })
/** `POST api/staff/orders/{code}/ship`: the carrier and its tracking number; the customer gets a mail. */
export const shipRequest = orderLink.extend({
  carrier: z.enum(CARRIERS),
  tracking_code: z.string().regex(/^[A-Za-z0-9-]{4,40}$/, 'tracking_code'),
})
/** `POST api/staff/orders/{code}/cancel`: an unpaid order. */
export const cancelRequest = z.object({})
/** `POST api/staff/orders/{code}/refunds`: part or all of what was paid and not yet refunded (minor units). */
export const refundRequest = z.object({ amount: z.number().int().positive() })
/**
 * What `POST …/refunds` answers: the refund recorded as pending, with the key the Worker gives the provider and the
 * payment to refund there; the provider's webhook (`payment.refunded`) confirms it.
 */
export const refundAnswer = envelope(
  orderRefundSchema.extend({ idempotency_key: z.string(), payment_id: z.string(), currency: z.string() }),
)
/**
 * The codes of an order action's 409 (its message says it in words): the order's state does not allow it
 * (`order_state`), the amount is not the total due (`amount_due`), or above what may still be refunded
 * (`refund_too_large`).
 */
export const ORDER_ACTION_REFUSALS = ['order_state', 'amount_due', 'refund_too_large'] as const
