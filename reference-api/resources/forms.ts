import { Hono } from 'hono'
import type { z } from 'zod'
import {
  contactMessage,
  type FormRecipients,
  formRecipientsSchema,
  jobApplication,
  jobsAnswer,
  partnerApplication,
  type SubmissionKind,
  referenceAnswer,
  testRideRequest,
  weekdayOf,
} from '../../contract/form-schemas'
import { siteSettingsSchema } from '../../contract/schemas'
import { withoutDirectionControls } from '../../contract/direction-controls'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, parseJson, refuse, respond } from '../context'
import { newReference } from '../references'
import { logEvent } from '../log'
import { type Mail, mailTexts, queueSubmissionMail } from '../outbox'

type Texts = Awaited<ReturnType<typeof mailTexts>>
type Market = {
  slug: string
  settings: z.infer<typeof siteSettingsSchema>
  recipients: FormRecipients
  language: string
}

/** A submission's input without its key (each member of a union on its own). */
type WithoutKey<T> = T extends unknown ? Omit<T, 'submission_key'> : never

/** What a notification lists: each field's label key (`forms.field.*`) and its value in the recipient's language. */
type Lines = (t: Texts) => Array<[label: string, value: string | null]>

type Submission = {
  kind: SubmissionKind
  key: string
  name: string
  email: string
  fields: Record<string, unknown>
  fileKey?: string
  /** Who is told besides the market's recipient for the form (the dealer of a test ride). */
  also?: string | null
  lines: Lines
  /** The acknowledgement's body, in the visitor's language. */
  acknowledgement: (t: Texts, reference: string) => string
}

/** The recipient of each kind of submission among the market's `form_recipients`. */
const RECIPIENT: Record<SubmissionKind, keyof FormRecipients> = {
  test_ride: 'sales',
  dealer: 'partner',
  distributor: 'partner',
  job: 'jobs',
  contact: 'contact',
}

/** The first letters of a submission's reference. */
const PREFIX: Record<SubmissionKind, string> = {
  test_ride: 'TR',
  dealer: 'DL',
  distributor: 'DS',
  job: 'JB',
  contact: 'CT',
}

/** The market switch a form needs (docs/api.md): a switched-off form is a 404, as its page. */
const SWITCH: Partial<Record<SubmissionKind, 'test_ride_inquiry' | 'become_a_partner' | 'work_with_us'>> = {
  test_ride: 'test_ride_inquiry',
  dealer: 'become_a_partner',
  distributor: 'become_a_partner',
  job: 'work_with_us',
}

const TEXT_PREFIXES = ['forms.', 'mail.lead_', 'mail.test_ride_'] as const

/**
 * The lead forms of the caller's market (`X-Tenant`): `GET api/jobs` and `POST api/forms/{test-ride, partner, job,
 * contact}`. A submission is stored with the mails it causes, in one batch: a notification to the market's recipient
 * for the form (and, for a test ride, the dealer) in the market's first language, and an acknowledgement to the visitor
 * in theirs (`X-Locale`). Its `submission_key` is unique: the same key again stores and mails nothing and answers the
 * first reference (200 instead of 201).
 */
