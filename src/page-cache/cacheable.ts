import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { LEAD_FORMS } from '../pages/lead-forms'
import { LISTING_PARAMS } from '../pages/listing-query'

/** The query parameters a listing reads: its filters and its sort. */
const LISTING_READS = Object.values(LISTING_PARAMS)

/**
 * The market pages the page cache keeps, by their path after `/{country}-{locale}`, with the query parameters each
 * reads (the only ones in its key). A path that matches none is never a candidate: account, cart, checkout, search,
 * the whistleblower channel, the newsletter's and confirmations' pages, sitemaps. Single segments are content pages
 * by their slug (`candidateOf` leaves out the dealer locator and the lead forms).
 */
const CACHEABLE: ReadonlyArray<{ path: RegExp; reads: readonly string[] }> = [
  { path: /^\/?$/, reads: [] },
  { path: /^\/products$/, reads: LISTING_READS },
  { path: /^\/products\/type\/[^/]+$/, reads: LISTING_READS },
  { path: /^\/products\/[^/]+$/, reads: [] },
  { path: /^\/news$/, reads: ['page'] },
  { path: /^\/news\/details\/[^/]+$/, reads: [] },
  { path: /^\/dealers\/[^/]+$/, reads: [] },
]

/** Content pages that are never kept: the dealer locator measures from the visitor; a lead form's token is theirs. */
const isPersonalContentPage = (key: string) => key === 'dealer-locator' || key in LEAD_FORMS

/** A page-cache candidate: the page's canonical path and the query it reads, sorted (the key's tail). */
export type Candidate = { path: string; query: string }

/**
 * Whether the page cache may answer this request of a resolved market, and under which path and query. A `notice`
 * (the page after one visitor's action) is never kept; other parameters the page does not read are left out.
 *
 * @example
 * candidateOf(c) // /it-it/products?sort=price-asc&utm_source=x → { path: '/it-it/products', query: 'sort=price-asc' }
 */
export function candidateOf(c: Context<AppEnv>): Candidate | null {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null
  const url = new URL(c.req.url)
  if (url.searchParams.has('notice')) return null
  const segment = `/${c.var.market.segment}`
  const rest = url.pathname.slice(segment.length)
  const reads = readsOf(c, rest)
  if (!reads) return null
  const kept = [...url.searchParams].filter(([name]) => reads.includes(name)).sort(([a, va], [b, vb]) => (a === b ? (va < vb ? -1 : 1) : a < b ? -1 : 1))
  return { path: url.pathname, query: new URLSearchParams(kept).toString() }
}

function readsOf(c: Context<AppEnv>, rest: string): readonly string[] | null {
  const route = CACHEABLE.find((candidate) => candidate.path.test(rest))
  if (route) return route.reads
  const slug = /^\/([a-z0-9-]+)$/.exec(rest)?.[1]
  const key = slug ? c.var.available.pageOf(slug)?.key : undefined
  return key && !isPersonalContentPage(key) ? [] : null
}
