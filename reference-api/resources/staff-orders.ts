import { Hono } from 'hono'
import { orderStatusSchema } from '../../contract/account-schemas'
import { orderLinkTemplate } from '../../contract/payment-schemas'
import {
  markPaidRequest,
  type OrderAction,
  refundAnswer,
  refundRequest,
  shipRequest,
  staffOrderAnswer,
  staffOrderListAnswer,
} from '../../contract/staff-schemas'
import { type ApiContext, type ApiEnv, badParameter, invalid, jsonBody, notFound, parseJson, respond } from '../context'
import { orderPaidStatements } from '../order-paid'
import { shippedMail } from '../order-mails'
import { queueMail } from '../outbox'
import { staffOnly } from '../staff-auth'
import { conditions, keysetList, staffListQuery } from '../staff-lists'
import { ITEM_COUNT, type OrderRow, orderOf } from './orders'

/** How many orders a page of the console's list holds. */
const ORDERS_PAGE_SIZE = 25
const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`

/** Where an order may be refunded from: paid and not (yet) wholly refunded. */
const REFUNDABLE = ['paid', 'processing', 'shipped', 'delivered']
/** Where an order may be shipped from. */
const SHIPPABLE = ['paid', 'processing']

type StaffOrderRow = OrderRow & { payment_id: string | null; email: string }

/**
 * The console's orders (editors, docs/decisions/049; docs/api.md "Staff console"): the list by market, state and date,
 * one order with its payments, refunds and what staff did, and the actions — mark a bank transfer paid, ship, cancel,
 * ask for a refund — each recorded in `order_actions` with who and when, each refused with 409 and a message when the
 * order's state does not allow it. A refund is recorded pending here; the Worker asks the provider for it, and the
 * provider's webhook (`payment.refunded`, reference-api/settle-payment.ts) confirms it.
 */
export const staffOrders = new Hono<ApiEnv>()
staffOrders.use('/staff/orders/*', staffOnly('editor'))

/** A 409 that says why in words, with its code (contract/staff-schemas.ts `ORDER_ACTION_REFUSALS`). */
const refused = (c: ApiContext, code: 'order_state' | 'amount_due' | 'refund_too_large', message: string) =>
  c.json({ message, code }, 409)

/** Records what a staff member did to an order. */
const orderAction = (c: ApiContext, orderId: number, action: OrderAction['action'], detail: unknown) =>
  c.env.DB.prepare('INSERT INTO order_actions (order_id, action, staff_id, detail) VALUES (?, ?, ?, ?)').bind(
    orderId,
    action,
    c.var.staff.id,
    JSON.stringify(detail),
  )

/** A row of the customer's timeline (one per status). */
const orderEvent = (c: ApiContext, orderId: number, status: string) =>
  c.env.DB.prepare(`INSERT OR IGNORE INTO order_events (order_id, status, at) VALUES (?, ?, ${NOW})`).bind(
    orderId,
    status,
  )

const ORDER_COLUMNS = `o.*, ${ITEM_COUNT}, COALESCE(b.email, u.email) AS email
  FROM orders o JOIN users u ON u.id = o.user_id LEFT JOIN backend_customers b ON b.user_id = u.id`

async function orderByCode(c: ApiContext): Promise<StaffOrderRow | null> {
  const code = c.req.param('code') ?? ''
  if (!/^[A-Za-z0-9-]{3,40}$/.test(code)) return null
  return c.env.DB.prepare(`SELECT ${ORDER_COLUMNS} WHERE o.code = ?`).bind(code).first<StaffOrderRow>()
}

/**
 * `GET api/staff/orders?site=&status=&from=&to=&cursor=&per_page=`: newest first, paged by keyset (docs/decisions/068);
 * `from`, `to` are dates (UTC, inclusive).
 */
staffOrders.get('/staff/orders', async (c) => {
  const query = staffListQuery(c, ORDERS_PAGE_SIZE)
  if (query instanceof Response) return query
  const { paging, site, from, to } = query
  const status = c.req.query('status')
  if (status !== undefined && !orderStatusSchema.safeParse(status).success)
    return badParameter(c, 'status', orderStatusSchema.options.join(', '))
  const where = conditions()
  if (site) where.add("substr(o.market, 1, instr(o.market, '-') - 1) = ?", site)
  if (status) where.add('o.status = ?', status)
  if (from) where.add('o.placed_at >= ?', `${from}T00:00:00`)
  if (to) where.add('o.placed_at < ?', `${to}T23:59:60`)
  const page = await keysetList<{ id: number; placed_at: string }>(c, paging, {
    select: `SELECT o.id, o.code, o.market, o.status, o.payment_state, o.payment_method, o.currency, o.total, o.refunded,
                    o.placed_at, COALESCE(b.email, u.email) AS email
               FROM orders o JOIN users u ON u.id = o.user_id LEFT JOIN backend_customers b ON b.user_id = u.id`,
    where,
    sort: 'o.placed_at',
    id: 'o.id',
    cursorOf: (row) => ({ at: row.placed_at, id: row.id }),
  })
  return respond(c, staffOrderListAnswer, page as never)
})

/** `GET api/staff/orders/{code}`: the order in full, its refunds and what staff (and the provider) did to it. */
staffOrders.get('/staff/orders/:code', async (c) => {
  const order = await orderByCode(c)
  if (!order) return notFound(c)
  const [refunds, actions] = await c.env.DB.batch([
    c.env.DB.prepare(
      `SELECT r.id, r.amount, r.state, s.name AS staff_name, r.created_at, r.confirmed_at
         FROM order_refunds r LEFT JOIN staff_users s ON s.id = r.staff_id WHERE r.order_id = ? ORDER BY r.id`,
    ).bind(order.id),
    c.env.DB.prepare(
      `SELECT a.action, s.name AS staff_name, a.detail, a.at
         FROM order_actions a LEFT JOIN staff_users s ON s.id = a.staff_id WHERE a.order_id = ? ORDER BY a.at, a.id`,
    ).bind(order.id),
  ])
  return respond(c, staffOrderAnswer, {
    data: {
      ...(await orderOf(c.env.DB, order)),
      email: order.email,
      payment_id: order.payment_id,
      carrier: order.carrier,
      refunded: order.refunded,
      refunds: (refunds?.results ?? []) as never[],
      actions: ((actions?.results ?? []) as Array<{ detail: string }>).map((row) => ({
        ...row,
        detail: parseJson<Record<string, unknown>>(row.detail, {}),
      })) as never[],
    },
  })
})

/**
 * `POST api/staff/orders/{code}/paid`: a bank transfer arrived. Only an order waiting for a bank transfer; the amount
 * must be its total. Paying means what it means for a provider's payment (reference-api/order-paid.ts: stock, cart,
 * the confirmation mail), once.
 */
staffOrders.post('/staff/orders/:code/paid', async (c) => {
  const body = markPaidRequest.safeParse(await jsonBody(c))
  if (!body.success) return invalid(c, body.error)
  const link = orderLinkTemplate.safeParse(body.data.link_template)
  if (!link.success) return invalid(c, link.error)
  const order = await orderByCode(c)
  if (!order) return notFound(c)
  if (order.status !== 'pending_payment' || order.payment_method !== 'bank_transfer')
    return refused(c, 'order_state', 'Only an order waiting for a bank transfer can be marked paid.')
  if (body.data.amount !== order.total) return refused(c, 'amount_due', 'The amount received is not the amount due.')
  const paidBy = `transfer-${order.id}`
  const paying = await orderPaidStatements(c.env.DB, order.id, paidBy, link.data)
  const [updated] = await c.env.DB.batch([
    c.env.DB.prepare(
      `UPDATE orders SET status = 'paid', payment_state = 'paid', paid_event = ? WHERE id = ? AND status = 'pending_payment'`,
    ).bind(paidBy, order.id),
    orderEvent(c, order.id, 'paid'),
    orderAction(c, order.id, 'marked_paid', { amount: body.data.amount, currency: order.currency }),
    ...paying.statements,
  ])
  if (!updated?.meta.changes) return refused(c, 'order_state', 'This order was changed meanwhile.')
  return c.json({ data: { code: order.code, status: 'paid' } })
})

/** `POST api/staff/orders/{code}/ship`: a paid order leaves with a carrier and its tracking number; the customer is told. */
staffOrders.post('/staff/orders/:code/ship', async (c) => {
  const body = shipRequest.safeParse(await jsonBody(c))
  if (!body.success) return invalid(c, body.error)
  const link = orderLinkTemplate.safeParse(body.data.link_template)
  if (!link.success) return invalid(c, link.error)
  const order = await orderByCode(c)
  if (!order) return notFound(c)
  if (!SHIPPABLE.includes(order.status) || order.delivery_method !== 'home')
    return refused(c, 'order_state', 'Only a paid order for home delivery that has not left yet can be shipped.')
  const { carrier, tracking_code: trackingCode } = body.data
  const mail = await shippedMail(c.env.DB, order.id, { carrier, trackingCode }, link.data)
  const [updated] = await c.env.DB.batch([
    c.env.DB.prepare(
      `UPDATE orders SET status = 'shipped', carrier = ?, tracking_code = ? WHERE id = ? AND status IN ('paid', 'processing')`,
    ).bind(carrier, trackingCode, order.id),
    orderEvent(c, order.id, 'shipped'),
    orderAction(c, order.id, 'shipped', { carrier, tracking_code: trackingCode }),
    ...(mail ? [queueMail(c.env.DB, mail)] : []),
  ])
  if (!updated?.meta.changes) return refused(c, 'order_state', 'This order was changed meanwhile.')
  return c.json({ data: { code: order.code, status: 'shipped' } })
})

/**
 * `POST api/staff/orders/{code}/cancel`: an unpaid order is cancelled. Its stock was never taken (an order takes its
 * stock when it is paid), so nothing goes back; its customer's cart keeps its lines.
 */
staffOrders.post('/staff/orders/:code/cancel', async (c) => {
  const order = await orderByCode(c)
  if (!order) return notFound(c)
  if (order.status !== 'pending_payment' || order.payment_state === 'paid')
    return refused(c, 'order_state', 'Only an order that is not paid can be cancelled.')
  const [updated] = await c.env.DB.batch([
    c.env.DB.prepare(
      `UPDATE orders SET status = 'cancelled' WHERE id = ? AND status = 'pending_payment' AND payment_state <> 'paid'`,
    ).bind(order.id),
    orderEvent(c, order.id, 'cancelled'),
    orderAction(c, order.id, 'cancelled', { payment_id: order.payment_id }),
  ])
  if (!updated?.meta.changes) return refused(c, 'order_state', 'This order was changed meanwhile.')
  return c.json({ data: { code: order.code, status: 'cancelled', payment_id: order.payment_id } })
})

/**
 * `POST api/staff/orders/{code}/refunds`: records a refund as pending, with a fresh idempotency key for the provider.
 * Only a paid order whose payment the provider holds; never more than was paid less the refunds already asked for.
 */
staffOrders.post('/staff/orders/:code/refunds', async (c) => {
  const body = refundRequest.safeParse(await jsonBody(c))
  if (!body.success) return invalid(c, body.error)
  const order = await orderByCode(c)
  if (!order) return notFound(c)
  if (!REFUNDABLE.includes(order.status) || order.payment_state !== 'paid' || !order.payment_id)
    return refused(c, 'order_state', 'Only an order paid through the payment provider can be refunded here.')
  const key = crypto.randomUUID().replace(/-/g, '')
  const amount = body.data.amount
  // Conditional on what is left, so two refunds asked for at once never pass the amount paid together.
  const inserted = await c.env.DB.prepare(
    `INSERT INTO order_refunds (order_id, amount, idempotency_key, staff_id)
       SELECT ?1, ?2, ?3, ?4 WHERE ?2 <= (SELECT total FROM orders WHERE id = ?1)
         - (SELECT COALESCE(SUM(amount), 0) FROM order_refunds WHERE order_id = ?1)
     RETURNING id, amount, state, created_at, confirmed_at`,
  )
    .bind(order.id, amount, key, c.var.staff.id)
    .first<{ id: number; amount: number; state: 'pending'; created_at: string; confirmed_at: null }>()
  if (!inserted) return refused(c, 'refund_too_large', 'The refund is more than what was paid and not yet refunded.')
  await orderAction(c, order.id, 'refund_requested', { amount, currency: order.currency }).run()
  return respond(
    c,
    refundAnswer,
    {
      data: {
        ...inserted,
        staff_name: c.var.staff.name,
        idempotency_key: key,
        payment_id: order.payment_id,
        currency: order.currency,
      },
    },
    201,
  )
})
