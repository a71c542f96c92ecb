import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import type { AppEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { formatDate, formatMoney } from '../../i18n/formats'
import type { Order } from '../../upstream/account-schemas'
import { AddressLines } from '../../components/address-lines'
import { TableScroll } from '../../components/table-scroll'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

/** One order: items, totals, addresses, delivery, payment and its history. */
export function OrderPage({ view, chrome, head, order }: AccountPageProps & { order: Order }) {
  const { t, market } = view
  const tag = market!.tag
  const money = (minor: number) => formatMoney(minor, order.currency, market!)
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <p>
        <a href={`${accountBase(view)}/orders`}>{t('order.back')}</a>
      </p>
      <h1>{t('order.title', { code: order.code })}</h1>
      <p className="meta">
        {t('order.placed_on', { date: formatDate(order.placed_at, tag) })} ·{' '}
        <span className={`status status-${order.status}`}>{t(`order_status.${order.status}`)}</span>
      </p>

      <section aria-labelledby="items-title" className="account-card">
        <h2 id="items-title">{t('order.items')}</h2>
        <TableScroll labelledBy="items-title">
          <table className="order-items">
            <thead>
              <tr>
                <th scope="col">{t('order.product')}</th>
                <th scope="col" className="number">{t('order.quantity')}</th>
                <th scope="col" className="number">{t('order.unit_price')}</th>
                <th scope="col" className="number">{t('order.line_total')}</th>
              </tr>
            </thead>
            <tbody>
              {order.items.map((item, index) => (
                <tr key={index}>
                  <th scope="row">
                    {item.name}
                    {item.variant && <span className="variant">{item.variant}</span>}
                  </th>
                  <td className="number">{item.quantity}</td>
                  <td className="number">{money(item.unit_price)}</td>
                  <td className="number">{money(item.total)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>{t('order.subtotal')}</th>
                <td className="number">{money(order.subtotal)}</td>
              </tr>
              <tr>
                <th scope="row" colSpan={3}>{t('order.shipping')}</th>
                <td className="number">{money(order.shipping)}</td>
              </tr>
              <tr className="total">
                <th scope="row" colSpan={3}>{t('order.total')}</th>
                <td className="number">{money(order.total)}</td>
              </tr>
              {order.tax > 0 && (
                <tr>
                  <th scope="row" colSpan={3}>{t('order.tax')}</th>
                  <td className="number">{money(order.tax)}</td>
                </tr>
              )}
            </tfoot>
          </table>
        </TableScroll>
      </section>

      <div className="order-columns">
        <section aria-labelledby="billing-title" className="account-card">
          <h2 id="billing-title">{t('order.billing_address')}</h2>
          <AddressLines address={order.billing_address} tag={tag} />
        </section>
        <section aria-labelledby="delivery-title" className="account-card">
          <h2 id="delivery-title">{t('order.delivery')}</h2>
          <p>
            {order.delivery.method === 'pickup'
              ? t('order.delivery_pickup', { dealer: order.delivery.dealer ?? '' })
              : t('order.delivery_home')}
          </p>
          {order.shipping_address && (
            <>
              <h3>{t('order.shipping_address')}</h3>
              <AddressLines address={order.shipping_address} tag={tag} />
            </>
          )}
          {order.delivery.tracking_code && <p>{t('order.tracking', { code: order.delivery.tracking_code })}</p>}
        </section>
        <section aria-labelledby="payment-title" className="account-card">
          <h2 id="payment-title">{t('order.payment')}</h2>
          <p>
            {t(`payment_method.${order.payment.method}`)} · {t(`payment_state.${order.payment.state}`)}
          </p>
        </section>
      </div>

      <section aria-labelledby="timeline-title" className="account-card">
        <h2 id="timeline-title">{t('order.timeline')}</h2>
        <ol className="timeline">
          {order.timeline.map((event) => (
            <li key={event.status}>
              <time dateTime={event.at}>{formatDate(event.at, tag)}</time> {t(`order_status.${event.status}`)}
            </li>
          ))}
        </ol>
      </section>
    </AccountLayout>
  )
}

/** `GET /{m}/my-account/orders/{code}`: the viewer's own order; any other code, someone else's included, is a 404. */
export async function orderPage(c: Context<AppEnv>): Promise<Response> {
  const code = c.req.param('code') ?? ''
  const order = /^[A-Za-z0-9-]{3,40}$/.test(code) ? await c.var.account.order(code) : null
  if (!order) throw PageError.pageNotFound(c.req.url)
  return sendAccountPage(c, { key: 'order.title', params: { code: order.code } }, (props) => <OrderPage {...props} order={order} />)
}
