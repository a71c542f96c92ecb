import { Hono } from 'hono'
import {
  type Discipline,
  type FrameMaterial,
  productAnswer,
  productListingAnswer,
  productTypesAnswer,
} from '../../contract/catalogue-schemas'
import { menuAnswer } from '../../contract/schemas'
import {
  type ApiContext,
  type ApiEnv,
  badPaging,
  badParameter,
  notFound,
  pageParams,
  parseJson,
  positiveInt,
  respond,
} from '../context'
import { facetStatements, facetsOf, isRefusal, listingOrder, pageOfListing, readListingFilter } from './product-listing'

type ProductRow = {
  id: number
  slug: string
  image: string | null
  name: string
  tagline: string
  description: string
  gallery: string
  specs: string
  size_guide: string | null
  type_id: number
  type_slug: string
  type_name: string
  price: number
  discipline: Discipline | null
  frame_material: FrameMaterial | null
  electric: number
  released_on: string | null
  in_stock: number
}

/** A product's text in the caller's locale (`?1`), else English: English read only when the locale's is missing. */
const inLocale = (column: string, table = 'product_names', key = 'product_id', id = 'p.id', as = 'n') =>
  `COALESCE(${as}.${column}, (SELECT en.${column} FROM ${table} en WHERE en.${key} = ${id} AND en.locale = 'en'))`

/**
 * Products in the caller's locale (else English: names, descriptions and specifications) with their type and their
 * price in the caller's market, read from the product's listing row there (`l`, migrations/0028, kept by triggers):
 * only products priced there are sold there, and their price is the "from" price, the lowest of their variants'
 * prices there (the product's own when no variant has one); in stock when some variant sold there is in stock or low
 * on stock (a product without variants there is). A product costs its few rows whatever the size of the catalogue and
 * of its variants (docs/decisions/072). `?1` is the locale, `?2` the market; `FROM` and what drives it are the
 * caller's (`productsFrom`).
 */
const PRODUCT_COLUMNS = `
  SELECT p.id, p.slug, p.image, p.gallery, COALESCE(${inLocale('specs')}, '[]') AS specs, p.size_guide,
         t.id AS type_id, t.slug AS type_slug, l.price, p.discipline, p.frame_material, p.electric, p.released_on,
         l.in_stock, ${inLocale('name')} AS name, COALESCE(${inLocale('tagline')}, '') AS tagline,
         COALESCE(NULLIF(n.description, ''), (SELECT en.description FROM product_names en
                                               WHERE en.product_id = p.id AND en.locale = 'en'), '') AS description,
         COALESCE(${inLocale('name', 'product_type_names', 'type_id', 't.id', 'tn')}, t.slug) AS type_name`

/** The joins of a product's columns to its listing row `l` in the market. */
const PRODUCT_JOINS = `
    JOIN products p ON p.id = l.product_id
    JOIN product_types t ON t.id = l.type_id
    LEFT JOIN product_names n ON n.product_id = p.id AND n.locale = ?1
    LEFT JOIN product_type_names tn ON tn.type_id = t.id AND tn.locale = ?1`

/**
 * Products' summaries over the market's listing rows (`l`): read through a named index, or for the ids a subquery
 * answers (`ids`: a page of a listing), each found by its key (`CROSS JOIN` keeps the ids the outer loop, so the
 * planner never walks the market's rows by another index to find them) and the page's few rows sorted.
 */
const productsFrom = ({ index, ids }: { index?: string; ids?: string } = {}) =>
  ids
    ? `${PRODUCT_COLUMNS} FROM (${ids}) ids CROSS JOIN product_listings l ON l.site = ?2 AND l.product_id = ids.product_id${PRODUCT_JOINS}`
    : `${PRODUCT_COLUMNS} FROM product_listings l${index ? ` INDEXED BY ${index}` : ''}${PRODUCT_JOINS}`

/**
 * The most products the menu answers, featured first: what the header names (8; the home's four cards are its first),
 * every product being in the listings and an article's bikes read by their slugs (docs/decisions/072). Every market
 * page reads the menu cold: it reads what the header shows, at any size of the catalogue.
 */
const MENU_PRODUCTS = 8

/** A product as the menu lists it, with the market's price (cards show it). */
const menuItem = (row: ProductRow) => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  tagline: row.tagline,
  image: row.image,
  type: { id: row.type_id, slug: row.type_slug, name: row.type_name },
  price: row.price,
})

/** A product as lists show it: the menu's fields and what listings filter and sort by. */
const summary = (row: ProductRow) => ({
  ...menuItem(row),
  discipline: row.discipline,
  frame_material: row.frame_material,
  e_bike: row.electric === 1,
  in_stock: row.in_stock === 1,
  released_on: row.released_on,
})

/**
 * The gallery column's JSON: a list whose entries are a picture's path, or `{ src, colour }` for a picture of the
 * product in one of its colours. Answers every path in order, and the colours' own pictures by colour.
 */
function galleryOf(json: string): { gallery: string[]; colour_gallery: Record<string, string[]> } {
  const entries = parseJson<Array<string | { src: string; colour: string }>>(json, [])
  const gallery: string[] = []
  const byColour: Record<string, string[]> = {}
  for (const entry of entries) {
    if (typeof entry === 'string') gallery.push(entry)
    else {
      gallery.push(entry.src)
      byColour[entry.colour] = [...(byColour[entry.colour] ?? []), entry.src]
    }
  }
  return { gallery, colour_gallery: byColour }
}

