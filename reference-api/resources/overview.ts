import { Hono } from 'hono'
import { overviewAnswer } from '../../contract/account-schemas'
import { type ApiEnv, badParameter, positiveInt, respond } from '../context'
import { type AddressRow, addressesOf, toAddress } from './addresses'
import { type BikeRow, bikesOf, toBike } from './bikes'
import { customerCartCount } from './cart'
import { latestOrders, type OrderRow } from './orders'

/** How many latest orders the overview answers unless asked for another number. */
const DEFAULT_ORDERS = 3

/**
 * `GET api/account/overview?orders=n` (1–50, default 3): the account overview's data in one call (issue 33) — the
 * bearer's user, their `n` latest orders, their bikes, their addresses and the items in their cart of the caller's
 * market (the header's count, as `GET api/account/cart`'s `item_count`), read in one batch of four statements, each
 * on its table's `user_id` index. The same rows as `GET api/account/orders`, `…/bikes` and `…/addresses` answer.
 */
export const overview = new Hono<ApiEnv>().get('/account/overview', async (c) => {
  const asked = c.req.query('orders')
  const limit = asked === undefined ? DEFAULT_ORDERS : positiveInt(asked, 50)
  if (!limit) return badParameter(c, 'orders', 'a whole number from 1 to 50')
  const { user, locale, tenant } = c.var
  const [orders, bikes, addresses, cart] = await c.env.DB.batch<unknown>([
    latestOrders(c.env.DB, user.id, limit),
    bikesOf(c.env.DB, locale, user.id),
    addressesOf(c.env.DB, user.id),
    customerCartCount(c.env.DB, user.id, tenant ?? ''),
  ])
  return respond(c, overviewAnswer, {
    data: {
      user,
      orders: (orders?.results ?? []) as OrderRow[],
      bikes: ((bikes?.results ?? []) as BikeRow[]).map(toBike),
      addresses: ((addresses?.results ?? []) as AddressRow[]).map(toAddress),
      cart_item_count: tenant ? ((cart?.results[0] as { items: number } | undefined)?.items ?? 0) : null,
    },
  })
})
