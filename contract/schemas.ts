import { z } from 'zod'

/**
 * The upstream contract (docs/api.md) as zod schemas, shared by the embedded API (which validates what it answers)
 * and the upstream client (which validates what it receives: an answer that fails is an upstream failure).
 */

/** Backends written in PHP often send 0/1 for booleans; both mean the same here. */
const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1)])
    .transform(Boolean)
    .default(fallback)

/** A third-party integration switched on per site, with the id it needs. */
const integration = <K extends 'app_id' | 'key' | 'id'>(idKey: K) =>
  z
    .object({ integrate: flag(false) })
    .extend({ [idKey]: z.string().nullish() } as Record<K, z.ZodOptional<z.ZodNullable<z.ZodString>>>)
    .nullish()

/**
 * An ISO 4217 currency code (`EUR`, `CHF`, `USD`…): the currency of a site's prices and of an order. Amounts in it are
 * whole numbers of its minor unit (cents; none for JPY), whose exponent Intl knows.
 */
export const currencyCode = z.string().regex(/^[A-Z]{3}$/)

export const regionSchema = z.enum(['africa', 'americas', 'asia', 'europe', 'oceania'])

/**
 * A market's VAT: rate in basis points (or null: worked out at checkout), whether prices include it, and, for a null
 * rate, the rate of each region (`by_region`: uppercase region code → basis points; US: the state's sales tax), taken
 * from the delivery address's region (home) or the pick-up dealer's.
 */
export const vatSchema = z
  .object({
    rate: z.number().int().min(0).max(10_000).nullable(),
    included: z.boolean(),
    by_region: z.record(z.string().regex(/^[A-Z0-9]{1,3}$/), z.number().int().min(0).max(10_000)).optional(),
  })
  .default({ rate: null, included: true })

/** A market's home delivery: its price, the subtotal from which it is free, and the days it takes. */
export const shippingSchema = z.object({
  price: z.number().int().min(0),
  free_from: z
    .number()
    .int()
    .min(0)
    .nullish()
    .transform((v) => v ?? null),
  days: z.tuple([z.number().int().min(0).max(90), z.number().int().min(0).max(90)]).refine(([min, max]) => min <= max),
})

/** Whether an IBAN's check digits are right (ISO 13616: the rearranged number modulo 97 is 1). */
export function ibanIsValid(iban: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))
  let rest = 0
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97
  return rest === 1
}

/** A bank account to pay a transfer into; the IBAN and BIC are kept without spaces, in capitals. */
export const bankAccountSchema = z.object({
  beneficiary: z.string().trim().min(1).max(200),
  iban: z
    .string()
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .refine(ibanIsValid),
  bic: z
    .string()
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/)),
  bank: z.string().trim().min(1).max(200).nullish(),
})
export type BankAccount = z.infer<typeof bankAccountSchema>

