import type { View } from '../../components/view'
import { countryName, formatDate, formatMoney } from '../../i18n/formats'
import type { OrderSummary, PostalAddress } from '../../upstream/account-schemas'
import { accountBase } from '../../components/account-layout'

/** Orders as a table: code (a link to the order), date, status, total in the order's currency. */
export function OrdersTable({ view, orders }: { view: View; orders: OrderSummary[] }) {
  const { t, market } = view
  const tag = market!.tag
  return (
    <div className="table-scroll">
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
              <td className="number">{formatMoney(order.total, order.currency, tag)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A postal address as lines, the country named in the market's language (an order's, or one of the address book). */
export function AddressLines({ address, tag }: { address: PostalAddress; tag: string }) {
  const lines = [
    `${address.first_name} ${address.last_name}`,
    address.company,
    address.line1,
    address.line2,
    `${address.postal_code} ${address.city}${address.region ? ` (${address.region})` : ''}`,
    countryName(address.country_code, tag),
  ].filter(Boolean)
  return (
    <address>
      {lines.map((line, index) => (
        <span key={index} className="address-line" dir="auto">
          {line}
        </span>
      ))}
      {address.phone && (
        <span className="address-line" dir="ltr">
          {address.phone}
        </span>
      )}
    </address>
  )
}
