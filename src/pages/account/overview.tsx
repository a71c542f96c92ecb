import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { configOf } from '../../config'
import type { MarketEnv } from '../../env'
import { availableFor } from '../../market/request-availability'
import type { Bike, ListedOrder } from '../../../contract/account-schemas'
import { UpstreamError } from '../../upstream/errors'
import type { User } from '../../../contract/schemas'
import { BikeList } from './bikes'
import { Ltr } from './ltr'
import { OrdersTable } from './orders-table'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

/** How many of the latest orders the overview lists. */
const RECENT_ORDERS = 3

/**
 * The overview's lists, each null where the backend does not serve it, and whether it serves the addresses (the
 * overview links their page but shows none of them).
 */
type OverviewLists = { orders: ListedOrder[] | null; bikes: Bike[] | null; addresses: boolean }

type OverviewProps = AccountPageProps & { user: User } & OverviewLists

/** The account's pages whose list the backend does not serve: not linked (`/orders`, …). */
const unservedPages = ({ orders, bikes, addresses }: OverviewLists): string[] =>
  [orders ? null : '/orders', bikes ? null : '/bikes', addresses ? null : '/addresses'].filter(
    (path): path is string => path !== null,
  )

/**
 * The account overview: the customer's details, recent orders, registered bikes and the ways on. A list the backend
 * does not serve says "not available here", and its page is not linked.
 */
export function AccountOverview({ view, chrome, head, user, orders, bikes, addresses }: OverviewProps) {
  const { t } = view
  const base = accountBase(view)
  const confirming = !user.email_confirmed && chrome.available.has('email-confirmation')
  const notAvailable = <p className="not-available">{t('account.not_available')}</p>
  return (
    <AccountLayout view={view} chrome={chrome} head={head} unlinked={unservedPages({ orders, bikes, addresses })}>
      <h1>{t('account.welcome', { name: user.first_name })}</h1>
      {confirming && (
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
          {!addresses && (
            <>
              <dt>{t('address.title')}</dt>
              <dd>{t('account.not_available')}</dd>
            </>
          )}
        </dl>
        {addresses && (
          <p>
            <a href={`${base}/addresses`}>{t('account.manage_addresses')}</a>
          </p>
        )}
      </section>
      <section aria-labelledby="recent-orders-title" className="account-card">
        <h2 id="recent-orders-title">{t('account.recent_orders')}</h2>
        {!orders ? (
          notAvailable
        ) : orders.length === 0 ? (
          <p>{t('account.no_orders')}</p>
        ) : (
          <OrdersTable view={view} orders={orders} labelledBy="recent-orders-title" />
        )}
        {orders && (
          <p>
            <a href={`${base}/orders`}>{t('account.all_orders')}</a>
          </p>
        )}
      </section>
      <section aria-labelledby="bikes-title" className="account-card">
        <h2 id="bikes-title">{t('account.your_bikes')}</h2>
        {!bikes ? (
          notAvailable
        ) : bikes.length === 0 ? (
          <p>{t('account.no_bikes')}</p>
        ) : (
          <BikeList view={view} bikes={bikes} level={3} />
        )}
        {bikes && (
          <p>
            <a href={`${base}/bikes#register`}>{t('account.register_bike_cta')}</a>
          </p>
        )}
      </section>
    </AccountLayout>
  )
}

/**
 * `GET /{m}/my-account`: profile, latest orders, bikes and the addresses' link with the viewer's token; a list of an area the
 * deployment lacks is not shown (nor asked a backend for), and one the backend does not serve (404) is null: the
 * overview then shows what the user alone gives.
 */
export async function accountOverview(c: Context<MarketEnv>): Promise<Response> {
  const { user, cartCount, ...lists } = await overviewData(c)
  return sendAccountPage(
    c,
    { key: 'account.title' },
    (props) => <AccountOverview {...props} user={user} {...lists} />,
    200,
    { cartCount },
  )
}

/**
 * The overview's user and lists. From the embedded API (no `UPSTREAM_URL`), one call answers them all, the header's
 * cart count too (issue 33: one token lookup, one statement, one call a page), and the addresses are served where the
 * deployment has their area (the call does not read them: docs/decisions/084); from a backend, one call each (its
 * areas may be answered by different APIs: the held shop's orders, docs/decisions/043), the addresses' to learn
 * whether it serves them. The lists of areas the deployment lacks are null (or not served) either way.
 */
async function overviewData(c: Context<MarketEnv>): Promise<OverviewLists & { user: User; cartCount?: number | null }> {
  const { account } = c.var
  const available = await availableFor(c)
  if (configOf(c.env).upstream.kind === 'embedded') {
    const overview = await account.overview(RECENT_ORDERS)
    if (!overview) throw new UpstreamError('invalid', 'account/overview')
    const { user, orders, bikes, cart_item_count } = overview
    return {
      user,
      cartCount: cart_item_count,
      orders: available.has('account-orders') ? orders : null,
      bikes: available.has('account-bikes') ? bikes : null,
      addresses: available.has('account-addresses'),
    }
  }
  const [user, orders, bikes, addresses] = await Promise.all([
    account.profile(),
    available.has('account-orders') ? account.orders(1, RECENT_ORDERS) : null,
    available.has('account-bikes') ? account.bikes() : null,
    available.has('account-addresses') ? account.addresses() : null,
  ])
  if (!user) throw new UpstreamError('invalid', 'account/profile')
  return { user, orders: orders?.items ?? null, bikes, addresses: addresses !== null }
}