export const forms = new Hono<ApiEnv>()
  .get('/jobs', async (c) => {
    const site = c.var.tenant ?? 'int'
    const { results } = await c.env.DB.prepare(
      `SELECT j.id, COALESCE(own.title, en.title) AS title, COALESCE(own.place, en.place) AS place,
              COALESCE(own.summary, en.summary, '') AS summary
         FROM jobs j
         LEFT JOIN job_contents own ON own.job_id = j.id AND own.locale = ?2
         LEFT JOIN job_contents en ON en.job_id = j.id AND en.locale = 'en'
        WHERE j.site = ?1 AND j.open = 1 AND COALESCE(own.title, en.title) IS NOT NULL
        ORDER BY j.position, j.id`,
    )
      .bind(site, c.var.locale)
      .all<{ id: number; title: string; place: string; summary: string }>()
    return respond(c, jobsAnswer, { data: results })
  })
  .post('/forms/test-ride', async (c) => {
    const posted = await readSubmission(c, () => 'test_ride', testRideRequest)
    if (posted instanceof Response) return posted
    const { market, key: submission_key, input: request } = posted
    const db = c.env.DB
    const [product, dealer] = await Promise.all([
      db
        .prepare(
          `SELECT p.id FROM products p JOIN product_types t ON t.id = p.type_id AND t.registrable = 1
           JOIN product_prices pr ON pr.product_id = p.id AND pr.site = ?1 WHERE p.slug = ?2`,
        )
        .bind(market.slug, request.product)
        .first<{ id: number }>(),
      db
        .prepare(
          'SELECT name, address, postal_code, city, email, hours FROM dealers WHERE site = ? AND slug = ? AND test_rides = 1',
        )
        .bind(market.slug, request.dealer)
        .first<{
          name: string
          address: string
          postal_code: string | null
          city: string
          email: string | null
          hours: string
        }>(),
    ])
    if (!product) return refuse(c, 422, 'model', 'product')
    if (!dealer) return refuse(c, 422, 'dealer', 'dealer')
    const hours = parseJson<string[][]>(dealer.hours, [])
    if (!hours[weekdayOf(request.date)]?.length) return refuse(c, 422, 'dealer_closed', 'date')
    const productName = (locale: string) => nameOf(c, product.id, locale)
    const [modelForVisitor, modelForMarket] = await Promise.all([
      productName(c.var.locale),
      productName(market.language),
    ])
    const where = `${dealer.name}, ${dealer.address}, ${[dealer.postal_code, dealer.city].filter(Boolean).join(' ')}`
    return store(c, market, {
      kind: 'test_ride',
      key: submission_key,
      name: `${request.first_name} ${request.last_name}`,
      email: request.email,
      fields: request,
      also: dealer.email,
      lines: (t) => [
        ['model', modelForMarket],
        ['dealer', where],
        ['date', longDate(request.date, market.language)],
        ['part_of_day', t(`forms.part_of_day.${request.part_of_day}`)],
        ['first_name', request.first_name],
        ['last_name', request.last_name],
        ['email', request.email],
        ['phone', request.phone],
        ['message', request.message],
      ],
      acknowledgement: (t, reference) =>
        t('mail.test_ride_ack_body', {
          name: request.first_name,
          model: modelForVisitor,
          dealer: where,
          date: longDate(request.date, c.var.locale),
          part_of_day: t(`forms.part_of_day.${request.part_of_day}`),
          reference,
        }),
    })
  })
  .post('/forms/partner', async (c) => {
    const kindOf = (body: unknown) =>
      (body as { kind?: unknown } | undefined)?.kind === 'distributor' ? 'distributor' : 'dealer'
    const posted = await readSubmission(c, kindOf, partnerApplication)
    if (posted instanceof Response) return posted
    const { market, key: submission_key, input: application } = posted
    const specific: Lines =
      application.kind === 'dealer'
        ? (t) => [
            ['services', application.services.map((service) => t(`forms.service.${service}`)).join(', ')],
            ['brands', application.brands],
          ]
        : (t) => [
            ['territory', application.territory],
            ['yearly_volume', t(`forms.volume.${application.yearly_volume}`)],
          ]
    return store(c, market, {
      kind: application.kind,
      key: submission_key,
      name: application.contact_name,
      email: application.email,
      fields: application,
      lines: (t) => [
        ['company_name', application.company_name],
        ['registration_number', application.registration_number],
        ['address_line', application.address_line],
        ['postal_code', application.postal_code],
        ['city', application.city],
        ['country', application.country_code],
        ['website', application.website],
        ['contact_name', application.contact_name],
        ['email', application.email],
        ['phone', application.phone],
        ...specific(t),
        ['message', application.message],
      ],
      acknowledgement: leadAcknowledgement(application.kind, application.contact_name),
    })
  })
  .post('/forms/job', async (c) => {
    const posted = await readSubmission(c, () => 'job', jobApplication)
    if (posted instanceof Response) return posted
    const { market, key: submission_key, input: application } = posted
    const job = application.position === null ? null : await jobTitle(c, market, application.position)
    if (application.position !== null && !job) return refuse(c, 422, 'position', 'position')
    return store(c, market, {
      kind: 'job',
      key: submission_key,
      name: application.name,
      email: application.email,
      fields: application,
      fileKey: application.cv.key,
      lines: (t) => [
        ['position', job ?? t('forms.job.open_application')],
        ['name', application.name],
        ['email', application.email],
        ['phone', application.phone],
        ['cover_letter', application.cover_letter],
        // The CV stays in storage: the notification names it, staff open it in the console.
        [
          'cv',
          t('forms.job.cv_stored', {
            type: application.cv.type.toUpperCase(),
            size: megabytes(application.cv.size, market.language),
          }),
        ],
      ],
      acknowledgement: leadAcknowledgement('job', application.name),
    })
  })
  .post('/forms/contact', async (c) => {
    const posted = await readSubmission(c, () => 'contact', contactMessage)
    if (posted instanceof Response) return posted
    const { market, key: submission_key, input: message } = posted
    return store(c, market, {
      kind: 'contact',
      key: submission_key,
      name: message.name,
      email: message.email,
      fields: message,
      lines: (t) => [
        ['topic', t(`forms.topic.${message.topic}`)],
        ['name', message.name],
        ['email', message.email],
        ['order_code', message.order_code],
        ['message', message.message],
      ],
      acknowledgement: leadAcknowledgement('contact', message.name),
    })
  })