/** The market whose prices apply: the caller's `X-Tenant`, else the international site. */
const marketOf = (c: ApiContext) => c.var.tenant ?? 'int'

/**
 * The catalogue of the caller's market: `GET api/front/menu/products?type_id=N` (the header's product menu),
 * `GET api/front/product-types`, `GET api/front/products?type={slug}&page=&per_page=` (also `discipline`, `material`,
 * `ebike`, `min`, `max`, `stock` and `sort`: filtered, ordered and paged over the compact listing rows, with the
 * facet counts in `meta.facets`; reference-api/resources/product-listing.ts) and
 * `GET api/front/products/{slug}` (a product not sold in the market is a 404).
 */
export const products = new Hono<ApiEnv>()
  .get('/front/menu/products', async (c) => {
    const typeId = positiveInt(c.req.query('type_id'))
    if (!typeId) return c.json({ message: 'type_id must be a positive whole number' }, 422)
    // The type's first products in the brand's order, read through the listing rows' index of that order
    // (migrations/0028) and stopped at the menu's length: the menu reads its own rows, never the type's whole catalogue.
    const { results } = await c.env.DB.prepare(
      `${productsFrom({ index: 'product_listings_type_featured' })}
        WHERE l.site = ?2 AND l.type_id = ?3 ORDER BY ${listingOrder('featured', 'l.')} LIMIT ?4`,
    )
      .bind(c.var.locale, marketOf(c), typeId, MENU_PRODUCTS)
      .all<ProductRow>()
    return respond(c, menuAnswer, { data: results.map(menuItem) })
  })
  .get('/front/product-types', async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT t.id, t.slug, COALESCE(tn.name, ten.name, t.slug) AS name, t.registrable,
              (SELECT p.image FROM product_listings l INDEXED BY product_listings_type_featured
                 JOIN products p ON p.id = l.product_id
                WHERE l.site = ?2 AND l.type_id = t.id AND p.image IS NOT NULL
                ORDER BY ${listingOrder('featured', 'l.')} LIMIT 1) AS image
         FROM product_types t
         LEFT JOIN product_type_names tn ON tn.type_id = t.id AND tn.locale = ?1
         LEFT JOIN product_type_names ten ON ten.type_id = t.id AND ten.locale = 'en'
        WHERE EXISTS (SELECT 1 FROM product_listings l WHERE l.site = ?2 AND l.type_id = t.id)
        ORDER BY t.position, t.id`,
    )
      .bind(c.var.locale, marketOf(c))
      .all<{ id: number; slug: string; name: string; registrable: number; image: string | null }>()
    return respond(c, productTypesAnswer, {
      data: results.map((type) => ({ ...type, registrable: type.registrable === 1 })),
    })
  })
  .get('/front/products', async (c) => {
    const paging = pageParams(c, 24)
    if (!paging) return badPaging(c)
    const filter = readListingFilter(c)
    if (isRefusal(filter)) return badParameter(c, filter.name, filter.expected)
    // The page's ids from the compact listing rows in the order's index, then their summaries; the total and the
    // facet counts from the counts kept per market and type (migrations/0028, docs/decisions/069).
    const page = pageOfListing(filter, paging.perPage, paging.offset)
    const statements = [
      c.env.DB.prepare(`${productsFrom({ ids: page.sql })} ORDER BY ${listingOrder(filter.sort, 'l.')}`).bind(
        c.var.locale,
        marketOf(c),
        ...page.args,
      ),
      ...facetStatements(filter).map(({ sql, args }) => c.env.DB.prepare(sql).bind(c.var.locale, marketOf(c), ...args)),
    ]
    const [rows, ...counts] = await c.env.DB.batch<ProductRow & Parameters<typeof facetsOf>[0][number][number]>(
      statements,
    )
    const { total, facets } = facetsOf(
      counts.map((answer) => answer.results),
      filter,
    )
    return respond(c, productListingAnswer, {
      data: (rows?.results ?? []).map(summary),
      meta: { page: paging.page, per_page: paging.perPage, total, facets },
    })
  })
  .get('/front/products/:slug', async (c) => {
    const slug = c.req.param('slug')
    if (!/^[a-z0-9-]{1,80}$/.test(slug)) return notFound(c)
    const [rows, variants] = await c.env.DB.batch<Record<string, unknown>>([
      c.env.DB.prepare(`${productsFrom()} WHERE l.site = ?2 AND p.slug = ?3`).bind(c.var.locale, marketOf(c), slug),
      // Only the variants sold in the market: those with a price there.
      c.env.DB.prepare(
        `SELECT v.sku, v.size, v.colour, v.availability, vp.amount AS price FROM product_variants v
           JOIN products p ON p.id = v.product_id
           JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = ?2
          WHERE p.slug = ?1 ORDER BY v.position, v.sku`,
      ).bind(slug, marketOf(c)),
    ])
    const row = rows?.results[0] as ProductRow | undefined
    if (!row) return notFound(c)
    return respond(c, productAnswer, {
      data: {
        ...summary(row),
        description: row.description,
        ...galleryOf(row.gallery),
        // The specifications in the caller's locale (else English): text parts translated, codes and quantities as
        // they are, for the Worker to write the market's way.
        specs: parseJson<unknown[]>(row.specs, []) as never,
        size_guide: parseJson<unknown[] | null>(row.size_guide, null) as never,
        variants: (variants?.results ?? []) as never,
      },
    })
  })
