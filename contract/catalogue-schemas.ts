import { z } from 'zod'
import { envelope, newsSummarySchema, pageMetaSchema, pagedEnvelope, sitePath } from './schemas'

/**
 * The catalogue half of the upstream contract (docs/api.md): product types, products with variants and the caller's
 * market price, news articles, dealers, places and search. Shared by the embedded API and the upstream client.
 */

const slug = z.string().regex(/^[a-z0-9-]{1,80}$/)

export const productTypeSchema = z.object({ id: z.number().int(), slug, name: z.string() })

/**
 * A type as `api/front/product-types` lists it: also whether its products are bicycles (`registrable`: a customer
 * registers them, a visitor may book a test ride of them); a brand's API without the field lists no bicycles. Its
 * `image` is the menu's picture of the type (none, or not a path on the site: the menu shows its name alone).
 */
export const listedProductTypeSchema = productTypeSchema.extend({
  registrable: z.boolean().default(false),
  /** The type's picture for the header's product menu (the embedded API: its first product's, featured first). */
  image: sitePath
    .nullish()
    .catch(null)
    .transform((value) => value ?? null),
})

export const availabilitySchema = z.enum(['in_stock', 'low_stock', 'out_of_stock', 'preorder'])

export const variantSchema = z.object({
  sku: z.string(),
  size: z.string(),
  /** A colour key (`red`, `sage`…): the Worker translates it. */
  colour: z.string().regex(/^[a-z]+$/),
  availability: availabilitySchema,
  /** The variant's price in the caller's market, in minor units of the site's currency. */
  price: z.number().int().min(0),
})

/** The riding a bike is made for, which visitors filter listings by: keys the Worker translates (`discipline.road`). */
export const DISCIPLINES = ['road', 'gravel', 'city', 'mtb', 'touring', 'kids', 'cargo', 'folding'] as const
export type Discipline = (typeof DISCIPLINES)[number]
/** Frame materials, which visitors filter listings by: keys the Worker translates (`material.carbon`). */
export const FRAME_MATERIALS = ['carbon', 'aluminium', 'steel', 'titanium'] as const
export type FrameMaterial = (typeof FRAME_MATERIALS)[number]

export const productSummarySchema = z.object({
  id: z.number().int(),
  slug,
  name: z.string(),
  tagline: z.string().default(''),
  image: sitePath.nullish(),
  type: productTypeSchema,
  /**
   * The price in the caller's market (`X-Tenant`), in minor units of the site's currency: the "from" price, the lowest
   * of the variants' prices there (the product's own price when it has none).
   */
  price: z.number().int().min(0),
  /** The listings' filters. A value the Worker does not know (or none, as on accessories) is no discipline. */
  discipline: z.enum(DISCIPLINES).nullish().catch(null),
  /** A value the Worker does not know (or none) is no material. */
  frame_material: z.enum(FRAME_MATERIALS).nullish().catch(null),
  /** An electric bicycle. */
  e_bike: z.boolean().default(false),
  /** Some variant sold in the caller's market is in stock (or low on stock); an API without the field lists all as in stock. */
  in_stock: z.boolean().default(true),
  /** When the product came out (YYYY-MM-DD): "newest first" sorts by it, products without one last. */
  released_on: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullish()
    .catch(null),
})

/**
 * One run of a specification's value, in the order it reads: prose already in the caller's locale (`text`), a
 * designation written alike in every language and always left to right (`code`: "T800", "700 × 28c", "Aurora Veloce
 * 12"), or a number the Worker writes the market's way (`quantity`: a value, or a range up to `to`, in a unit symbol).
 */
export const specPartSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string().min(1) }),
  z.object({ kind: z.literal('code'), text: z.string().min(1) }),
  z.object({
    kind: z.literal('quantity'),
    value: z.number().finite(),
    to: z.number().finite().nullish(),
    /** An SI or trade symbol (`kg`, `mm`, `Wh`, `Nm`, `psi`…), written after the number; none for a plain count. */
    unit: z
      .string()
      .regex(/^[A-Za-z°%]{1,4}$/)
      .nullish(),
  }),
])

/**
 * A specification: its key (the Worker translates the label) and its value as parts. A brand's API that still sends
 * one `value` string (the contract before parts) is read as that one text.
 */
export const specSchema = z.preprocess(
  (spec) =>
    spec && typeof spec === 'object' && 'value' in spec && !('parts' in spec) && typeof spec.value === 'string'
      ? { ...spec, parts: [{ kind: 'text', text: spec.value }] }
      : spec,
  z.object({ key: z.string().regex(/^[a-z_]+$/), parts: z.array(specPartSchema).min(1) }),
)

const millimetres = z.number().positive().max(5000)
const degrees = z.number().gt(0).lt(90)

/** One frame size of a size guide: the rider heights it fits and its geometry (lengths in mm, angles in degrees). */
export const sizeGuideRowSchema = z.object({
  size: z.string().min(1),
  rider_height_cm: z.object({ min: z.number().positive().max(250), max: z.number().positive().max(250) }),
  geometry: z.object({
    stack: millimetres,
    reach: millimetres,
    seat_tube: millimetres,
    top_tube: millimetres,
    head_angle: degrees,
    seat_angle: degrees,
    chainstay: millimetres,
    wheelbase: millimetres,
  }),
})

