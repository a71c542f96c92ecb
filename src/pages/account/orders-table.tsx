import type { View } from '../../components/view'
import { accountBase } from '../../components/account-layout'
import { TableScroll } from '../../components/table-scroll'
import { formatDate, formatMoney } from '../../i18n/formats'
import type { OrderSummary } from '../../upstream/account-schemas'

/** Orders as a table: code (a link to the order), date, status, total in the order's currency; named by the heading above it. */
export function OrdersTable({ view, orders, labelledBy }: { view: View; orders: OrderSummary[]; labelledBy: string }) {
  const { t, market } = view
  const tag = market!.tag
  return (
    <TableScroll labelledBy={labelledBy}>
      <table className="orders-table">
        <thead>
          <tr>
            <th scope="col">{t('orders.code')}</th>
            <th scope="col">{t('orders.date')}</th>
            <th scope="col">{t('orders.status')}</th>
            <th scope="col" className="number">
              {t('orders.total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.code}>
              <th scope="row">
                <a href={`${accountBase(view)}/orders/${encodeURIComponent(order.code)}`} aria-label={t('orders.view', { code: order.code })}>
                  {order.code}
                </a>
              </th>
              <td>
                <time dateTime={order.placed_at}>{formatDate(order.placed_at, tag)}</time>
              </td>
              <td>
                <span className={`status status-${order.status}`}>{t(`order_status.${order.status}`)}</span>
              </td>
              <td className="number">{formatMoney(order.total, order.currency, market!)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  )
}
