import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import type { MarketEnv } from '../../env'
import type { Bike, OrderSummary } from '../../../contract/account-schemas'
import { UpstreamError } from '../../upstream/errors'
import type { User } from '../../../contract/schemas'
import { BikeList } from './bikes'
import { Ltr } from './ltr'
import { OrdersTable } from './orders-table'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

/** How many of the latest orders the overview lists. */
const RECENT_ORDERS = 3

type OverviewProps = AccountPageProps & { user: User; orders: OrderSummary[]; bikes: Bike[] }

/** The account overview: the customer's details, recent orders, registered bikes and the ways on. */
export function AccountOverview({ view, chrome, head, user, orders, bikes }: OverviewProps) {
  const { t } = view
  const base = accountBase(view)
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1>{t('account.welcome', { name: user.first_name })}</h1>
      {!user.email_confirmed && (
        <section aria-labelledby="confirm-title" className="account-card confirm-banner">
          <h2 id="confirm-title">{t('confirm.banner_title')}</h2>
          <p>
            {t('confirm.banner_before')} <Ltr>{user.email}</Ltr>
          </p>
          <p>{t('confirm.banner_text')}</p>
          <form method="post" action={`${base}/confirm-email`}>
            <button type="submit" className="button secondary">
              {t('confirm.resend')}
            </button>
          </form>
        </section>
      )}
      <section aria-labelledby="details-title" className="account-card">
        <h2 id="details-title">{t('account.details')}</h2>
        <dl className="details">
          <dt>{t('account.name')}</dt>
          <dd>{user.name}</dd>
          <dt>{t('account.email')}</dt>
          <dd>
            <Ltr>{user.email}</Ltr>
          </dd>
          {user.phone && (
            <>
              <dt>{t('account.phone')}</dt>
              <dd>
                <Ltr>{user.phone}</Ltr>
              </dd>
            </>
          )}
        </dl>
        <p>
          <a href={`${base}/addresses`}>{t('account.manage_addresses')}</a>
        </p>
      </section>
      <section aria-labelledby="recent-orders-title" className="account-card">
        <h2 id="recent-orders-title">{t('account.recent_orders')}</h2>
        {orders.length === 0 ? (
          <p>{t('account.no_orders')}</p>
        ) : (
          <OrdersTable view={view} orders={orders} labelledBy="recent-orders-title" />
        )}
        <p>
          <a href={`${base}/orders`}>{t('account.all_orders')}</a>
        </p>
      </section>
      <section aria-labelledby="bikes-title" className="account-card">
        <h2 id="bikes-title">{t('account.your_bikes')}</h2>
        {bikes.length === 0 ? <p>{t('account.no_bikes')}</p> : <BikeList view={view} bikes={bikes} level={3} />}
        <p>
          <a href={`${base}/bikes#register`}>{t('account.register_bike_cta')}</a>
        </p>
      </section>
    </AccountLayout>
  )
}

/** `GET /{m}/my-account`: profile, latest orders and bikes, fetched together with the viewer's token. */
export async function accountOverview(c: Context<MarketEnv>): Promise<Response> {
  const { account } = c.var
  const [profile, orders, bikes] = await Promise.all([
    account.profile(),
    account.orders(1, RECENT_ORDERS),
    account.bikes(),
  ])
  if (!profile) throw new UpstreamError('invalid', 'account/profile')
  return sendAccountPage(c, { key: 'account.title' }, (props) => (
    <AccountOverview {...props} user={profile} orders={orders?.items ?? []} bikes={bikes} />
  ))
}
