import { carriesNotice } from '../render/one-time-notice'
import type { Context } from 'hono'
import type { MarketEnv } from '../env'
import { pageNumber } from '../components/pagination'
import { LEAD_FORMS } from '../pages/lead-forms'
import { listingSearch, parseListingQuery } from '../pages/listing-query'
import { MAX_PAGES } from '../pages/news'

/**
 * The query a page reads, written one way (its key's tail): '' for none, null when the page is not kept for it (a
 * malformed page number is "Page Not Found" for that very URL).
 */
type ReadQuery = (params: URLSearchParams, c: Context<MarketEnv>) => string | null

const NONE: ReadQuery = () => ''
/** A listing's filters and sort as the listing reads them: values it ignores make no key of their own. */
const LISTING: ReadQuery = (params, c) =>
  listingSearch(parseListingQuery(params, c.get('market').site.currency)).replace(/^\?/, '')
/** The news index's page number: `page=2`…, none for the first. */
const NEWS_PAGE: ReadQuery = (params) => {
  const page = pageNumber(params.get('page') ?? undefined, MAX_PAGES)
  return page === null ? null : page > 1 ? `page=${page}` : ''
}

/**
 * The market pages the page cache keeps, by their path after `/{country}-{locale}`, with the query each reads (the
 * only part of the query in its key, written one way). A path that matches none is never a candidate: account, cart, checkout, search,
 * the whistleblower channel, the newsletter's and confirmations' pages, sitemaps. Single segments are content pages
 * by their slug (`candidateOf` leaves out the dealer locator and the lead forms).
 */
const CACHEABLE: ReadonlyArray<{ path: RegExp; reads: ReadQuery }> = [
  { path: /^\/?$/, reads: NONE },
  { path: /^\/products$/, reads: LISTING },
  { path: /^\/products\/type\/[^/]+$/, reads: LISTING },
  { path: /^\/products\/[^/]+$/, reads: NONE },
  { path: /^\/news$/, reads: NEWS_PAGE },
  { path: /^\/news\/details\/[^/]+$/, reads: NONE },
  { path: /^\/dealers\/[^/]+$/, reads: NONE },
]

/** Content pages that are never kept: the dealer locator measures from the visitor; a lead form's token is theirs. */
const isPersonalContentPage = (key: string) => key === 'dealer-locator' || key in LEAD_FORMS

/** A page-cache candidate: the page's canonical path and the query it reads, sorted (the key's tail). */
export type Candidate = { path: string; query: string }

/**
 * Whether the page cache may answer this request of a resolved market, and under which path and query. A notice
 * (the page after one visitor's action, its one-time cookie) is never kept; other parameters the page does not read are left out.
 *
 * @example
 * candidateOf(c) // /it-it/products?sort=price-asc&min=abc&utm_source=x → { path: '/it-it/products', query: 'sort=price-asc' }
 */
export function candidateOf(c: Context<MarketEnv>): Candidate | null {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null
  const url = new URL(c.req.url)
  if (url.searchParams.has('notice') || carriesNotice(c.req.header('Cookie'))) return null
  const segment = `/${c.get('market').segment}`
  const rest = url.pathname.slice(segment.length)
  const reads = readsOf(c, rest)
  const query = reads ? reads(url.searchParams, c) : null
  return query === null ? null : { path: url.pathname, query }
}

function readsOf(c: Context<MarketEnv>, rest: string): ReadQuery | null {
  const route = CACHEABLE.find((candidate) => candidate.path.test(rest))
  if (route) return route.reads
  const slug = /^\/([a-z0-9-]+)$/.exec(rest)?.[1]
  const key = slug ? c.get('available').pageOf(slug)?.key : undefined
  return key && !isPersonalContentPage(key) ? NONE : null
}
