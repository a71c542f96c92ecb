import { Hono } from 'hono'
import { type Owner, ownerSql, ownerValue } from '../owner'
import {
  acknowledgedAnswer,
  addressAnswer,
  addressesAnswer,
  addressInput,
  type AddressInput,
  POSTAL_ADDRESS_FIELDS,
} from '../../contract/account-schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, positiveInt, refuse, respond } from '../context'

/** How many addresses one account may keep. */
export const MAX_ADDRESSES = 20

export type AddressRow = AddressInput & { id: number; is_default: number | boolean }

const COLUMNS =
  'id, label, first_name, last_name, company, line1, line2, postal_code, city, region, country_code, phone, is_default'
const FIELDS = ['label', ...POSTAL_ADDRESS_FIELDS] as const

/** An address row as the contract's address. */
export const toAddress = (row: AddressRow) => ({ ...row, is_default: Boolean(row.is_default) })

/** The columns of an address row (`AddressRow`), as `addressListSql` reads them. */
export const ADDRESS_COLUMNS = COLUMNS.split(', ') as readonly (keyof AddressRow)[]

/**
 * The SQL of a user's addresses, the default first, the user's id being `user` (a placeholder, or a column of an
 * enclosing statement).
 */
export const addressListSql = (user: string) =>
  `SELECT ${COLUMNS} FROM addresses WHERE user_id = ${user} ORDER BY is_default DESC, id`

/** A user's addresses, the default first. */
export const addressesOf = (db: D1Database, owner: Owner) =>
  db.prepare(addressListSql(ownerSql(owner))).bind(ownerValue(owner))

/**
 * The bearer's addresses: `GET/POST api/account/addresses`, `GET/PUT/DELETE api/account/addresses/{id}` and
 * `POST api/account/addresses/{id}/default`. Another account's address is a 404. The first address is the default;
 * deleting the default makes the oldest remaining one the default.
 */
export const addresses = new Hono<ApiEnv>()
  .get('/account/addresses', async (c) => {
    const { results } = await addressesOf(c.env.DB, c.var.user.id).all<AddressRow>()
    return respond(c, addressesAnswer, { data: results.map(toAddress) })
  })
  .post('/account/addresses', async (c) => {
    const input = addressInput.safeParse(await jsonBody(c))
    if (!input.success) return invalid(c, input.error)
    const userId = c.var.user.id
    const room = `(SELECT COUNT(*) FROM addresses WHERE user_id = ?1) < ${MAX_ADDRESSES}`
    // One transaction: the limit, the default (asked for, or the first address) and the insert cannot interleave.
    const [, inserted] = await c.env.DB.batch<{ id: number }>([
      c.env.DB.prepare(`UPDATE addresses SET is_default = 0 WHERE user_id = ?1 AND ?2 AND ${room}`).bind(
        userId,
        input.data.is_default ? 1 : 0,
      ),
      c.env.DB.prepare(
        `INSERT INTO addresses (user_id, ${FIELDS.join(', ')}, is_default)
         SELECT ?1, ${FIELDS.map((_, i) => `?${i + 3}`).join(', ')},
                ?2 OR NOT EXISTS (SELECT 1 FROM addresses WHERE user_id = ?1 AND is_default = 1)
          WHERE ${room} RETURNING id`,
      ).bind(userId, input.data.is_default ? 1 : 0, ...FIELDS.map((field) => input.data[field])),
    ])
    const id = inserted?.results[0]?.id
    return id ? answerAddress(c, id, 201) : refuse(c, 422, 'too_many_addresses', 'form')
  })
  .get('/account/addresses/:id', async (c) => answerAddress(c, positiveInt(c.req.param('id'))))
  .put('/account/addresses/:id', async (c) => {
    const id = await ownAddressId(c)
    if (!id) return notFound(c)
    const input = addressInput.safeParse(await jsonBody(c))
    if (!input.success) return invalid(c, input.error)
    await c.env.DB.batch([
      unsetDefault(c, id, input.data.is_default),
      c.env.DB.prepare(
        `UPDATE addresses SET ${FIELDS.map((field) => `${field} = ?`).join(', ')}, is_default = MAX(is_default, ?) WHERE id = ? AND user_id = ?`,
      ).bind(...FIELDS.map((field) => input.data[field]), input.data.is_default ? 1 : 0, id, c.var.user.id),
    ])
    return answerAddress(c, id)
  })
  .delete('/account/addresses/:id', async (c) => {
    const id = await ownAddressId(c)
    if (!id) return notFound(c)
    const userId = c.var.user.id
    await c.env.DB.batch([
      c.env.DB.prepare('DELETE FROM addresses WHERE id = ? AND user_id = ?').bind(id, userId),
      c.env.DB.prepare(
        `UPDATE addresses SET is_default = 1
          WHERE user_id = ?1 AND NOT EXISTS (SELECT 1 FROM addresses WHERE user_id = ?1 AND is_default = 1)
            AND id = (SELECT MIN(id) FROM addresses WHERE user_id = ?1)`,
      ).bind(userId),
    ])
    return respond(c, acknowledgedAnswer, { message: 'Deleted.' })
  })
  .post('/account/addresses/:id/default', async (c) => {
    const id = await ownAddressId(c)
    if (!id) return notFound(c)
    await c.env.DB.batch([
      unsetDefault(c, id, true),
      c.env.DB.prepare('UPDATE addresses SET is_default = 1 WHERE id = ? AND user_id = ?').bind(id, c.var.user.id),
    ])
    return answerAddress(c, id)
  })

/** The id in the path, if it is one of the bearer's addresses. */
async function ownAddressId(c: ApiContext): Promise<number | null> {
  const id = positiveInt(c.req.param('id'))
  if (!id) return null
  return c.env.DB.prepare('SELECT id FROM addresses WHERE id = ? AND user_id = ?')
    .bind(id, c.var.user.id)
    .first<number>('id')
}

/**
 * Clears the bearer's default when address `id` takes its place: only while that address is still theirs, so a
 * concurrent delete never leaves the account without a default. (`when` false: a no-op, to keep batches simple.)
 */
function unsetDefault(c: ApiContext, id: number, when: boolean): D1PreparedStatement {
  return c.env.DB.prepare(
    'UPDATE addresses SET is_default = 0 WHERE user_id = ?1 AND ?2 AND EXISTS (SELECT 1 FROM addresses WHERE id = ?3 AND user_id = ?1)',
  ).bind(c.var.user.id, when ? 1 : 0, id)
}

async function answerAddress(c: ApiContext, id: number | null | undefined, status: 200 | 201 = 200) {
  const row = id
    ? await c.env.DB.prepare(`SELECT ${COLUMNS} FROM addresses WHERE id = ? AND user_id = ?`)
        .bind(id, c.var.user.id)
        .first<AddressRow>()
    : null
  return row ? respond(c, addressAnswer, { data: toAddress(row) }, status) : notFound(c)
}
