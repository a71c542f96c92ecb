import { z } from 'zod'
import { addressFormatOf, isPhoneOf, normalPostcode } from './address-formats'
import { TOKEN_FORMAT } from './tokens'
import { emailSchema, isCalendarDate, optionalText, personName, phoneSchema, requiredText, ticked } from './fields'
import { submissionKey } from './form-schemas'
import { currencyCode, envelope, listEnvelope, userSchema } from './schemas'

/**
 * The account half of the upstream contract (docs/api.md): password reset, addresses, bikes and orders. Input
 * schemas are shared by the Worker's forms and the embedded API; their messages are the keys of the translated
 * `validation.*` texts, so one check gives both sides the same answer.
 */

/** `POST api/auth/login`'s body, as the login form sends it. */
export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'required' }).min(1, 'required').max(200, 'too_long'),
})

/** The password rules the update-password page states: 10 to 200 characters, letters and something else. */
export const PASSWORD_MIN = 10
export const newPasswordSchema = z
  .string({ error: 'required' })
  .min(1, 'required')
  .min(PASSWORD_MIN, 'password_rules')
  .max(200, 'too_long')
  .regex(/\p{L}/u, 'password_rules')
  .regex(/[^\p{L}]/u, 'password_rules')

const resetToken = z.string().regex(TOKEN_FORMAT)
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)
const isoTime = z.string().min(10)

export const forgotPasswordRequest = z.object({
  email: emailSchema,
  /**
   * Where the mailed link points: the API appends the token. HTTPS (plain HTTP only on this machine). A backend of
   * the brand's also checks the host against its own sites; the embedded API is only ever called by this Worker.
   */
  link_base: z
    .string()
    .url()
    .max(300)
    .regex(/^(https:\/\/[^/]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)\/[a-z]{2,3}-[a-z]{2}\/update-password\/$/),
})
export const resetPasswordRequest = z.object({ token: resetToken, password: newPasswordSchema })
export const resetTokenAnswer = envelope(z.object({ email: z.string(), expires_at: isoTime }))
export const resetPasswordAnswer = envelope(z.object({ user_id: z.number().int() }))

/**
 * Where a mailed confirmation link points: `{token}` stands for the token, and a `redirect` (a same-site path,
 * percent-encoded) may follow, so the visitor comes back where they were going. HTTPS (plain HTTP only on this
 * machine), into a market's `confirm-email` page.
 */
