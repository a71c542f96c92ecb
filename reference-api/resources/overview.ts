import { Hono } from 'hono'
import { overviewAnswer } from '../../contract/account-schemas'
import { type ApiContext, type ApiEnv, badParameter, positiveInt, respond } from '../context'
import { type AddressRow, addressesOf, toAddress } from './addresses'
import { type BikeRow, bikesOf, toBike } from './bikes'
import { bearerOwner, type TokenUserRow, unauthorized, userOfRow, userOfTokenHash } from './auth'
import { customerCartCount } from './cart'
import type { Owner } from '../owner'
import { latestOrders, type OrderRow } from './orders'

/** How many latest orders the overview answers unless asked for another number. */
const DEFAULT_ORDERS = 3

/**
 * `GET api/account/overview?orders=n` (1–50, default 3): the account overview's data in one call (issue 33) — the
 * bearer's user, their `n` latest orders, their bikes, their addresses and the items in their cart of the caller's
 * market (the header's count, as `GET api/account/cart`'s `item_count`), read in one batch, each statement on its
 * table's `user_id` index. The token is looked up in the same batch (its user, and each list's statement through
 * `access_tokens`: one round trip to D1, docs/decisions/066) unless the user is already known (a held shop's customer,
 * or a token this site request looked up). The same rows as `GET api/account/orders`, `…/bikes` and `…/addresses`
 * answer; without a known, unexpired token a 401 as every `api/account/*` call. Routed before `requireBearer`.
 */
export async function overviewRead(c: ApiContext): Promise<Response> {
  const owner = await bearerOwner(c)
  if (!owner) return unauthorized(c)
  const asked = c.req.query('orders')
  const limit = asked === undefined ? DEFAULT_ORDERS : positiveInt(asked, 50)
  if (!limit) return badParameter(c, 'orders', 'a whole number from 1 to 50')
  const { locale, tenant } = c.var
  const db = c.env.DB
  const of: Owner = 'user' in owner ? owner.user.id : owner
  const lists = [
    latestOrders(db, of, limit),
    bikesOf(db, locale, of),
    addressesOf(db, of),
    customerCartCount(db, of, tenant ?? ''),
  ]
  const read = await db.batch<unknown>('user' in owner ? lists : [userOfTokenHash(db, owner.tokenHash), ...lists])
  const [orders, bikes, addresses, cart] = 'user' in owner ? read : read.slice(1)
  const user = 'user' in owner ? owner.user : userOfRow(read[0]?.results[0] as TokenUserRow | undefined)
  if (!user) return unauthorized(c)
  return respond(c, overviewAnswer, {
    data: {
      user,
      orders: (orders?.results ?? []) as OrderRow[],
      bikes: ((bikes?.results ?? []) as BikeRow[]).map(toBike),
      addresses: ((addresses?.results ?? []) as AddressRow[]).map(toAddress),
      cart_item_count: tenant ? ((cart?.results[0] as { items: number } | undefined)?.items ?? 0) : null,
    },
  })
}

/** `GET api/account/overview` among the API's routes (reference-api/direct-reads.ts answers it in-process). */
export const overview = new Hono<ApiEnv>().get('/account/overview', overviewRead)
