import { Hono } from 'hono'
import { type Owner, ownerSql, ownerValue } from '../owner'
import {
  type Order,
  orderAnswer,
  ordersAnswer,
  type OrderStatus,
  type PostalAddress,
} from '../../contract/account-schemas'
import { type ApiContext, type ApiEnv, badPaging, notFound, pageParams, parseJson, respond } from '../context'
import { before, keysetPage, keysetParams } from '../keyset'

/** Orders per page unless the caller asks for another size (at most 50). */
const DEFAULT_PER_PAGE = 10

export type OrderRow = {
  id: number
  code: string
  market: string
  status: OrderStatus
  currency: string
  subtotal: number
  discount: number
  discount_code: string | null
  shipping: number
  tax: number
  total: number
  billing_address: string
  shipping_address: string | null
  delivery_method: Order['delivery']['method']
  delivery_dealer: string | null
  tracking_code: string | null
  carrier: string | null
  refunded: number
  payment_method: string
  payment_state: Order['payment']['state']
  placed_at: string
  item_count: number
}

export const ITEM_COUNT = '(SELECT COALESCE(SUM(quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS item_count'

/** The columns of an order as a table of orders shows it (`orderListSql` without its item count). */
export const LISTED_ORDER_COLUMNS = ['code', 'placed_at', 'status', 'currency', 'total'] as const

/**
 * The SQL of a user's orders as their list shows them, newest first (on the `user_id` index), the user's id being
 * `user` (a placeholder, or a column of an enclosing statement: the account overview's, reference-api/resources/overview.ts);
 * with each order's item count, unless `itemCount` is false (the overview's table: `LISTED_ORDER_COLUMNS` only).
 */
export const orderListSql = (user: string, itemCount = true) =>
  `SELECT o.code, o.placed_at, o.status, o.currency, o.total${itemCount ? `, ${ITEM_COUNT}` : ''}
     FROM orders o WHERE o.user_id = ${user} ORDER BY o.placed_at DESC, o.id DESC`

/** A user's orders as their list shows them, newest first: `limit` of them after the first `offset`. */
export const latestOrders = (db: D1Database, owner: Owner, limit: number, offset = 0) =>
  db.prepare(`${orderListSql(ownerSql(owner))} LIMIT ? OFFSET ?`).bind(ownerValue(owner), limit, offset)

/**
 * A page of the bearer's orders by keyset (`GET api/account/orders?cursor=&per_page=`; docs/decisions/068): newest
 * first from where the cursor says (empty: the newest), through the index by customer and time, with no count.
 */
async function ordersByKeyset(c: ApiContext) {
  const paging = keysetParams(c, DEFAULT_PER_PAGE)
  if (paging instanceof Response) return paging
  const start = before(paging.after, 'o.id', 'o.placed_at')
  const { results } = await c.env.DB.prepare(
    `SELECT o.id, o.code, o.placed_at, o.status, o.currency, o.total, ${ITEM_COUNT}
       FROM orders o WHERE o.user_id = ? ${start ? `AND ${start[0]}` : ''}
      ORDER BY o.placed_at DESC, o.id DESC LIMIT ?`,
  )
    .bind(c.var.user.id, ...(start?.[1] ?? []), paging.perPage + 1)
    .all<OrderRow>()
  const { data, next_cursor } = keysetPage(results, paging.perPage, (row) => ({ at: row.placed_at, id: row.id }))
  return respond(c, ordersAnswer, { data, meta: { per_page: paging.perPage, next_cursor } })
}

/**
 * The bearer's orders: `GET api/account/orders?page=&per_page=` (newest first, paged by number, as the original) or
 * `?cursor=` (by keyset, above), and
 * `GET api/account/orders/{code}` (items, totals, addresses, delivery, payment, timeline). Another account's order
 * is a 404, by code as by anything else.
 */
export const orders = new Hono<ApiEnv>()
  .get('/account/orders', async (c) => {
    if (c.req.query('cursor') !== undefined) return ordersByKeyset(c)
    const paging = pageParams(c, DEFAULT_PER_PAGE)
    if (!paging) return badPaging(c)
    const { page, perPage, offset } = paging
    const userId = c.var.user.id
    const [list, total] = await c.env.DB.batch<OrderRow | { n: number }>([
      latestOrders(c.env.DB, userId, perPage, offset),
      c.env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE user_id = ?').bind(userId),
    ])
    return respond(c, ordersAnswer, {
      data: (list?.results ?? []) as OrderRow[],
      meta: { page, per_page: perPage, total: (total?.results[0] as { n: number } | undefined)?.n ?? 0 },
    })
  })
  .get('/account/orders/:code', async (c) => {
    const code = c.req.param('code')
    if (!/^[A-Za-z0-9-]{3,40}$/.test(code)) return notFound(c)
    const order = await c.env.DB.prepare(`SELECT o.*, ${ITEM_COUNT} FROM orders o WHERE o.code = ? AND o.user_id = ?`)
      .bind(code, c.var.user.id)
      .first<OrderRow>()
    if (!order) return notFound(c)
    return respond(c, orderAnswer, { data: await orderOf(c.env.DB, order) })
  })

/**
 * An order as its customer reads it (`GET api/account/orders/{code}`; the console's order adds to it): its lines with
 * their variants, totals, addresses, delivery with the carrier, payment, what was refunded, and its timeline.
 */
export async function orderOf(db: D1Database, order: OrderRow): Promise<Order> {
  const [items, events] = await db.batch<Order['items'][number] & Order['timeline'][number]>([
    // The variant's size and colour key come from the catalogue by the line's SKU (lines without one keep their text).
    db
      .prepare(
        `SELECT i.product_id, i.name, i.variant, i.quantity, i.unit_price, i.sku, v.size, v.colour
           FROM order_items i LEFT JOIN product_variants v ON v.sku = i.sku WHERE i.order_id = ? ORDER BY i.position`,
      )
      .bind(order.id),
    db.prepare('SELECT status, at FROM order_events WHERE order_id = ? ORDER BY at, rowid').bind(order.id),
  ])
  const address = (text: string | null) => parseJson<PostalAddress | null>(text, null)
  return {
    code: order.code,
    market: order.market,
    placed_at: order.placed_at,
    status: order.status,
    currency: order.currency,
    subtotal: order.subtotal,
    discount: order.discount > 0 ? { code: order.discount_code ?? '', amount: order.discount } : null,
    shipping: order.shipping,
    tax: order.tax,
    total: order.total,
    item_count: order.item_count,
    items: (items?.results ?? []).map((item) => ({ ...item, total: item.quantity * item.unit_price })),
    billing_address: address(order.billing_address) as PostalAddress,
    shipping_address: address(order.shipping_address),
    delivery: {
      method: order.delivery_method,
      dealer: order.delivery_dealer,
      tracking_code: order.tracking_code,
      carrier: order.carrier,
    },
    payment: { method: order.payment_method, state: order.payment_state },
    refunded: order.refunded,
    timeline: (events?.results ?? []).map(({ status, at }) => ({ status, at })),
  }
}