export const confirmLinkTemplate = z
  .string()
  .max(800)
  .regex(
    /^(https:\/\/[^/?#]+|http:\/\/(127\.0\.0\.1|localhost)(:\d+)?)\/[a-z]{2,3}-[a-z]{2}\/confirm-email\/\{token\}(\?redirect=[A-Za-z0-9%._~-]{1,600})?$/,
  )

/** The names, the address and the password of a new account, as the sign-up form sends them (the consent ticked). */
export const registrationFields = z.object({
  first_name: personName(80),
  last_name: personName(80),
  email: emailSchema,
  password: newPasswordSchema,
  consent: ticked('register_consent'),
})

/**
 * `POST api/auth/register`: the fields, the key of the filled-in form (the same key twice is handled once) and the
 * template of the confirmation link.
 */
export const registerRequest = registrationFields.extend({
  submission_key: submissionKey,
  link_template: confirmLinkTemplate,
  /**
   * Created inside checkout: the account exists when the answer comes (the same `202`), so the Worker logs the
   * visitor in with it at once (docs/decisions/057). A backend that ignores it leaves the visitor to log in later.
   */
  sign_in: z.boolean().optional(),
})
/**
 * `PUT api/account/profile`: what a customer changes of their own record (docs/decisions/062): the names and the
 * phone. The e-mail is the login and stays as it is (a change would need its own confirmation).
 */
export const profileInput = z.object({
  first_name: personName(80),
  last_name: personName(80),
  phone: phoneSchema.optional().transform((value) => value || null),
})
export type ProfileInput = z.infer<typeof profileInput>

/** The password a customer types to prove it is them (any length: it is compared, not set). */
const currentPassword = z.string({ error: 'required' }).min(1, 'required').max(200, 'too_long')

/**
 * `POST api/account/password` (with the bearer's token): the current password, and the new one under the reset's
 * rules. Every other token of the account is revoked; the bearer's stays.
 */
export const passwordChangeRequest = z.object({ current_password: currentPassword, password: newPasswordSchema })
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequest>

/**
 * `POST api/account/erase` (with the bearer's token): the account's password, as the confirmation that its owner wants
 * it gone. The person's data is erased; the orders stay, with the billing data they carry (docs/decisions/062).
 */
export const accountErasureRequest = z.object({ password: currentPassword })

/** `POST api/auth/resend-confirmation` (with the bearer's token). */
export const resendConfirmationRequest = z.object({ link_template: confirmLinkTemplate })
/** `POST api/auth/confirm-email`. */
export const confirmEmailRequest = z.object({ token: resetToken })
/** A confirmation link's account (`GET api/auth/confirm-email/{token}`), and the answer of a confirmation. */
export const confirmationAnswer = envelope(
  z.object({ user_id: z.number().int(), email: z.string(), expires_at: isoTime }),
)

/** The answer of calls that only acknowledge (logout, forgot password). */
export const acknowledgedAnswer = z.object({ message: z.string() })

/** A refusal (400, 409, 410, 422, 429): a message, an optional machine `code` and per-field message keys. */
export const rejectionSchema = z.object({
  message: z.string().default(''),
  code: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
})

/** An address's names, street and town: their rules are the same in every country. */
const personAndStreet = {
  first_name: requiredText(80),
  last_name: requiredText(80),
  company: optionalText(120),
  line1: requiredText(120),
  line2: optionalText(120),
  city: requiredText(80),
}

/** A value of the address as the country's check reads it: a text, whether or not its own field's check passed. */
const written = (value: unknown) => (typeof value === 'string' ? value.trim() : '')

/**
 * The country's rules over an address's fields (contract/address-formats.ts), as `[field, message]` pairs: the
 * postcode required and in the country's form where it has one; the province or state where the country asks for
 * one; the phone one of the country's or in international form.
 */
function countryIssues(address: unknown): Array<[string, string]> {
  if (typeof address !== 'object' || address === null) return []
  const value = (field: string) => written((address as Record<string, unknown>)[field])
  // A country not in the table, or not a country at all (its own message), gets the fallback's rules.
  const country = value('country_code').toUpperCase()
  const format = addressFormatOf(country)
  const issues: Array<[string, string]> = []
  if (format.postcode) {
    const postcode = normalPostcode(country, value('postal_code'))
    if (!postcode) issues.push(['postal_code', 'required'])
    else if (!format.postcode.pattern.test(postcode)) issues.push(['postal_code', 'postal_code'])
  }
  const region = value('region')
  if (format.region && !region && format.region.required) issues.push(['region', 'required'])
  else if (format.region?.pattern && region && !format.region.pattern.test(region.toUpperCase()))
    issues.push(['region', format.region.message ?? 'invalid'])
  const phone = value('phone')
  if (phone && /^\+?[0-9 ()./-]{6,30}$/.test(phone) && !isPhoneOf(country, phone)) issues.push(['phone', 'phone'])
  return issues
}

/** The country's rules as the schemas' check (run once every field passed its own). */
function checkCountry(address: unknown, ctx: z.RefinementCtx): void {
  for (const [field, message] of countryIssues(address)) ctx.addIssue({ code: 'custom', path: [field], message })
}

/**
 * An address as its country writes it: the postcode trimmed and in its form (none, an empty string, where the country
 * has none: the UAE), the province's code upper-cased, nothing for a province the country does not ask for.
 */
function asCountryWrites<T extends { country_code: string; postal_code: string | null; region: string | null }>(
  address: T,
): T & { postal_code: string } {
  const format = addressFormatOf(address.country_code)
  const postal_code = format.postcode ? normalPostcode(address.country_code, address.postal_code ?? '') : ''
  const region = !format.region
    ? null
    : format.region.pattern
      ? (address.region?.toUpperCase() ?? null)
      : address.region
  return { ...address, postal_code, region }
}

/**
 * An address's country and the parts its country rules: the postcode, the province or state, the phone. Checked
 * apart from the names and the street, so a wrong postcode is told beside an empty street (a check over the whole
 * address would wait for every field to pass).
 */
const countryParts = z
  .object({
    // The country's rules (address-formats.ts) decide whether a postcode and a province are asked for and how they read.
    postal_code: optionalText(12),
    region: optionalText(80),
    country_code: z
      .string({ error: 'required' })
      .trim()
      .toUpperCase()
      .min(1, 'required')
      .regex(/^[A-Z]{2}$/, 'country'),
    phone: phoneSchema.optional().transform((value) => value || null),
  })
  .superRefine(checkCountry)
  .transform(asCountryWrites)

/** A postal address as a form or the API receives it, without a label (an order's, a checkout's). */
export const postalAddressInput = z.intersection(z.object(personAndStreet), countryParts)

/** An address as a form or the API receives it. */
export const addressInput = z.intersection(
  z.object({
    label: optionalText(40),
    ...personAndStreet,
    is_default: z
      .union([z.boolean(), z.literal('on'), z.literal('1'), z.literal('0'), z.literal('')])
      .optional()
      .transform((value) => value === true || value === 'on' || value === '1'),
  }),
  countryParts,
)

/** A postal address's fields, in the one order the contract lists them: stored, compared and digested in it. */
export const POSTAL_ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'line1',
  'line2',
  'postal_code',
  'city',
  'region',
  'country_code',
  'phone',
] as const

export const postalAddressSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  company: z.string().nullish(),
  line1: z.string(),
  line2: z.string().nullish(),
  postal_code: z.string(),
  city: z.string(),
  region: z.string().nullish(),
  country_code: z.string(),
  phone: z.string().nullish(),
})
export const addressSchema = postalAddressSchema.extend({
  id: z.number().int(),
  label: z.string().nullish(),
  is_default: z.boolean(),
})

