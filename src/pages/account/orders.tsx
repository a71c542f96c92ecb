import type { Context } from 'hono'
import { AccountLayout, accountBase } from '../../components/account-layout'
import { Pagination, pageNumber } from '../../components/pagination'
import type { MarketEnv } from '../../env'
import { PageError } from '../../errors/page-error'
import type { OrderSummary } from '../../../contract/account-schemas'
import type { ListMeta } from '../../../contract/schemas'
import type { MarketView } from '../../components/view'
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
  first,
}: AccountPageProps & { orders: OrderSummary[]; meta: ListMeta; first: boolean }) {
  const { t } = view
  return (
    <AccountLayout view={view} chrome={chrome} head={head}>
      <h1 id="orders-title">{t('orders.title')}</h1>
      {orders.length === 0 ? (
        <p>{t('orders.none')}</p>
      ) : (
        <OrdersTable view={view} orders={orders} labelledBy="orders-title" />
      )}
      {'total' in meta ? (
        <Pagination
          view={view}
          page={meta.page}
          pages={Math.max(1, Math.ceil(meta.total / meta.per_page))}
          href={(n) => `${accountBase(view)}/orders${n > 1 ? `?page=${n}` : ''}`}
          texts={{ label: 'orders.pages', pageOf: 'orders.page_of', previous: 'orders.previous', next: 'orders.next' }}
        />
      ) : (
        <OlderOrders view={view} next={meta.next_cursor} first={first} />
      )}
    </AccountLayout>
  )
}

/**
 * The way through orders paged by keyset (docs/decisions/068): back to the newest once past them, and on to the older
 * ones while there are more; no page numbers, since a keyset page does not know its number.
 */
function OlderOrders({ view, next, first }: { view: MarketView; next: string | null; first: boolean }) {
  if (first && !next) return null
  const { t } = view
  const base = `${accountBase(view)}/orders`
  return (
    <nav className="pagination" aria-label={t('orders.pages')}>
      {!first && <a href={base}>{t('orders.newest')}</a>}
      {next && (
        <a href={`${base}?after=${encodeURIComponent(next)}`} rel="next">
          {t('orders.older')}
        </a>
      )}
    </nav>
  )
}

/**
 * `GET /{m}/my-account/orders?after=…` (a page by keyset, where the backend answers cursors; a cursor the backend did
 * not give is its 400) or `?page=N` (by number, where it does not: a page past the last, or a malformed number, is
 * "Page Not Found").
 */
export async function ordersPage(c: Context<MarketEnv>): Promise<Response> {
  const after = c.req.query('after')
  const page = after === undefined ? pageNumber(c.req.query('page')) : 1
  if (!page || after === '') throw PageError.pageNotFound(c.req.url)
  const orders = await c.var.account.orders(page, ORDERS_PER_PAGE, after ?? (page === 1 ? '' : undefined))
  const items = orders?.items ?? []
  const meta = orders?.meta ?? { page, per_page: ORDERS_PER_PAGE, total: 0 }
  if ((page > 1 || after !== undefined) && items.length === 0) throw PageError.pageNotFound(c.req.url)
  return sendAccountPage(c, { key: 'orders.title' }, (props) => (
    <OrdersPage {...props} orders={items} meta={meta} first={after === undefined} />
  ))
}