export const siteSettingsSchema = z.object({
  under_maintenance: flag(false),
  test_ride_inquiry: flag(true),
  become_a_partner: flag(true),
  work_with_us: flag(true),
  facebook_pixel_code: z.string().nullish(),
  google_analytics: integration('app_id'),
  google_tag_manager: z.string().nullish(),
  intercom: integration('app_id'),
  microsoft_clarity: integration('key'),
  // Who receives the market's lead forms is the backend's business (`formRecipientsSchema`): never in a site record,
  // which the public `/api/sites` answers and the Worker caches.
  /**
   * Whether the market's whistleblower channel takes anonymous reports (EU Directive 2019/1937, art. 6(2), leaves it
   * to each country). Off: every report carries a name and a way to reach the reporter.
   */
  whistleblower_anonymous: flag(true),
  /**
   * The national authority's external reporting channel the whistleblower page names (`{ name, url }`, https), or none:
   * the page then points to the competent authorities in general. A malformed value is none, never a broken site record.
   */
  whistleblower_external_channel: z
    .object({
      name: z.string().trim().min(1).max(200),
      url: z
        .string()
        .max(500)
        .regex(/^https:\/\/[^\s"'<>]+$/),
    })
    .nullish()
    .catch(null),
  /** Whether the market sells online (add to cart, checkout). Off, or missing: product pages point to dealers only. */
  sells_online: flag(false),
  /**
   * The market's VAT (or sales tax): `rate` in basis points (2200 = 22 %), or null when it depends on the delivery
   * address (US sales tax: "calculated at checkout"); `included`: whether the market's prices already include it (EU,
   * CH, IL, AE) or it is added on top (US). A malformed value counts as "included at an unknown rate".
   */
  vat: vatSchema.catch({ rate: null, included: true }),
  /**
   * Home delivery: `price` in minor units of the site's currency, free from `free_from` (a subtotal, or never when
   * null), arriving in `days` [min, max] working days. Null: no delivery estimate is shown.
   */
  shipping: shippingSchema.nullish().catch(null),
  /**
   * The ways to pay checkout offers in the market (the contract's `PAYMENT_METHODS`, contract/checkout-schemas.ts),
   * in the order shown. Missing or malformed: card and PayPal. `bank_transfer` counts only with `bank_transfer` below
   * (`paymentMethodsOf`).
   */
  payment_methods: z
    .array(z.enum(['card', 'paypal', 'bank_transfer']))
    .min(1)
    .default(['card', 'paypal'])
    .catch(['card', 'paypal']),
  /**
   * The account a bank transfer is paid into: beneficiary, IBAN (checked), BIC and the bank's name. A pending
   * bank-transfer order shows it with the amount and the order code as the reference. Malformed or missing: none, and
   * the market offers no bank transfer.
   */
  bank_transfer: bankAccountSchema.nullish().catch(null),
})

/** The market's ways to pay: its `payment_methods`, without a bank transfer it has no account for. */
export function paymentMethodsOf(
  settings: Pick<SiteSettings, 'payment_methods' | 'bank_transfer'>,
): SiteSettings['payment_methods'] {
  return settings.payment_methods.filter((method) => method !== 'bank_transfer' || Boolean(settings.bank_transfer))
}

export const seoRecordSchema = z.object({
  meta_name: z.string().nullish(),
  meta_description: z.string().nullish(),
  meta_keywords: z.string().nullish(),
  page_title: z.string().nullish(),
  og_title: z.string().nullish(),
  og_description: z.string().nullish(),
  og_image: z.string().nullish(),
  og_image_alt: z.string().nullish(),
  model_id: z.union([z.number(), z.string()]),
  model_type: z.string(),
})

const localeCode = z.string().regex(/^[a-z]{2}$/)

/** pageLinks: a page key → its slug (`/{country}-{locale}/{slug}`). */
const pageLinksSchema = z.record(z.string(), z.string().regex(/^[a-z0-9-]+$/))

/** A same-site path (`/images/x.svg`, `/it-it`), never `//elsewhere`: pages link and redirect to these. */
export const sitePath = z.string().regex(/^\/(?![/\\])[^\s]*$/)

export const siteSchema = z.object({
  id: z.number().int().optional(),
  slug: z.string().regex(/^[a-z]{2,3}$/),
  country: z.object({ name: z.string(), country_code: z.string(), region: regionSchema }),
  locales: z.array(localeCode).min(1),
  /** Same-site paths only (`/it-it`, never `//elsewhere`): the Worker redirects to them. */
  urls: z.array(z.object({ locale_code: localeCode, url: sitePath })),
  /** The site's page slugs by pageLinks key: every locale's unless `pageLinksByLocale` names the locale's own. */
  pageLinks: pageLinksSchema.default({}),
  /**
   * The slugs of each locale in its own language (`{ "fr": { "test-drive": "essai" } }`), over `pageLinks` key by key.
   * Optional: a client that knows only `pageLinks` keeps working with the site-wide slugs (docs/api.md).
   */
  pageLinksByLocale: z.record(localeCode, pageLinksSchema).default({}).catch({}),
  seo: seoRecordSchema.nullish(),
  settings: siteSettingsSchema.default(siteSettingsSchema.parse({})),
  /** Where the market's dealer locator measures from when the visitor's own position is not known. */
  centre: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).nullish(),
  /** The currency of the market's prices (ISO 4217); the token and its place are how the market writes it. */
  currency: currencyCode,
  default_currency_token: z
    .string()
    .min(1)
    .nullish()
    .transform((v) => v ?? '$'),
  default_currency_place: z
    .enum(['left', 'right'])
    .nullish()
    .transform((v) => v ?? 'left'),
})

export type Messages = { [key: string]: string | Messages }
export const messagesSchema: z.ZodType<Messages> = z.lazy(() =>
  z.record(z.string(), z.union([z.string(), messagesSchema])),
)

export const menuProductSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  tagline: z.string().default(''),
  image: z.string().nullish(),
  type: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }),
  /** The "from" price in the caller's market, in minor units (as in the product list): cards show it. */
  price: z.number().int().min(0).optional(),
})