/** A bike as the registration form or the API receives it. */
export const bikeRegistration = z.object({
  serial_number: z
    .string({ error: 'required' })
    .trim()
    .toUpperCase()
    .min(1, 'required')
    .regex(/^[A-Z0-9]{8,20}$/, 'serial'),
  product_id: z.coerce.number({ error: 'model' }).int('model').positive('model'),
  purchased_on: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date')
    .refine((value) => isCalendarDate(value) && value >= '2000-01-01', 'date')
    .refine((value) => value <= new Date().toISOString().slice(0, 10), 'date_future'),
  dealer_name: optionalText(120),
})

const productRefSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  image: z.string().nullish(),
})

export const bikeSchema = z.object({
  id: z.number().int(),
  serial_number: z.string(),
  product: productRefSchema,
  purchased_on: isoDate,
  dealer_name: z.string().nullish(),
  registered_at: isoTime,
  warranty_ends_on: isoDate,
})

export const orderStatusSchema = z.enum([
  'pending_payment',
  'paid',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
  'refunded',
])
export const paymentStateSchema = z.enum(['pending', 'paid', 'failed', 'refunded'])

export const orderSummarySchema = z.object({
  code: z.string().regex(/^[A-Za-z0-9-]{3,40}$/),
  placed_at: isoTime,
  status: orderStatusSchema,
  /** Amounts are in its minor unit; may differ from the market's currency. */
  currency: currencyCode,
  total: z.number().int(),
  item_count: z.number().int().min(0),
})

/**
 * An order as a table of orders shows it (code, date, status, total): the account overview's latest orders, read
 * without their item count, which no table shows (docs/decisions/084).
 */
export const listedOrderSchema = orderSummarySchema.omit({ item_count: true })

