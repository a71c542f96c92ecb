import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { type OrderFilters, staffOrderCalls } from '../upstream/contract/staff-orders'
import { staffCalls } from '../upstream/contract/staff'
import { type OrderStatus, orderStatusSchema } from '../../contract/account-schemas'
import { CARRIER_NAMES, type Carrier, trackingUrl } from '../../contract/carriers'
import type { StaffOrder, StaffOrderSummary } from '../../contract/staff-schemas'
import {
  DataTable,
  DateField,
  DefinitionList,
  FiltersForm,
  Flash,
  MarketSelect,
  newestFirst,
  Pager,
  ConsoleSelect,
  Time,
  withQuery,
  Written,
} from './components'
import { queriedDay, queriedMarket, queriedCursor } from './list-query'
import { consoleMoney } from './money'
import { OrderActions, type OrderFormState } from './order-forms'
import { sendConsolePage } from './page'
import { sectionPath } from './sections'

/**
 * The orders' pages (editors, docs/decisions/049; the section's routes: orders-section.ts): the orders by market, state
 * and date, newest first; one order with its lines, totals, payment, refunds, timeline and the forms of its actions.
 */
export const ORDERS_PATH = sectionPath('orders')

/** How each state of an order is named in the console. */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  paid: 'Paid',
  processing: 'Being prepared',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
}

/** The list's filters as the query gave them; anything malformed is left out. */
function filtersOf(c: Context<AppEnv>): OrderFilters {
  const { market, status, from, to, after } = c.req.query()
  const state = orderStatusSchema.safeParse(status)
  return {
    site: queriedMarket(market),
    status: state.success ? state.data : undefined,
    from: queriedDay(from),
    to: queriedDay(to),
    cursor: queriedCursor(after),
  }
}

/** `GET /_console/orders?market=&status=&from=&to=&after=`. */
export async function consoleOrdersPage(c: Context<AppEnv>): Promise<Response> {
  const filters = filtersOf(c)
  const [list, markets] = await Promise.all([
    staffOrderCalls(c.var.staffApi).orders(filters),
    staffCalls(c.var.staffApi).markets(),
  ])
  const query = { market: filters.site, status: filters.status, from: filters.from, to: filters.to }
  return sendConsolePage(c, {
    title: 'Orders',
    body: (
      <>
        <FiltersForm action={ORDERS_PATH} label="Filter the orders" clearHref={ORDERS_PATH}>
          <MarketSelect markets={markets} value={filters.site} />
          <ConsoleSelect
            label="State"
            name="status"
            value={filters.status}
            options={orderStatusSchema.options.map((status) => ({ value: status, label: STATUS_LABELS[status] }))}
          />
          <DateField label="Placed from" name="from" value={filters.from} />
          <DateField label="Placed until" name="to" value={filters.to} />
        </FiltersForm>
        <DataTable
          caption={newestFirst('Orders')}
          head={['Placed', 'Order', 'Market', 'State', 'Total', 'Customer']}
          empty="No order matches these filters."
          rows={(list?.items ?? []).map((order) => ({ key: order.code, cells: orderCells(order) }))}
        />
        {list && (
          <Pager
            meta={list.meta}
            first={!filters.cursor}
            href={(after) => withQuery(ORDERS_PATH, { ...query, after })}
          />
        )}
      </>
    ),
  })
}

function orderCells(order: StaffOrderSummary): ReactNode[] {
  return [
    <Time at={order.placed_at} />,
    <a href={`${ORDERS_PATH}/${order.code}`}>{order.code}</a>,
    order.market,
    STATUS_LABELS[order.status],
    consoleMoney(order.total, order.currency),
    <Written>{order.email}</Written>,
  ]
}

/** An order's code from the path, or the console's 404. */
export function consoleOrderCode(c: Context<AppEnv>): string {
  const code = c.req.param('code') ?? ''
  if (!/^[A-Za-z0-9-]{3,40}$/.test(code)) throw PageError.notFound('')
  return code
}

/** What each action says once done (`?done=`). */
const DONE: Record<string, string> = {
  paid: 'Marked as paid.',
  shipped: 'Shipped. The customer has been sent the tracking number.',
  cancelled: 'Cancelled.',
  refund: 'Refund sent to the payment provider. It shows as refunded once the provider confirms it.',
}

/** `GET /_console/orders/{code}`. */
export async function consoleOrderPage(c: Context<AppEnv>): Promise<Response> {
  const order = await staffOrderCalls(c.var.staffApi).order(consoleOrderCode(c))
  if (!order) throw PageError.notFound('')
  return sendOrderPage(c, order, { done: DONE[c.req.query('done') ?? ''] })
}