/**
 * A posted submission: its market (404 when the form is not taken there), then its body checked by the form's schema
 * (422 with the fields' messages); the input without its key.
 */
async function readSubmission<S extends z.ZodType<{ submission_key: string }>>(
  c: ApiContext,
  kindOf: (body: unknown) => SubmissionKind,
  schema: S,
): Promise<Response | { market: Market; key: string; input: WithoutKey<z.infer<S>> }> {
  const body = await jsonBody(c)
  const market = await marketOf(c, kindOf(body))
  if (!market) return notFound(c)
  const parsed = schema.safeParse(body)
  if (!parsed.success) return invalid(c, parsed.error)
  const { submission_key, ...input } = parsed.data
  return { market, key: submission_key, input: input as WithoutKey<z.infer<S>> }
}

/** The acknowledgement of the forms without a date: their name, the reference and what happens next. */
const leadAcknowledgement =
  (kind: Exclude<SubmissionKind, 'test_ride'>, name: string) => (t: Texts, reference: string) =>
    t('mail.lead_ack_body', { name, form: t(`forms.${kind}.name`), reference, next: t(`forms.${kind}.next`) })

/**
 * The caller's market when it takes this form: its settings, its recipients (the international site's where it has
 * none) and its first language; null when there is no such market or the form is switched off there.
 */
async function marketOf(c: ApiContext, kind: SubmissionKind): Promise<Market | null> {
  if (!c.var.tenant) return null
  const { results } = await c.env.DB.prepare(
    `SELECT s.slug, s.settings, (SELECT locale FROM site_locales WHERE site_id = s.id ORDER BY position LIMIT 1) AS language
       FROM sites s WHERE s.slug IN (?1, 'int')`,
  )
    .bind(c.var.tenant)
    .all<{ slug: string; settings: string; language: string | null }>()
  const own = results.find((row) => row.slug === c.var.tenant)
  if (!own) return null
  const settings = siteSettingsSchema.safeParse(parseJson(own.settings, {})).data ?? siteSettingsSchema.parse({})
  const toggle = SWITCH[kind]
  if (settings.under_maintenance || (toggle && !settings[toggle])) return null
  const recipientsOf = (row?: { settings: string }) =>
    formRecipientsSchema.parse(parseJson<{ form_recipients?: unknown }>(row?.settings, {}).form_recipients) ?? {}
  const [ownRecipients, fallback] = [recipientsOf(own), recipientsOf(results.find((row) => row.slug === 'int'))]
  const recipients = Object.fromEntries(
    (['sales', 'partner', 'jobs', 'contact'] as const).map((role) => [
      role,
      ownRecipients[role] ?? fallback[role] ?? null,
    ]),
  ) as FormRecipients
  return { slug: own.slug, settings, recipients, language: own.language ?? 'en' }
}

/**
 * Stores a submission and queues its mails in one batch, unless its key was sent before; answers its reference (201),
 * or the first one's (200).
 */
