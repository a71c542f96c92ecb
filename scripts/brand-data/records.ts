import { z } from 'zod'
import {
  dealerSchema,
  DISCIPLINES,
  FRAME_MATERIALS,
  sizeGuideRowSchema,
  specSchema,
  variantSchema,
} from '../../contract/catalogue-schemas'
import { formRecipientsSchema } from '../../contract/form-schemas'
import { contentBlockSchema, messagesSchema, seoRecordSchema, siteSchema, sitePath } from '../../contract/schemas'

/**
 * The brand's data files (docs/data.md) as the loader reads them: each record is the contract's own shape where the
 * API answers one (a site record, a variant, a spec, a dealer, a content block), keyed by its natural key (a slug, a
 * SKU, a page key) rather than the database's ids, and with what an answer leaves out (every locale's names, every
 * market's price, the stock).
 */

const slug = z.string().regex(/^[a-z0-9-]{1,80}$/)
const locale = z.string().regex(/^[a-z]{2}$/)
const market = z.string().regex(/^[a-z]{2,3}$/)
const byLocale = <T extends z.ZodType>(value: T) => z.record(locale, value)
const amounts = z.record(market, z.number().int().min(0))

/** markets.json: the markets' site records as `api/sites` answers them, and who receives each market's lead forms. */
export const marketFile = z.array(
  siteSchema.omit({ id: true, seo: true }).extend({ form_recipients: formRecipientsSchema.optional() }),
)

/** translations/{locale}.json: one locale's texts, nested as `api/country-wise-locale-content` answers them. */
export const translationFile = messagesSchema

const typeRecord = z.object({
  slug,
  names: byLocale(z.string().min(1)),
  registrable: z.boolean().default(false),
  warranty_years: z.number().int().min(0).max(30).default(2),
})

const variantRecord = variantSchema.omit({ price: true }).extend({
  stock: z.number().int().min(0),
  /** The variant's own price where it differs from the product's. */
  prices: amounts.default({}),
  /** Markets where the product is sold but this variant is not. */
  not_sold_in: z.array(market).default([]),
})

const productRecord = z.object({
  slug,
  type: slug,
  image: sitePath.nullish(),
  gallery: z.array(sitePath).default([]),
  featured: z.boolean().default(false),
  discipline: z.enum(DISCIPLINES).nullish(),
  frame_material: z.enum(FRAME_MATERIALS).nullish(),
  e_bike: z.boolean().default(false),
  released_on: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullish(),
  names: byLocale(
    z.object({
      name: z.string().min(1),
      tagline: z.string().default(''),
      description: z.string().default(''),
      specs: z.array(specSchema).default([]),
    }),
  ),
  size_guide: z.array(sizeGuideRowSchema).min(1).nullish(),
  /** The product's price in each market that sells it (minor units of the market's currency). */
  prices: amounts,
  variants: z.array(variantRecord),
})

/** catalogue.json: product types, then products with their names, variants, prices and stock. */
export const catalogueFile = z
  .object({ types: z.array(typeRecord), products: z.array(productRecord) })
  .superRefine(({ types, products }, context) => {
    const known = new Set(types.map((type) => type.slug))
    products.forEach((product, index) => {
      if (!known.has(product.type))
        context.addIssue({ code: 'custom', path: ['products', index, 'type'], message: 'not a type of this file' })
    })
  })

/** news.json: articles, one record per language (and market, `scope`, or every market, `*`). */
export const newsFile = z.array(
  z.object({
    slug,
    locale,
    scope: z.union([market, z.literal('*')]).default('*'),
    story: z.string().nullish(),
    title: z.string().min(1),
    excerpt: z.string().default(''),
    blocks: z.array(contentBlockSchema).default([]),
    image: sitePath.nullish(),
    published_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** The bikes the article names, by their product slugs: the article page shows their cards. */
    products: z.array(slug).default([]),
  }),
)

/** pages.json: page key → locale → the page's title, summary, blocks and its SEO record. */
export const pageFile = z.record(
  z.string().regex(/^[a-z0-9-]{1,80}$/),
  byLocale(
    z.object({
      title: z.string().min(1),
      summary: z.string().default(''),
      blocks: z.array(contentBlockSchema).default([]),
      seo: seoRecordSchema.omit({ model_id: true, model_type: true }).nullish(),
    }),
  ),
)

/** dealers.json: dealers as `api/front/dealers` answers them, with their market and their words per locale. */
export const dealerFile = z.array(
  dealerSchema.omit({ id: true, distance_km: true }).extend({
    site: market,
    /** The address, town and region in a locale's own words, where they differ. */
    translations: byLocale(z.object({ address: z.string(), city: z.string(), region: z.string() }).partial()).default(
      {},
    ),
  }),
)

export type MarketRecord = z.infer<typeof marketFile>[number]
export type CatalogueRecords = z.infer<typeof catalogueFile>
export type NewsRecord = z.infer<typeof newsFile>[number]
export type PageRecords = z.infer<typeof pageFile>
export type DealerRecord = z.infer<typeof dealerFile>[number]