/** The order's page, after an action's refusal with its status, message and what was typed. */
export function sendOrderPage(
  c: Context<AppEnv>,
  order: StaffOrder,
  state: OrderFormState & { done?: string; status?: 200 | 409 | 422 | 503 } = {},
): Promise<Response> {
  const money = (minor: number) => consoleMoney(minor, order.currency)
  const tracking = trackingUrl(order.carrier, order.delivery.tracking_code)
  return sendConsolePage(c, {
    title: `Order ${order.code}`,
    status: state.status,
    body: (
      <>
        <p>
          <a href={ORDERS_PATH}>All orders</a>
        </p>
        {state.done && <Flash>{state.done}</Flash>}
        {state.refusal && <Flash tone="error">{state.refusal}</Flash>}
        <DefinitionList
          items={[
            ['State', STATUS_LABELS[order.status]],
            ['Market', order.market],
            ['Placed', <Time at={order.placed_at} />],
            ['Customer', <Written>{order.email}</Written>],
            ['Payment', `${order.payment.method.replace('_', ' ')} · ${order.payment.state}`],
            ['Payment at the provider', order.payment_id],
            [
              'Delivery',
              order.delivery.method === 'pickup' ? `Pick-up at ${order.delivery.dealer ?? ''}` : 'Home delivery',
            ],
            [
              'Shipped with',
              order.carrier && order.delivery.tracking_code ? (
                <>
                  {CARRIER_NAMES[order.carrier as Carrier] ?? order.carrier}{' '}
                  {tracking ? <a href={tracking}>{order.delivery.tracking_code}</a> : order.delivery.tracking_code}
                </>
              ) : null,
            ],
          ]}
        />
        <DataTable
          caption="Lines"
          head={['Product', 'Quantity', 'Price', 'Total']}
          rows={order.items.map((item, index) => ({
            key: index,
            cells: [
              item.variant ? `${item.name}, ${item.variant}` : item.name,
              String(item.quantity),
              money(item.unit_price),
              money(item.total),
            ],
          }))}
        />
        <DefinitionList
          items={[
            ['Subtotal', money(order.subtotal)],
            ['Shipping', money(order.shipping)],
            ['Tax', money(order.tax)],
            ['Total', money(order.total)],
            ['Refunded', order.refunded ? money(order.refunded) : null],
          ]}
        />
        <h2>Refunds</h2>
        <DataTable
          caption="Refunds"
          head={['Asked for', 'Amount', 'By', 'State']}
          empty="No refund."
          rows={order.refunds.map((refund) => ({
            key: refund.id,
            cells: [
              <Time at={refund.created_at} />,
              money(refund.amount),
              refund.staff_name ?? '—',
              refund.state === 'refunded' ? 'Confirmed by the provider' : 'Pending',
            ],
          }))}
        />
        <h2>Timeline</h2>
        <ol className="timeline">
          {timelineOf(order).map((entry, index) => (
            <li key={index}>
              <Time at={entry.at} /> {entry.text}
            </li>
          ))}
        </ol>
        <OrderActions order={order} state={state} />
      </>
    ),
  })
}

/** The customer's timeline and what staff and the provider did, in one list by time. */
function timelineOf(order: StaffOrder): Array<{ at: string; text: string }> {
  const money = (value: unknown) => (typeof value === 'number' ? consoleMoney(value, order.currency) : '')
  const by = (name: string | null) => (name ? ` by ${name}` : ' by the payment provider')
  const actions = order.actions.map(({ action, staff_name: staffName, detail, at }) => {
    const texts: Record<typeof action, string> = {
      marked_paid: `Bank transfer of ${money(detail.amount)} marked as received`,
      shipped: `Shipped with ${CARRIER_NAMES[detail.carrier as Carrier] ?? String(detail.carrier)}, tracking number ${String(detail.tracking_code)}`,
      cancelled: 'Cancelled',
      refund_requested: `Refund of ${money(detail.amount)} asked for`,
      refund_confirmed: `Refund of ${money(detail.amount)} confirmed`,
    }
    return { at, text: `${texts[action]}${by(staffName)}` }
  })
  const statuses = order.timeline.map(({ status, at }) => ({ at, text: `State: ${STATUS_LABELS[status]}` }))
  return [...statuses, ...actions].sort((a, b) => a.at.localeCompare(b.at))
}
