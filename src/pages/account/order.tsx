// biome-ignore-all lint/a11y/noRedundantRoles: a stacked table (`display: block` on phones) loses its table semantics in Safari and Chrome unless its roles are explicit
import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import { formatDate, formatMoney } from '../../i18n/formats'
import type { Order } from '../../../contract/account-schemas'
import { CARRIER_NAMES, type Carrier, trackingUrl } from '../../../contract/carriers'
import { AddressLines } from '../../components/address-lines'
import { BankTransferDetails, awaitsTransfer, bankAccountOf } from './bank-transfer'
import { Ltr, translated, variantName } from './ltr'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

/** One order: how to pay it when it waits for a bank transfer, items, totals, addresses, delivery, payment and its history. */
export function OrderPage({ view, chrome, head, order }: AccountPageProps & { order: Order }) {
  const { t, market } = view
  const tag = market.tag
  const money = (minor: number) => formatMoney(minor, order.currency, market)
  const columns = { quantity: t('order.quantity'), unit: t('order.unit_price'), total: t('order.line_total') }
  const amount = (minor: number) => <bdi>{money(minor)}</bdi>
  const tracking = trackingUrl(order.delivery.carrier, order.delivery.tracking_code)
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <p>
        <a href={`${accountBase(view)}/orders`}>{t('order.back')}</a>
      </p>
      <h1>{translated(view, 'order.title', { code: <Ltr>{order.code}</Ltr> })}</h1>
      <p className="meta">
        {t('order.placed_on', { date: formatDate(order.placed_at, tag) })} ·{' '}
        <span className={`status status-${order.status}`}>{t(`order_status.${order.status}`)}</span>
      </p>

      {awaitsTransfer(order) && (
        <div className="account-card bank-card">
          <BankTransferDetails
            view={view}
            account={bankAccountOf(chrome.sites, order.market)}
            amount={money(order.total)}
            code={order.code}
            headingId="bank-title"
          />
        </div>
      )}

      <section aria-labelledby="items-title" className="account-card">
        <h2 id="items-title">{t('order.items')}</h2>
        <table className="order-items stack-table" role="table" aria-labelledby="items-title">
          <thead>
            <tr>
              <th scope="col">{t('order.product')}</th>
              <th scope="col" className="number">
                {columns.quantity}
              </th>
              <th scope="col" className="number">
                {columns.unit}
              </th>
              <th scope="col" className="number">
                {columns.total}
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item, index) => {
              const variant = variantName(view, item)
              return (
                <tr key={index}>
                  <th scope="row" className="stack-title">
                    {item.name}
                    {variant && <span className="variant">{variant}</span>}
                    {item.sku && (
                      <span className="sku">
                        {t('order.sku')} <Ltr>{item.sku}</Ltr>
                      </span>
                    )}
                  </th>
                  <td className="number" data-label={columns.quantity}>
                    {item.quantity}
                  </td>
                  <td className="number" data-label={columns.unit}>
                    {amount(item.unit_price)}
                  </td>
                  <td className="number" data-label={columns.total}>
                    {amount(item.total)}
                  </td>
                </tr>
              )
            })}
          </tbody>
          <tfoot className="order-sums">
            <tr>
              <th scope="row" colSpan={3}>
                {t('order.subtotal')}
              </th>
              <td className="number">{amount(order.subtotal)}</td>
            </tr>
            {order.discount && (
              <tr className="discount-line">
                <th scope="row" colSpan={3}>
                  {t('order.discount', { code: order.discount.code })}
                </th>
                <td className="number">−{amount(order.discount.amount)}</td>
              </tr>
            )}
            <tr>
              <th scope="row" colSpan={3}>
                {t('order.shipping')}
              </th>
              <td className="number">{amount(order.shipping)}</td>
            </tr>
            <tr className="total">
              <th scope="row" colSpan={3}>
                {t('order.total')}
              </th>
              <td className="number">{amount(order.total)}</td>
            </tr>
            {order.tax > 0 && (
              <tr>
                <th scope="row" colSpan={3}>
                  {t('order.tax')}
                </th>
                <td className="number">{amount(order.tax)}</td>
              </tr>
            )}
          </tfoot>
        </table>
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
          {order.delivery.tracking_code && (
            <p>
              {translated(view, 'order.tracking', {
                code: tracking ? (
                  // The number opens the carrier's own tracking page; read left to right in every language.
                  <a href={tracking} dir="ltr" rel="noopener noreferrer" className="tracking-number">
                    {order.delivery.tracking_code}
                  </a>
                ) : (
                  <Ltr>{order.delivery.tracking_code}</Ltr>
                ),
              })}
            </p>
          )}
          {tracking && (
            <p>
              <a href={tracking} rel="noopener noreferrer">
                {t('order.track_parcel', { carrier: CARRIER_NAMES[order.delivery.carrier as Carrier] })}
              </a>
            </p>
          )}
        </section>
        <section aria-labelledby="payment-title" className="account-card">
          <h2 id="payment-title">{t('order.payment')}</h2>
          <p>
            {t(`payment_method.${order.payment.method}`)} · {t(`payment_state.${order.payment.state}`)}
          </p>
          {order.refunded ? (
            <p>{translated(view, 'order.refunded_amount', { amount: amount(order.refunded) })}</p>
          ) : null}
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
export async function orderPage(c: Context<MarketEnv>): Promise<Response> {
  const code = c.req.param('code') ?? ''
  const order = /^[A-Za-z0-9-]{3,40}$/.test(code) ? await c.var.account.order(code) : null
  if (!order) throw PageError.pageNotFound(c.req.url)
  return sendAccountPage(c, { key: 'order.title', params: { code: order.code } }, (props) => (
    <OrderPage {...props} order={order} />
  ))
}
