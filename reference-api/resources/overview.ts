import { Hono } from 'hono'
import { type ListedOrder, overviewAnswer } from '../../contract/account-schemas'
import { type ApiContext, type ApiEnv, badParameter, positiveInt, respond } from '../context'
import { type Owner, ownerSql, ownerValue } from '../owner'
import { bearerOwner, TOKEN_USER_COLUMNS, type TokenUserRow, unauthorized, userOfRow } from './auth'
import { BIKE_COLUMNS, type BikeRow, bikeListSql, toBike } from './bikes'
import { cartCountSql } from './cart'
import { LISTED_ORDER_COLUMNS, orderListSql } from './orders'

/** How many latest orders the overview answers unless asked for another number. */
const DEFAULT_ORDERS = 3

/**
 * The SQL of a list's rows as one JSON array of objects (`[]` without rows), in the list's own order: `sql` read as a
 * subquery, each of its `columns` a key. SQLite keeps a subquery's ORDER BY when an aggregate reads it (it does not
 * flatten such a subquery into its reader).
 */
const jsonRows = (sql: string, columns: readonly string[]) =>
  `(SELECT json_group_array(json_object(${columns.map((column) => `'${column}', r.${column}`).join(', ')})) FROM (${sql}) r)`

/**
 * The overview's one statement (docs/decisions/079): the user (`?2`: their id, or their token's hash looked up in
 * `access_tokens`, known and not expired, as `ownerSql` does) with their latest `?3` orders as its table shows them
 * (without their item count), their bikes named in the locale `?1` (each list as JSON, by the same SQL as its own
 * call) and the items in their cart of the market `?4`; no row without a known, unexpired token. Nothing the page does
 * not show: D1 prepares the statement afresh on every call, and its cost grows with its text (docs/decisions/084).
 * Two shapes (a known user, a token's), each made once.
 */
const overviewSql = (owner: Owner) =>
  `SELECT ${TOKEN_USER_COLUMNS},
          ${jsonRows(`${orderListSql('u.id', false)} LIMIT ?3`, LISTED_ORDER_COLUMNS)} AS orders,
          ${jsonRows(bikeListSql('u.id'), BIKE_COLUMNS)} AS bikes,
          (${cartCountSql('u.id', '?4')}) AS cart_items
     FROM users u WHERE u.id = ${ownerSql(owner, '?2')}`
const OF_USER = overviewSql(0)
const OF_TOKEN = overviewSql({ tokenHash: '' })

/** The overview's row: the user as `userOfTokenHash` reads them, each list as JSON, the cart's item count. */
type OverviewRow = TokenUserRow & { orders: string; bikes: string; cart_items: number }

/**
 * `GET api/account/overview?orders=n` (1–50, default 3): the account overview's data in one call (issue 33) — the
 * bearer's user, their `n` latest orders (as a table shows them: no item count), their bikes and the items in their
 * cart of the caller's market (the header's count, as `GET api/account/cart`'s `item_count`), read in one statement
 * (one round trip to D1, docs/decisions/079), each list on its table's `user_id` index; not the addresses, which the
 * overview only links (docs/decisions/084). The token is looked up by the same statement unless the user is already
 * known (a held shop's customer, or a token this site request looked up). The same rows as `GET api/account/orders`
 * and `…/bikes` answer; without a known, unexpired token a 401 as every `api/account/*` call. Routed before
 * `requireBearer`.
 */
export async function overviewRead(c: ApiContext): Promise<Response> {
  const owner = await bearerOwner(c)
  if (!owner) return unauthorized(c)
  const asked = c.req.query('orders')
  const limit = asked === undefined ? DEFAULT_ORDERS : positiveInt(asked, 50)
  if (!limit) return badParameter(c, 'orders', 'a whole number from 1 to 50')
  const { locale, tenant } = c.var
  const of: Owner = 'user' in owner ? owner.user.id : owner
  const row = await c.env.DB.prepare(typeof of === 'number' ? OF_USER : OF_TOKEN)
    .bind(locale, ownerValue(of), limit, tenant ?? '')
    .first<OverviewRow>()
  const user = 'user' in owner ? owner.user : userOfRow(row)
  if (!row || !user) return unauthorized(c)
  return respond(c, overviewAnswer, {
    data: {
      user,
      orders: JSON.parse(row.orders) as ListedOrder[],
      bikes: (JSON.parse(row.bikes) as BikeRow[]).map(toBike),
      cart_item_count: tenant ? row.cart_items : null,
    },
  })
}

/** `GET api/account/overview` among the API's routes (reference-api/direct-reads.ts answers it in-process). */
export const overview = new Hono<ApiEnv>().get('/account/overview', overviewRead)