async function store(c: ApiContext, market: Market, submission: Submission): Promise<Response> {
  const db = c.env.DB
  const reference = newReference(PREFIX[submission.kind])
  const [forVisitor, forMarket] = await Promise.all([
    mailTexts(db, c.var.locale, TEXT_PREFIXES),
    market.language === c.var.locale ? null : mailTexts(db, market.language, TEXT_PREFIXES),
  ])
  const mails = [
    ...notifications(
      market,
      submission,
      forMarket ?? forVisitor,
      reference,
      forMarket ? market.language : c.var.locale,
    ),
    acknowledgement(submission, forVisitor, reference, c.var.locale),
  ]
  const insert = db
    .prepare(
      `INSERT INTO form_submissions (reference, submission_key, kind, site, locale, email, fields, file_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (submission_key) DO NOTHING`,
    )
    .bind(
      reference,
      submission.key,
      submission.kind,
      market.slug,
      c.var.locale,
      submission.email,
      JSON.stringify(submission.fields),
      submission.fileKey ?? null,
    )
  await db.batch([insert, ...mails.map((mail) => queueSubmissionMail(db, mail, reference))])
  const stored = await db
    .prepare('SELECT reference FROM form_submissions WHERE submission_key = ?')
    .bind(submission.key)
    .first<string>('reference')
  const created = stored === reference
  if (created && mails.length === 1)
    logEvent('warn', 'form_recipient_missing', { form: submission.kind, market: market.slug })
  return respond(c, referenceAnswer, { data: { reference: stored ?? reference, created } }, created ? 201 : 200)
}

/** The notification to the market's recipient for the form (and the dealer of a test ride), in the market's language. */
function notifications(market: Market, submission: Submission, t: Texts, reference: string, locale: string): Mail[] {
  const recipients = [
    ...new Set([submission.also, market.recipients[RECIPIENT[submission.kind]]].filter((r): r is string => Boolean(r))),
  ]
  const form = t(`forms.${submission.kind}.name`)
  const fields = submission
    .lines(t)
    .filter(([, value]) => value)
    // What the visitor wrote goes in without direction controls: a message may hold them (docs/decisions/028).
    .map(([label, value]) => `${t(`forms.field.${label}`)}: ${withoutDirectionControls(value ?? '')}`)
    .join('\n')
  const subject = t('mail.lead_notice_subject', { form, reference })
  const body = t('mail.lead_notice_body', { form, reference, market: market.slug.toUpperCase(), fields })
  return recipients.map((recipient) => ({ recipient, subject, body, kind: `${submission.kind}_notice`, locale }))
}

/** The acknowledgement to the visitor, in their language. */
function acknowledgement(submission: Submission, t: Texts, reference: string, locale: string): Mail {
  return {
    locale,
    recipient: submission.email,
    subject: t('mail.lead_ack_subject', { form: t(`forms.${submission.kind}.name`), reference }),
    body: submission.acknowledgement(t, reference),
    kind: `${submission.kind}_acknowledgement`,
  }
}

/** An open position's title of the market, in the market's language, or null. */
async function jobTitle(c: ApiContext, market: Market, id: number): Promise<string | null> {
  return c.env.DB.prepare(
    `SELECT COALESCE((SELECT title FROM job_contents WHERE job_id = j.id AND locale = ?3),
                     (SELECT title FROM job_contents WHERE job_id = j.id AND locale = 'en')) AS title
       FROM jobs j WHERE j.id = ?1 AND j.site = ?2 AND j.open = 1`,
  )
    .bind(id, market.slug, market.language)
    .first<string>('title')
}

/** A product's name in a language (English, else its slug, where it has none). */
async function nameOf(c: ApiContext, productId: number, locale: string): Promise<string> {
  const name = await c.env.DB.prepare(
    `SELECT COALESCE((SELECT name FROM product_names WHERE product_id = p.id AND locale = ?2),
                     (SELECT name FROM product_names WHERE product_id = p.id AND locale = 'en'), p.slug) AS name
       FROM products p WHERE p.id = ?1`,
  )
    .bind(productId, locale)
    .first<string>('name')
  return name ?? ''
}

/** A calendar day as a language writes it in full (`martedì 1 dicembre 2026`). */
const longDate = (date: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))

/** A size in megabytes as a language writes it (`1,2 MB`). */
const megabytes = (bytes: number, locale: string) =>
  `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(bytes / 1024 / 1024)} MB`
