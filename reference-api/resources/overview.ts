import { Hono } from 'hono'
import { overviewAnswer } from '../../contract/account-schemas'
import { type ApiEnv, badParameter, positiveInt, respond } from '../context'
import { type AddressRow, addressesOf, toAddress } from './addresses'
import { type BikeRow, bikesOf, toBike } from './bikes'
import { latestOrders, type OrderRow } from './orders'

/** How many latest orders the overview answers unless asked for another number. */
const DEFAULT_ORDERS = 3

/**
 * `GET api/account/overview?orders=n` (1–50, default 3): the account overview's data in one call (issue 33) — the
 * bearer's user, their `n` latest orders, their bikes and their addresses, read in one batch of three statements, each
 * on its table's `user_id` index. The same rows as `GET api/account/orders`, `…/bikes` and `…/addresses` answer.
 */
export const overview = new Hono<ApiEnv>().get('/account/overview', async (c) => {
  const asked = c.req.query('orders')
  const limit = asked === undefined ? DEFAULT_ORDERS : positiveInt(asked, 50)
  if (!limit) return badParameter(c, 'orders', 'a whole number from 1 to 50')
  const { user, locale } = c.var
  const [orders, bikes, addresses] = await c.env.DB.batch<unknown>([
    latestOrders(c.env.DB, user.id, limit),
    bikesOf(c.env.DB, locale, user.id),
    addressesOf(c.env.DB, user.id),
  ])
  return respond(c, overviewAnswer, {
    data: {
      user,
      orders: (orders?.results ?? []) as OrderRow[],
      bikes: ((bikes?.results ?? []) as BikeRow[]).map(toBike),
      addresses: ((addresses?.results ?? []) as AddressRow[]).map(toAddress),
    },
  })
})
