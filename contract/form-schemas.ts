import { z } from 'zod'
import {
  emailSchema,
  isCalendarDate,
  optionalText,
  personName,
  requiredPhoneSchema,
  requiredText,
  text,
  ticked,
} from './fields'
import { envelope } from './schemas'

/**
 * The lead forms' half of the upstream contract (docs/api.md "Lead forms"): book a test ride, become a dealer or a
 * distributor, apply for a job, contact the brand. The input schemas are shared by the Worker's forms and the embedded
 * API; their messages are the keys of the translated `validation.*` texts.
 */

/** What the API stores a submission as. */
export const SUBMISSION_KINDS = ['test_ride', 'dealer', 'distributor', 'job', 'contact'] as const
export type SubmissionKind = (typeof SUBMISSION_KINDS)[number]

/**
 * The key of one filled-in form (the random id of its signed form token): the same key sent twice stores one
 * submission and answers the first one's reference (a double click, a refresh after the POST).
 */
export const submissionKey = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, 'invalid')

/** A submission's reference as the API answers it (`TR-4K7M-Q2XD`): what the visitor quotes. */
export const REFERENCE_FORMAT = /^[A-Z0-9][A-Z0-9-]{5,39}$/

const slugChoice = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[a-z0-9-]{1,80}$/, message)
const consent = ticked('consent')

/** A calendar day, `YYYY-MM-DD`. */
const day = requiredText(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date')
  .refine(isCalendarDate, 'date')

/** A lead form's recipient address, or none. */
const recipient = z.string().email().max(254).nullish()

/**
 * Who receives a market's lead forms, as the backend keeps it with the market (the embedded API: `form_recipients` in
 * `sites.settings`): `sales` (test rides, besides the chosen dealer), `partner` (dealer and distributor
 * applications), `jobs`, `contact`. One that is missing falls back to the international site's. The backend's own:
 * no site record carries it (docs/api.md "Recipients").
 */
export const formRecipientsSchema = z
  .object({ sales: recipient, partner: recipient, jobs: recipient, contact: recipient })
  .partial()
  .nullish()
  .catch(null)
export type FormRecipients = NonNullable<z.infer<typeof formRecipientsSchema>>

/** The parts of a day a test ride may be asked for. */
export const PARTS_OF_DAY = ['morning', 'afternoon'] as const
/** How many days ahead a test ride may be asked for (tomorrow is the first). */
export const TEST_RIDE_DAYS_AHEAD = 60

/** The first and the last day a test ride may be asked for on `today` (UTC): tomorrow, and 60 days after today. */
export function testRideWindow(today: Date = new Date()): { first: string; last: string } {
  const dayAfter = (days: number) =>
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days))
      .toISOString()
      .slice(0, 10)
  return { first: dayAfter(1), last: dayAfter(TEST_RIDE_DAYS_AHEAD) }
}

/** The weekday of a calendar day, Monday 0 … Sunday 6 (the order of a dealer's `hours`). */
export const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7

/** `POST api/forms/test-ride`: a model the market sells, a dealer of the market that offers test rides, a day it is open. */
export const testRideRequest = z.object({
  submission_key: submissionKey,
  product: slugChoice('model'),
  dealer: slugChoice('dealer'),
  date: day.refine((date) => {
    const { first, last } = testRideWindow()
    return date >= first && date <= last
  }, 'date_window'),
  part_of_day: z.enum(PARTS_OF_DAY, { error: 'part_of_day' }),
  first_name: personName(80),
  last_name: personName(80),
  email: emailSchema,
  phone: requiredPhoneSchema,
  message: optionalText(2000, 'many'),
  consent,
})

/** What a dealer applicant's shop does. */
export const SHOP_SERVICES = ['sales', 'workshop', 'rental', 'test_rides', 'e_bike_service'] as const
/** A distributor applicant's yearly volume, in bicycles. */
export const YEARLY_VOLUMES = ['under_100', '100_500', '500_2000', 'over_2000'] as const