export const productSchema = productSummarySchema.extend({
  description: z.string().default(''),
  gallery: z.array(sitePath),
  /**
   * The pictures (among `gallery`'s) that show the product in one of its colours, by colour key; the others show what
   * every colour shares (details). A colour without pictures of its own shows the whole gallery.
   */
  colour_gallery: z.record(z.string().regex(/^[a-z]+$/), z.array(sitePath)).default({}),
  specs: z.array(specSchema),
  /** The frame sizes of a bicycle with their rider heights and geometry; none (null) for products without a size guide. */
  size_guide: z
    .array(sizeGuideRowSchema)
    .min(1)
    .nullish()
    .transform((rows) => rows ?? null),
  /** Only the variants sold in the caller's market (those with a price there). */
  variants: z.array(variantSchema),
})

export const newsArticleSchema = newsSummarySchema.extend({
  /** Rich text: a small subset of HTML, which the Worker sanitises before it reaches a page. */
  body: z.string(),
  /** The bikes the article names, by their product slugs (a backend without them: none). */
  products: z.array(z.string()).default([]),
})

/** The services a dealer may offer, which visitors filter by. */
export const DEALER_SERVICES = ['sales', 'service', 'test_rides'] as const
export type DealerService = (typeof DEALER_SERVICES)[number]

const openingRange = z.string().regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/)

export const dealerSchema = z.object({
  id: z.number().int(),
  slug,
  name: z.string(),
  address: z.string(),
  postal_code: z.string().nullish(),
  city: z.string(),
  region: z.string().nullish(),
  country_code: z.string().regex(/^[A-Z]{2}$/),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  phone: z.string().nullish(),
  email: z.string().nullish(),
  website: z
    .string()
    .url()
    .regex(/^https?:\/\//)
    .nullish(),
  services: z.object({ sales: z.boolean(), service: z.boolean(), test_rides: z.boolean() }),
  /** Seven days, Monday first: the day's opening ranges, none when closed. */
  hours: z.array(z.array(openingRange)).length(7),
  /** Kilometres from the point the caller asked about, when it asked. */
  distance_km: z.number().min(0).nullish(),
})

export const placeSchema = z.object({
  name: z.string(),
  postal_code: z.string().nullish(),
  lat: z.number(),
  lng: z.number(),
})

export const searchKindSchema = z.enum(['product', 'news', 'dealer'])
export const searchResultSchema = z.object({
  kind: searchKindSchema,
  slug,
  title: z.string(),
  /** Plain text around the match. */
  excerpt: z.string(),
  image: sitePath.nullish(),
  /**
   * A product's "from" price in the caller's market (minor units of the site's currency), where the backend answers
   * it; null for news and dealers.
   */
  price: z.number().int().min(0).nullish().catch(null),
})

export const productTypesAnswer = envelope(z.array(listedProductTypeSchema))
/** A listing's orders: the brand's own (featured first), by price either way, the newest first. */
export const LISTING_SORTS = ['featured', 'price-asc', 'price-desc', 'newest'] as const
export type ListingSort = (typeof LISTING_SORTS)[number]

/** How many products a value would list: the value's key and its count. */
const counts = z.record(z.string(), z.number().int().min(0))

/**
 * A listing's facet counts (`meta.facets` of `api/front/products` when the backend filters): for each value of a
 * filter, how many products the listing would show with that value chosen and the other filters as they are. A
 * backend that answers none does not filter (the Worker then filters a short list itself: docs/decisions/069).
 */
export const listingFacetsSchema = z.object({
  discipline: counts,
  material: counts,
  /** `yes` and `no`. */
  ebike: counts,
  /** Products in stock, the other filters as they are. */
  stock: z.number().int().min(0),
})

/**
 * `GET api/front/products?type=&discipline=&material=&ebike=&min=&max=&stock=&sort=&page=&per_page=`: a page of a
 * listing, filtered and ordered by the backend, with the facet counts.
 */
export const productListingAnswer = z.object({
  data: z.array(productSummarySchema),
  meta: pageMetaSchema.extend({ facets: listingFacetsSchema.nullish().catch(null) }),
})
export type ListingFacets = z.infer<typeof listingFacetsSchema>

export const productListAnswer = pagedEnvelope(productSummarySchema)
export const productAnswer = envelope(productSchema)
export const newsArticleAnswer = envelope(newsArticleSchema)
export const dealersAnswer = pagedEnvelope(dealerSchema)
export const dealerAnswer = envelope(dealerSchema)
export const placeAnswer = envelope(placeSchema)
/**
 * `GET api/front/search`: a page of results in rank order; `total` may stop short of every match (the embedded API
 * counts to the page's end and one more when another page follows: docs/decisions/077).
 */
export const searchAnswer = pagedEnvelope(searchResultSchema)

export type ProductType = z.infer<typeof productTypeSchema>
export type ListedProductType = z.infer<typeof listedProductTypeSchema>
export type Availability = z.infer<typeof availabilitySchema>
export type ProductSummary = z.infer<typeof productSummarySchema>
export type Product = z.infer<typeof productSchema>
export type SpecPart = z.infer<typeof specPartSchema>
export type Spec = Product['specs'][number]
export type SizeGuideRow = z.infer<typeof sizeGuideRowSchema>
export type NewsArticle = z.infer<typeof newsArticleSchema>
export type Dealer = z.infer<typeof dealerSchema>
export type Place = z.infer<typeof placeSchema>
export type SearchKind = z.infer<typeof searchKindSchema>
export type SearchResult = z.infer<typeof searchResultSchema>