export const orderSchema = orderSummarySchema.extend({
  market: z.string(),
  subtotal: z.number().int(),
  /** The discount code the order was placed with and what it took off the subtotal (docs/decisions/051), or null. */
  discount: z
    .object({ code: z.string(), amount: z.number().int().min(0) })
    .nullish()
    .transform((v) => v ?? null),
  shipping: z.number().int(),
  tax: z.number().int(),
  items: z.array(
    z.object({
      product_id: z.number().int().nullish(),
      name: z.string(),
      /** The variant as written when the order was placed, in that language (`M · Verde salvia`). */
      variant: z.string().nullish(),
      /** The variant's SKU, size and colour key (`colour.{key}` names it in any language), when the line has a SKU. */
      sku: z.string().nullish(),
      size: z.string().nullish(),
      colour: z
        .string()
        .regex(/^[a-z0-9_-]{1,40}$/)
        .nullish()
        .catch(null),
      quantity: z.number().int().min(1),
      unit_price: z.number().int(),
      total: z.number().int(),
    }),
  ),
  billing_address: postalAddressSchema,
  shipping_address: postalAddressSchema.nullish(),
  delivery: z.object({
    method: z.enum(['home', 'pickup']),
    dealer: z.string().nullish(),
    tracking_code: z.string().nullish(),
    /** The carrier's key (contract/carriers.ts): the customer's order links to its tracking page. */
    carrier: z.string().nullish(),
  }),
  payment: z.object({ method: z.string(), state: paymentStateSchema }),
  /** How much of it the provider has refunded (minor units); absent or 0: nothing. */
  refunded: z.number().int().nonnegative().nullish(),
  timeline: z.array(z.object({ status: orderStatusSchema, at: isoTime })),
})

export const profileAnswer = envelope(userSchema)
export const addressesAnswer = envelope(z.array(addressSchema))
export const addressAnswer = envelope(addressSchema)
export const bikesAnswer = envelope(z.array(bikeSchema))
export const bikeAnswer = envelope(bikeSchema)
export const bikeModelsAnswer = envelope(z.array(productRefSchema))
/** `GET api/account/orders`: by page number, or by keyset when the call sends `cursor` and the backend answers one. */
export const ordersAnswer = listEnvelope(orderSummarySchema)
/**
 * `GET api/account/overview?orders=n`: what the account overview shows in one answer (the embedded API's own call,
 * docs/api.md): the bearer's user, their `n` latest orders as its table shows them, their bikes and the count of their
 * cart of the market (the header's). Not their addresses, which the overview only links (docs/decisions/084).
 */
export const overviewAnswer = envelope(
  z.object({
    user: userSchema,
    orders: z.array(listedOrderSchema),
    bikes: z.array(bikeSchema),
    /** The items in the customer's cart of the caller's market (`X-Tenant`): 0 without a cart, null without a market. */
    cart_item_count: z.number().int().nonnegative().nullable(),
  }),
)
export const orderAnswer = envelope(orderSchema)

export type LoginRequest = z.infer<typeof loginRequestSchema>
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>
export type RegisterRequest = z.infer<typeof registerRequest>
export type RegistrationFields = z.input<typeof registrationFields>
export type Rejection = z.infer<typeof rejectionSchema>
export type AddressInput = z.infer<typeof addressInput>
export type Address = z.infer<typeof addressSchema>
export type PostalAddress = z.infer<typeof postalAddressSchema>
export type PostalAddressInput = z.infer<typeof postalAddressInput>
export type BikeRegistration = z.infer<typeof bikeRegistration>
export type Bike = z.infer<typeof bikeSchema>
export type BikeModel = z.infer<typeof productRefSchema>
export type OrderStatus = z.infer<typeof orderStatusSchema>
export type OrderSummary = z.infer<typeof orderSummarySchema>
export type ListedOrder = z.infer<typeof listedOrderSchema>
export type Order = z.infer<typeof orderSchema>