/** A website as people write it (`www.shop.it`, `https://shop.it/bikes`), stored with its scheme. */
const website = z
  .union([
    text(200).regex(/^$|^(https?:\/\/)?[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(\/\S*)?$/iu, 'website'),
    z.null(),
  ])
  .optional()
  .transform((value) => (value ? (/^https?:\/\//i.test(value) ? value : `https://${value}`) : null))

/** The company part of both partner applications. */
const company = {
  submission_key: submissionKey,
  company_name: requiredText(160),
  registration_number: requiredText(40).regex(/^[\p{L}\p{N}][\p{L}\p{N} ./-]{3,39}$/u, 'registration'),
  address_line: requiredText(160),
  postal_code: requiredText(12).regex(/^[\p{L}\p{N}][\p{L}\p{N} -]{1,10}$/u, 'postal_code'),
  city: requiredText(80),
  country_code: z
    .string({ error: 'country' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'country'),
  website,
  contact_name: personName(120),
  email: emailSchema,
  phone: requiredPhoneSchema,
  message: optionalText(3000, 'many'),
  consent,
}

/** A checkbox group as a form posts it (one value, several, or none) or JSON's list. */
const choices = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .union([z.array(z.string()), z.string()], { error: message })
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(
      z
        .array(z.enum(values, { error: message }))
        .min(1, message)
        .max(values.length, message),
    )
    .transform((list) => [...new Set(list)])

/** `POST api/forms/partner` with `kind: dealer`: a shop that wants to sell the brand. */
export const dealerApplication = z.object({
  ...company,
  kind: z.literal('dealer'),
  services: choices(SHOP_SERVICES, 'services'),
  brands: requiredText(500, 'many'),
})

/** `POST api/forms/partner` with `kind: distributor`: a company that wants to distribute the brand in a territory. */
export const distributorApplication = z.object({
  ...company,
  kind: z.literal('distributor'),
  territory: requiredText(300, 'many'),
  yearly_volume: z.enum(YEARLY_VOLUMES, { error: 'volume' }),
})

export const partnerApplication = z.discriminatedUnion('kind', [dealerApplication, distributorApplication])

/** The types a CV may have, recognised from its first bytes; and its largest size. */
export const CV_TYPES = ['pdf', 'docx', 'odt'] as const
export type CvType = (typeof CV_TYPES)[number]
export const CV_MAX_BYTES = 5 * 1024 * 1024

/** Where the Worker keeps a CV in R2: a random key under `cv/`, which no public URL reaches. */
export const CV_KEY_FORMAT = /^cv\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The job form's fields, as the visitor posts them (the CV is checked and stored by the Worker). */
export const jobApplicationFields = z.object({
  submission_key: submissionKey,
  /** An open position's id, or empty for an open application. */
  position: z
    .union([z.literal(''), z.null(), z.coerce.number({ error: 'position' }).int('position').positive('position')], {
      error: 'position',
    })
    .optional()
    .transform((value) => (typeof value === 'number' ? value : null)),
  name: personName(120),
  email: emailSchema,
  phone: requiredPhoneSchema,
  cover_letter: optionalText(5000, 'many'),
  consent,
})

/** `POST api/forms/job`: the fields and the CV the Worker stored. */
export const jobApplication = jobApplicationFields.extend({
  cv: z.object({
    key: z.string().regex(CV_KEY_FORMAT),
    type: z.enum(CV_TYPES),
    size: z.number().int().min(1).max(CV_MAX_BYTES),
    name: z.string().max(200),
  }),
})

/** What a contact message is about. */
export const CONTACT_TOPICS = ['product', 'order', 'warranty', 'dealer', 'press', 'other'] as const

/** `POST api/forms/contact`. */
export const contactMessage = z.object({
  submission_key: submissionKey,
  topic: z.enum(CONTACT_TOPICS, { error: 'topic' }),
  name: personName(120),
  email: emailSchema,
  order_code: z
    .union([text(40).regex(/^$|^[A-Za-z0-9-]{3,40}$/, 'order_code'), z.null()])
    .optional()
    .transform((value) => value || null),
  message: requiredText(5000, 'many'),
  consent,
})

/**
 * The answer to every form: the submission's reference, and whether this call stored it (201, `created: true`) or the
 * key was already sent (200, `created: false`: the first one's reference).
 */
export const referenceAnswer = envelope(
  z.object({ reference: z.string().regex(REFERENCE_FORMAT), created: z.boolean().optional() }),
)

/** An open position of a market (`GET api/jobs`), in the caller's language. */
export const jobSchema = z.object({
  id: z.number().int().positive(),
  title: z.string().min(1),
  place: z.string(),
  summary: z.string().default(''),
})
export const jobsAnswer = envelope(z.array(jobSchema))

export type TestRideRequest = z.infer<typeof testRideRequest>
export type PartnerApplication = z.infer<typeof partnerApplication>
export type JobApplication = z.infer<typeof jobApplication>
export type ContactMessage = z.infer<typeof contactMessage>
export type Job = z.infer<typeof jobSchema>