export const featureSchema = z.object({ key: z.string(), name: z.string(), enabled: flag(true) })

export const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), text: z.string() }),
  z.object({ type: z.literal('paragraph'), text: z.string() }),
  z.object({ type: z.literal('list'), items: z.array(z.string()) }),
])

export const contentPageSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  title: z.string(),
  summary: z.string().default(''),
  blocks: z.array(contentBlockSchema),
})

export const newsSummarySchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string().default(''),
  image: z.string().nullish(),
  published_at: z.string(),
})

export const pageMetaSchema = z.object({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1),
  total: z.number().int().min(0),
})

/**
 * A keyset page's meta (docs/decisions/068): how many a page holds and where the next page starts, an opaque cursor
 * to send back as `cursor` (null: this page is the last).
 */
export const cursorMetaSchema = z.object({
  per_page: z.number().int().min(1),
  next_cursor: z.string().max(120).nullable(),
})

/** A list's meta: pages by number (`page`, `total`, as the original) or, where the backend answers a cursor, by keyset. */
export const listMetaSchema = z.union([pageMetaSchema, cursorMetaSchema])

/** `POST api/auth/login`: the only answer without the `data` envelope, as the original. */
export const loginAnswer = z.object({ access_token: z.string().min(20), expires_at: z.string() })

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  phone: z.string().nullish(),
  locale: z.string().nullish(),
  created_at: z.string(),
  /**
   * Whether the customer confirmed the address with the mailed link (docs/api.md "Creating an account"). An account
   * whose address is not confirmed may log in but not buy; a backend that does not say counts as unconfirmed.
   */
  email_confirmed: flag(false),
})

/** `{ data: … }`: the envelope of every answer but the login's. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data })
export const pagedEnvelope = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMetaSchema })
/** A list paged by number or by keyset, as the backend answers (`listMetaSchema`). */
export const listEnvelope = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: listMetaSchema })
/** A list paged by keyset only: the console's lists, the project's own (docs/decisions/068). */
export const keysetEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: cursorMetaSchema })

export const siteAnswer = envelope(siteSchema)
export const sitesAnswer = envelope(z.array(siteSchema))
export const messagesAnswer = envelope(messagesSchema)
export const menuAnswer = envelope(z.array(menuProductSchema))
export const featuresAnswer = envelope(z.array(featureSchema))
export const seoAnswer = envelope(seoRecordSchema)
export const contentPageAnswer = envelope(contentPageSchema)
export const newsListAnswer = pagedEnvelope(newsSummarySchema)
export const userAnswer = envelope(userSchema)

export type Site = z.infer<typeof siteSchema>
export type SiteSettings = z.infer<typeof siteSettingsSchema>
export type SeoRecord = z.infer<typeof seoRecordSchema>
export type CurrencyCode = z.infer<typeof currencyCode>
export type Region = z.infer<typeof regionSchema>
export type MenuProduct = z.infer<typeof menuProductSchema>
export type Feature = z.infer<typeof featureSchema>
export type ContentBlock = z.infer<typeof contentBlockSchema>
export type ContentPage = z.infer<typeof contentPageSchema>
export type NewsSummary = z.infer<typeof newsSummarySchema>
export type PageMeta = z.infer<typeof pageMetaSchema>
export type CursorMeta = z.infer<typeof cursorMetaSchema>
export type ListMeta = z.infer<typeof listMetaSchema>
export type User = z.infer<typeof userSchema>
