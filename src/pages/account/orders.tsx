import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { Pagination, pageNumber } from '../../components/pagination'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import type { OrderSummary } from '../../../contract/account-schemas'
import type { PageMeta } from '../../../contract/schemas'
import { OrdersTable } from './orders-table'
import { type AccountPageProps, sendAccountPage } from './send-account-page'

/** Orders per page of the list. */
export const ORDERS_PER_PAGE = 10

/** The orders, newest first, a page at a time. */
export function OrdersPage({
  view,
  chrome,
  head,
  orders,
  meta,
}: AccountPageProps & { orders: OrderSummary[]; meta: PageMeta }) {
  const { t } = view
  const pages = Math.max(1, Math.ceil(meta.total / meta.per_page))
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1 id="orders-title">{t('orders.title')}</h1>
      {orders.length === 0 ? (
        <p>{t('orders.none')}</p>
      ) : (
        <OrdersTable view={view} orders={orders} labelledBy="orders-title" />
      )}
      <Pagination
        view={view}
        page={meta.page}
        pages={pages}
        href={(n) => `${accountBase(view)}/orders${n > 1 ? `?page=${n}` : ''}`}
        texts={{ label: 'orders.pages', pageOf: 'orders.page_of', previous: 'orders.previous', next: 'orders.next' }}
      />
    </AccountLayout>
  )
}

/** `GET /{m}/my-account/orders?page=N`: a page past the last, or a malformed number, is "Page Not Found". */
export async function ordersPage(c: Context<MarketEnv>): Promise<Response> {
  const page = pageNumber(c.req.query('page'))
  if (!page) throw PageError.pageNotFound(c.req.url)
  const orders = await c.var.account.orders(page, ORDERS_PER_PAGE)
  const items = orders?.items ?? []
  const meta = orders?.meta ?? { page, per_page: ORDERS_PER_PAGE, total: 0 }
  if (page > 1 && items.length === 0) throw PageError.pageNotFound(c.req.url)
  return sendAccountPage(c, { key: 'orders.title' }, (props) => <OrdersPage {...props} orders={items} meta={meta} />)
}
