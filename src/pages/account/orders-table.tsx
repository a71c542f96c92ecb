// biome-ignore-all lint/a11y/noRedundantRoles: a stacked table (`display: block` on phones) loses its table semantics in Safari and Chrome unless its roles are explicit
import type { MarketView } from '../../components/view'
import { accountBase } from '../../components/account-layout'
import { formatDate, formatMoney } from '../../i18n/formats'
import type { ListedOrder } from '../../../contract/account-schemas'
import { Ltr } from './ltr'

/**
 * Orders as a table: code (a link to the order), date, status, total in the order's currency; named by the heading
 * above it. On a phone each row becomes a card (`.stack-table`): the code as its title, then each value beside its
 * column's name (`data-label`), so every amount is in view without scrolling sideways. The explicit roles keep it a
 * table for assistive technology when CSS changes how its parts are displayed.
 */
export function OrdersTable({
  view,
  orders,
  labelledBy,
}: {
  view: MarketView
  orders: ListedOrder[]
  labelledBy: string
}) {
  const { t, market } = view
  const tag = market.tag
  const columns = { date: t('orders.date'), status: t('orders.status'), total: t('orders.total') }
  return (
    <table className="orders-table stack-table" role="table" aria-labelledby={labelledBy}>
      <thead>
        <tr>
          <th scope="col">{t('orders.code')}</th>
          <th scope="col">{columns.date}</th>
          <th scope="col">{columns.status}</th>
          <th scope="col" className="number">
            {columns.total}
          </th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.code}>
            <th scope="row" className="stack-title">
              <a
                href={`${accountBase(view)}/orders/${encodeURIComponent(order.code)}`}
                aria-label={t('orders.view', { code: order.code })}
              >
                <Ltr>{order.code}</Ltr>
              </a>
            </th>
            <td data-label={columns.date}>
              <time dateTime={order.placed_at}>{formatDate(order.placed_at, tag)}</time>
            </td>
            <td data-label={columns.status}>
              <span className={`status status-${order.status}`}>{t(`order_status.${order.status}`)}</span>
            </td>
            <td data-label={columns.total} className="number">
              <bdi>{formatMoney(order.total, order.currency, market)}</bdi>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
