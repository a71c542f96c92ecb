import { type ExecutionContext, Hono } from 'hono'
import { forgetBearerUsers } from './bearer-once'
import type { ApiEnv } from './context'
import { directRead, failed, setCaller } from './direct-reads'
import { account } from './resources/account'
import { auth } from './resources/auth'
import { carts } from './resources/cart'
import { cases } from './resources/cases'
import { checkouts } from './resources/checkout'
import { dealers } from './resources/dealers'
import { pageIndex } from './resources/page-index'
import { payments } from './resources/payments'
import { products } from './resources/products'
import { search } from './resources/search'
import { content } from './resources/content'
import { features } from './resources/features'
import { forms } from './resources/forms'
import { newsletter } from './resources/newsletter'
import { seo } from './resources/seo'
import { sites } from './resources/sites'
import { staff } from './resources/staff'
import { discountCodes } from './resources/discount-codes'
import { staffOrders } from './resources/staff-orders'
import { registration } from './resources/registration'
import { translations } from './resources/translations'
import { whistleblower } from './resources/whistleblower'

/**
 * The embedded reference API: the upstream contract of docs/api.md over D1. Called in-process by the upstream client
 * when `UPSTREAM_URL` is empty, and served under `/api/` to anyone.
 */
export const api = new Hono<ApiEnv>().basePath('/api')

api.use(async (c, next) => {
  setCaller(c)
  await next()
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') forgetBearerUsers(c.env.SITE_REQUEST)
})

api.route('/', auth)
api.route('/', registration)
api.route('/', account)
api.route('/', carts)
api.route('/', checkouts)
api.route('/', payments)
api.route('/', sites)
api.route('/', translations)
api.route('/', features)
api.route('/', products)
api.route('/', dealers)
api.route('/', search)
api.route('/', seo)
api.route('/', content)
api.route('/', forms)
api.route('/', newsletter)
api.route('/', pageIndex)
api.route('/', whistleblower)
api.route('/', staff)
api.route('/', discountCodes)
api.route('/', staffOrders)
api.route('/', cases)

api.notFound((c) => c.json({ message: 'Not Found' }, 404))
api.onError(failed)

/**
 * Answers a call of the site in this isolate: a read whose route the Worker knows (reference-api/direct-reads.ts) by
 * its handler alone, without the API's router and middleware chain (docs/decisions/066), every other call by `api`.
 *
 * @example
 * inProcessFetch(request, withSiteRequest(withWorkerCustomer(env, customer), siteRequest), ctx)
 */
export function inProcessFetch(
  request: Request,
  env: ApiEnv['Bindings'],
  ctx: ExecutionContext,
): Response | Promise<Response> {
  return directRead(request, env, ctx) ?? api.fetch(request, env, ctx)
}
