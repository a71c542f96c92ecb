// The page kinds and console lists issue 31 measures at scale, with what each shows: the benchmark
// (scripts/bench-scale.mjs) and the rows-read test (tests/integration/rows-read.test.ts) read this one list.

/**
 * What a page may read per item it shows (its names, prices, variants, a join) and the constant on top: a request's
 * D1 rows read stay within `shown × ROWS_PER_ITEM + ROWS_CONSTANT` (docs/decisions/067-scale-benchmark.md).
 */
export const ROWS_PER_ITEM = 8
export const ROWS_CONSTANT = 100

/**
 * Each kind: its name, its path (`:code`: the visitor's checkout; `:deep`: pathOf's deep news page), who visits (anonymous, the customer with 500
 * orders, or a console role) and the items it shows at most — a page of its list, or one thing and its few neighbours;
 * 0: counted in the answer (the sitemap part's URLs).
 */
export const PAGE_KINDS = [
  { name: 'home', path: '/it-it', visitor: 'anonymous', shown: 16 },
  { name: 'listing', path: '/it-it/products', visitor: 'anonymous', shown: 24 },
  {
    name: 'listing, filtered and sorted',
    path: '/it-it/products?discipline=road&sort=price-asc',
    visitor: 'anonymous',
    shown: 24,
  },
  { name: 'product', path: '/it-it/products/aurora-strada-9', visitor: 'anonymous', shown: 8 },
  { name: 'news index', path: '/it-it/news', visitor: 'anonymous', shown: 12 },
  // Page 50 where there is one: 100× has 63 pages of Italian articles, 10× 7, 1× one.
  { name: 'news, page 50', path: '/it-it/news?page=:deep', visitor: 'anonymous', shown: 12 },
  { name: 'article', path: '/it-it/news/details/report-sostenibilita-2025', visitor: 'anonymous', shown: 6 },
  { name: 'search', path: '/it-it/search/all?q=strada', visitor: 'anonymous', shown: 10 },
  { name: 'dealer locator, from a town', path: '/it-it/rivenditori?near=Bergamo', visitor: 'anonymous', shown: 20 },
  {
    name: 'dealer locator, from a position',
    path: '/it-it/rivenditori?lat=45.69&lng=9.67',
    visitor: 'anonymous',
    shown: 20,
  },
  { name: 'dealer page', path: '/it-it/dealers/cicli-bergamasca', visitor: 'anonymous', shown: 4 },
  { name: 'sitemap index', path: '/sitemap.xml', visitor: 'anonymous', shown: 20 },
  { name: 'sitemap part', path: '/it-it/sitemap.xml', visitor: 'anonymous', shown: 0 },
  { name: 'account overview (500 orders)', path: '/it-it/my-account', visitor: 'customer', shown: 8 },
  { name: 'orders (500 orders)', path: '/it-it/my-account/orders', visitor: 'customer', shown: 10 },
  { name: 'cart', path: '/it-it/cart', visitor: 'customer', shown: 2 },
  { name: 'checkout review', path: '/it-it/checkout/:code/review', visitor: 'customer', shown: 2 },
  { name: 'console: cases', path: '/_console/cases', visitor: 'case_handler', shown: 50 },
  { name: 'console: leads, filtered', path: '/_console/leads?kind=test_ride&market=it', visitor: 'editor', shown: 50 },
  { name: 'console: outbox', path: '/_console/outbox', visitor: 'editor', shown: 50 },
  { name: 'console: orders', path: '/_console/orders', visitor: 'editor', shown: 50 },
]

/** A kind's path at a scale: the news' deep page where the scale has one (`:deep`), the checkout's code (`:code`). */
export const pathOf = (kind, scale, code = '') =>
  kind.path.replace(':deep', String(scale >= 100 ? 50 : scale >= 10 ? 5 : 1)).replace(':code', code)

/** The items a page showed: its kind's `shown`, or the URLs its answer lists (a sitemap part). */
export const shownIn = (kind, body) => kind.shown || (body.match(/<loc>/g)?.length ?? 0)

/** The most D1 rows a request of a kind may read, by what it showed. */
export const rowsBound = (shown) => shown * ROWS_PER_ITEM + ROWS_CONSTANT
