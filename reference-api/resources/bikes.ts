import { Hono } from 'hono'
import { type Owner, ownerSql, ownerValue } from '../owner'
import { bikeAnswer, bikeModelsAnswer, bikeRegistration, bikesAnswer } from '../../contract/account-schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, refuse, respond } from '../context'

export type BikeRow = {
  id: number
  serial_number: string
  purchased_on: string
  dealer_name: string | null
  registered_at: string
  warranty_ends_on: string
  product_id: number
  product_slug: string
  product_name: string
  product_image: string | null
}

/** Products' names in the caller's locale, English where it has none. */
const PRODUCT_NAME = `COALESCE((SELECT name FROM product_names WHERE product_id = p.id AND locale = ?1),
                               (SELECT name FROM product_names WHERE product_id = p.id AND locale = 'en'), p.slug)`

const BIKE_SELECT = `
  SELECT b.id, b.serial_number, b.purchased_on, b.dealer_name, b.registered_at,
         date(b.purchased_on, '+' || t.warranty_years || ' years') AS warranty_ends_on,
         p.id AS product_id, p.slug AS product_slug, p.image AS product_image, ${PRODUCT_NAME} AS product_name
    FROM bikes b JOIN products p ON p.id = b.product_id JOIN product_types t ON t.id = p.type_id`

/** The columns of a bike row (`BikeRow`), as `bikeListSql` reads them. */
export const BIKE_COLUMNS = [
  'id',
  'serial_number',
  'purchased_on',
  'dealer_name',
  'registered_at',
  'warranty_ends_on',
  'product_id',
  'product_slug',
  'product_name',
  'product_image',
] as const satisfies readonly (keyof BikeRow)[]

/**
 * The SQL of a user's registered bikes, newest purchase first, their products named in the locale bound at `?1`, the
 * user's id being `user` (a placeholder other than `?1`, or a column of an enclosing statement).
 */
export const bikeListSql = (user: string) =>
  `${BIKE_SELECT} WHERE b.user_id = ${user} ORDER BY b.purchased_on DESC, b.id DESC`

/** A user's registered bikes, newest purchase first, their products named in `locale`. */
export const bikesOf = (db: D1Database, locale: string, owner: Owner) =>
  db.prepare(bikeListSql(ownerSql(owner, '?2'))).bind(locale, ownerValue(owner))

/** A bike row as the contract's bike. */
export const toBike = (row: BikeRow) => ({
  id: row.id,
  serial_number: row.serial_number,
  product: { id: row.product_id, slug: row.product_slug, name: row.product_name, image: row.product_image },
  purchased_on: row.purchased_on,
  dealer_name: row.dealer_name,
  registered_at: row.registered_at,
  warranty_ends_on: row.warranty_ends_on,
})

/**
 * The bearer's registered bikes: `GET api/account/bikes`, `GET api/account/bike-models` (what can be registered) and
 * `POST api/account/bikes`. A frame serial number belongs to one account: 409 `serial_registered` when it is already
 * the caller's; when it is someone else's, 409 `serial_unavailable`, which says only that the number cannot be
 * registered online, never that another account holds it.
 */
export const bikes = new Hono<ApiEnv>()
  .get('/account/bikes', async (c) => {
    const { results } = await bikesOf(c.env.DB, c.var.locale, c.var.user.id).all<BikeRow>()
    return respond(c, bikesAnswer, { data: results.map(toBike) })
  })
  .get('/account/bike-models', async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT p.id, p.slug, p.image, ${PRODUCT_NAME} AS name
           FROM products p JOIN product_types t ON t.id = p.type_id
          WHERE t.registrable = 1 ORDER BY t.position, p.position, p.id`,
    )
      .bind(c.var.locale)
      .all<{ id: number; slug: string; image: string | null; name: string }>()
    return respond(c, bikeModelsAnswer, { data: results })
  })
  .post('/account/bikes', async (c) => {
    const input = bikeRegistration.safeParse(await jsonBody(c))
    if (!input.success) return invalid(c, input.error)
    const { serial_number, product_id, purchased_on, dealer_name } = input.data
    const model = await c.env.DB.prepare(
      'SELECT p.id FROM products p JOIN product_types t ON t.id = p.type_id WHERE p.id = ? AND t.registrable = 1',
    )
      .bind(product_id)
      .first()
    if (!model) return refuse(c, 422, 'model', 'product_id')
    const owner = await c.env.DB.prepare('SELECT user_id FROM bikes WHERE serial_number = ?')
      .bind(serial_number)
      .first<number>('user_id')
    if (owner !== null) return serialRefusal(c, owner)
    const inserted = await c.env.DB.prepare(
      'INSERT INTO bikes (user_id, product_id, serial_number, purchased_on, dealer_name) VALUES (?, ?, ?, ?, ?) ON CONFLICT (serial_number) DO NOTHING RETURNING id',
    )
      .bind(c.var.user.id, product_id, serial_number, purchased_on, dealer_name)
      .first<number>('id')
    // Registered by someone else between the check and the insert.
    if (inserted === null) return serialRefusal(c, -1)
    const row = await c.env.DB.prepare(`${BIKE_SELECT} WHERE b.id = ?2`).bind(c.var.locale, inserted).first<BikeRow>()
    return respond(c, bikeAnswer, { data: toBike(row as BikeRow) }, 201)
  })

const serialRefusal = (c: ApiContext, owner: number) =>
  refuse(c, 409, owner === c.var.user.id ? 'serial_registered' : 'serial_unavailable', 'serial_number')
