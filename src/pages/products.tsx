import type { Context } from 'hono'
import type { ListingUpdatesProps } from '../../client/islands/listing-updates'
import { IslandNames } from '../../client/islands/names'
import { Caching } from '../cache/answer-caching'
import { Island } from '../components/island'
import { DefaultLayout } from '../components/layouts'
import { type HeadProps, headFromSeo } from '../components/page-head'
import { Pagination } from '../components/pagination'
import { ProductCards } from '../components/product-cards'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { formatCount, formatMoney } from '../i18n/formats'
import { sendPage, viewOf } from '../render/respond'
import { indexedAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageGroups } from '../seo/page-groups'
import { breadcrumbs } from '../seo/structured-data'
import { modelSeo } from '../seo/page-seo'
import { LISTING_SORTS, type ProductType } from '../../contract/catalogue-schemas'
import { loadChrome } from './chrome'
import {
  LISTING_PARAMS,
  LISTING_PER_PAGE,
  type ListingPage,
  type ListingQuery,
  listingParams,
  listingSearch,
  pageOfList,
  parseListingQuery,
  withoutFilters,
} from './listing-query'

/** The ids the listing's island finds its parts by. */
export const LISTING_IDS = { form: 'listing-form', results: 'listing-results', count: 'listing-count' } as const

type ListingProps = {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  title: string
  types: ProductType[]
  /** The page of products the query shows, with the listing's total and facet counts. */
  listing: ListingPage
  query: ListingQuery
}

/**
 * A product listing (every product, or one type's) with its filters and orders. The filters are one plain GET form
 * (its "Show results" button reloads the listing without JavaScript), in a `<details>` that is a panel on phones and
 * always open beside the results on wider screens. With JavaScript a small lazy island sends the form on each
 * change, replaces the results with those of the same URL and announces their number.
 */
export function ProductsPage({ view, chrome, head, title, types, listing, query }: ListingProps) {
  const { t } = view
  const market = view.market
  const base = `/${market.segment}/products`
  const { products: shown, total, facets } = listing
  const pages = Math.max(1, Math.ceil(total / LISTING_PER_PAGE))
  const price = (minor: number) => formatMoney(minor, market.site.currency, market)
  const applied = appliedFilters(view, query, price)
  const here = view.path
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="band listing">
        <h1>{title}</h1>
        <nav className="type-links" aria-label={t('header.products')}>
          <ul>
            <li>
              <a href={base} aria-current={here === base ? 'page' : undefined}>
                {t('product.all_products')}
              </a>
            </li>
            {types.map((type) => (
              <li key={type.id}>
                <a
                  href={`${base}/type/${type.slug}`}
                  aria-current={here === `${base}/type/${type.slug}` ? 'page' : undefined}
                >
                  {type.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="listing-layout">
          <details className="listing-filters">
            <summary>
              {t('listing.filters')}
              {applied.length > 0 && <span className="listing-filters-count">{` (${applied.length})`}</span>}
            </summary>
            <form
              method="get"
              action={here}
              id={LISTING_IDS.form}
              className="filter-form"
              aria-label={t('listing.filters')}
            >
              <FacetChoices
                view={view}
                name={LISTING_PARAMS.discipline}
                legend="listing.discipline"
                labels="listing.disciplines"
                counts={facets.discipline}
                chosen={query.disciplines}
              />
              {(Object.keys(facets.ebike).length > 1 || query.eBike !== null) && (
                <fieldset>
                  <legend>{t('listing.e_bike')}</legend>
                  {(['', 'yes', 'no'] as const).map((value) => {
                    const count = value ? (facets.ebike[value] ?? 0) : null
                    const chosen = (query.eBike ?? '') === value
                    return (
                      <label key={value} className="filter-choice">
                        <input
                          type="radio"
                          name={LISTING_PARAMS.eBike}
                          value={value}
                          defaultChecked={chosen}
                          disabled={count === 0 && !chosen}
                        />
                        <span>{t(`listing.e_bike_${value || 'any'}`)}</span>
                        {count !== null && <FacetCount view={view} count={count} />}
                      </label>
                    )
                  })}
                </fieldset>
              )}
              <FacetChoices
                view={view}
                name={LISTING_PARAMS.material}
                legend="listing.material"
                labels="listing.materials"
                counts={facets.material}
                chosen={query.materials}
              />
              <fieldset className="filter-price">
                <legend>
                  {t('listing.price', { currency: market.site.default_currency_token || market.site.currency })}
                </legend>
                <label>
                  <span>{t('listing.price_min')}</span>
                  <input
                    type="number"
                    name={LISTING_PARAMS.min}
                    min={0}
                    step={1}
                    inputMode="numeric"
                    defaultValue={query.minText}
                    dir="ltr"
                  />
                </label>
                <label>
                  <span>{t('listing.price_max')}</span>
                  <input
                    type="number"
                    name={LISTING_PARAMS.max}
                    min={0}
                    step={1}
                    inputMode="numeric"
                    defaultValue={query.maxText}
                    dir="ltr"
                  />
                </label>
              </fieldset>
              <fieldset>
                <legend>{t('listing.availability')}</legend>
                <label className="filter-choice">
                  <input
                    type="checkbox"
                    name={LISTING_PARAMS.stock}
                    value="1"
                    defaultChecked={query.inStock}
                    disabled={facets.stock === 0 && !query.inStock}
                  />
                  <span>{t('listing.in_stock')}</span>
                  <FacetCount view={view} count={facets.stock} />
                </label>
              </fieldset>
              <button type="submit" className="button filter-submit">
                {t('listing.show_results')}
              </button>
            </form>
          </details>
          <div className="listing-main">
            <div className="listing-toolbar">
              <label className="listing-sort">
                <span>{t('listing.sort')}</span>
                <select name={LISTING_PARAMS.sort} form={LISTING_IDS.form} defaultValue={query.sort}>
                  {LISTING_SORTS.map((value) => (
                    <option key={value} value={value}>
                      {t(`listing.sorts.${value.replace('-', '_')}`)}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" form={LISTING_IDS.form} className="button secondary listing-sort-apply">
                {t('listing.apply_sort')}
              </button>
            </div>
            <Island
              name={IslandNames.listingUpdates}
              component={ListingStatus}
              props={{ form: LISTING_IDS.form, results: LISTING_IDS.results, count: LISTING_IDS.count }}
            />
            <section id={LISTING_IDS.results} className="listing-results" aria-labelledby={LISTING_IDS.count}>
              <h2 id={LISTING_IDS.count} className="listing-count">
                {total === 1
                  ? t('listing.count_one')
                  : t('listing.count', { count: formatCount(total, view.market.tag) })}
              </h2>
              {applied.length > 0 && (
                <ul className="filter-chips" aria-label={t('listing.applied')}>
                  {applied.map((filter) => (
                    <li key={filter.href}>
                      <a href={`${here}${filter.href}`} aria-label={t('listing.remove', { filter: filter.label })}>
                        {filter.label}
                        <span aria-hidden="true" className="chip-x">
                          ×
                        </span>
                      </a>
                    </li>
                  ))}
                  <li>
                    <a href={`${here}${listingSearch(withoutFilters(query))}`} className="filter-clear">
                      {t('listing.clear')}
                    </a>
                  </li>
                </ul>
              )}
              {shown.length === 0 ? (
                <p className="listing-none">{applied.length === 0 ? t('product.none') : t('listing.none')}</p>
              ) : (
                <ProductCards view={view} products={shown} price={price} first="eager" />
              )}
              <Pagination
                view={view}
                page={query.page}
                pages={pages}
                href={(n) => `${here}${listingSearch({ ...query, page: n })}`}
                texts={{
                  label: 'listing.pages',
                  pageOf: 'listing.page_of',
                  previous: 'listing.previous',
                  next: 'listing.next',
                }}
              />
            </section>
          </div>
        </div>
      </div>
    </DefaultLayout>
  )
}

/** The filters a query applies, each with its label and the query string without it. */
function appliedFilters(
  view: MarketView,
  query: ListingQuery,
  price: (minor: number) => string,
): Array<{ label: string; href: string }> {
  const { t } = view
  // Removing a filter starts the listing again from its first page.
  const without = (change: Partial<ListingQuery>) => listingSearch({ ...query, ...change, page: 1 })
  const filters = [
    ...query.disciplines.map((value) => ({
      label: t(`listing.disciplines.${value}`),
      href: without({ disciplines: query.disciplines.filter((other) => other !== value) }),
    })),
    ...(query.eBike ? [{ label: t(`listing.e_bike_${query.eBike}`), href: without({ eBike: null }) }] : []),
    ...query.materials.map((value) => ({
      label: t(`listing.materials.${value}`),
      href: without({ materials: query.materials.filter((other) => other !== value) }),
    })),
  ]
  const { minPrice, maxPrice } = query
  const noPrice = { minPrice: null, maxPrice: null, minText: '', maxText: '' }
  if (minPrice !== null && maxPrice !== null)
    filters.push({
      label: t('listing.price_between', { min: price(minPrice), max: price(maxPrice) }),
      href: without(noPrice),
    })
  else if (minPrice !== null)
    filters.push({ label: t('listing.price_from', { price: price(minPrice) }), href: without(noPrice) })
  else if (maxPrice !== null)
    filters.push({ label: t('listing.price_up_to', { price: price(maxPrice) }), href: without(noPrice) })
  if (query.inStock) filters.push({ label: t('listing.in_stock'), href: without({ inStock: false }) })
  return filters
}

/**
 * `GET /{m}/products` (every type the market sells) and `GET /{m}/products/type/{type}` (one type; a type the market
 * does not sell is "Page Not Found"), filtered, ordered and paged by the query string (src/pages/listing-query.ts):
 * the backend answers one page with the facet counts (docs/decisions/069); a page past the last is "Page Not Found".
 * A filtered or reordered URL's canonical is the unfiltered listing, which is the one search engines index; its page
 * 2 onwards is canonical to itself.
 */
export async function productsPage(c: Context<MarketEnv>): Promise<Response> {
  const { market, api, t } = c.var
  const typeSlug = c.req.param('type')
  const [types, chrome] = await Promise.all([api.catalogue.types(), loadChrome(c)])
  const shown = types.filter((type) => typeSlug === undefined || type.slug === typeSlug)
  if (typeSlug !== undefined && shown.length === 0) throw PageError.pageNotFound(c.req.url)
  const query = parseListingQuery(new URL(c.req.url).searchParams, market.site.currency)
  const listing = await loadListing(c, typeSlug, shown, query)
  if (query.page > Math.max(1, Math.ceil(listing.total / LISTING_PER_PAGE))) throw PageError.pageNotFound(c.req.url)
  const title = typeSlug === undefined ? t('product.all_products') : (shown[0] as ProductType).name
  const view = viewOf(c, t, market)
  const seo = await (typeSlug === undefined
    ? modelSeo(api, 'Listing', 'products')
    : modelSeo(api, 'ProductType', (shown[0] as ProductType).id))
  // The plain listing's page as read (a malformed number is the first page); any filter or order: the listing.
  const canonicalAddress = new URL(c.req.url)
  canonicalAddress.search = listingSearch({ ...query, page: 1 }) === '' && query.page > 1 ? `?page=${query.page}` : ''
  const head: HeadProps = {
    ...headFromSeo(seo, { title: `${title} · ${t('brand.name')}`, description: t('brand.tagline') }, view.origin),
    // Filters and orders are not pages of their own: every one's canonical is the listing without them; the plain
    // listing's later pages are pages of their own.
    canonical: canonicalUrl(view.origin, canonicalAddress.href, ['page']),
    alternates: await indexedAlternates(c, chrome.sites, (places, index) =>
      typeSlug === undefined ? pageGroups.products(places, index) : pageGroups.productType(places, index, typeSlug),
    ),
    // A type's listing sits under the listing of every product.
    structuredData:
      view.origin && typeSlug !== undefined
        ? [
            breadcrumbs(view.origin, [
              { name: t('header.home'), path: `/${market.segment}` },
              { name: t('product.all_products'), path: `/${market.segment}/products` },
              { name: title, path: `/${market.segment}/products/type/${typeSlug}` },
            ]),
          ]
        : [],
  }
  return sendPage(
    c,
    <ProductsPage
      view={view}
      chrome={chrome}
      head={head}
      title={title}
      types={types}
      listing={listing}
      query={query}
    />,
    {
      caching: Caching.shared,
    },
  )
}

/**
 * A page of the listing: from the backend's filtered listing, or, from a backend that answers no facet counts (it
 * does not filter), from every product of the listing's types (each list as short as a type is) filtered here.
 */
async function loadListing(
  c: Context<MarketEnv>,
  typeSlug: string | undefined,
  types: ProductType[],
  query: ListingQuery,
): Promise<ListingPage> {
  const { api } = c.var
  const answer = await api.catalogue.listing(listingParams(query, typeSlug))
  if (answer.facets) return { products: answer.products, total: answer.total, facets: answer.facets }
  const lists = await Promise.all(types.map((type) => api.catalogue.products(type.slug)))
  return pageOfList(lists.flat(), query)
}

/**
 * A filter of several values (disciplines, frame materials) as checkboxes, each with the number of products it would
 * list; a value the other filters leave none of stays, disabled (unless chosen). Left out when the listing has none.
 */
function FacetChoices({
  view,
  name,
  legend,
  labels,
  counts,
  chosen,
}: {
  view: MarketView
  name: string
  legend: string
  labels: string
  counts: Record<string, number>
  chosen: readonly string[]
}) {
  const values = [...Object.keys(counts), ...chosen.filter((value) => !Object.hasOwn(counts, value))]
  if (values.length === 0) return null
  return (
    <fieldset>
      <legend>{view.t(legend)}</legend>
      {values.map((value) => {
        const count = counts[value] ?? 0
        const checked = chosen.includes(value)
        return (
          <label key={value} className="filter-choice">
            <input
              type="checkbox"
              name={name}
              value={value}
              defaultChecked={checked}
              disabled={count === 0 && !checked}
            />
            <span>{view.t(`${labels}.${value}`)}</span>
            <FacetCount view={view} count={count} />
          </label>
        )
      })}
    </fieldset>
  )
}

/** The listing's status line, which says the new number of results once a filter applies (client/islands/listing-updates.ts). */
function ListingStatus(_: ListingUpdatesProps) {
  return <p className="visually-hidden" role="status" />
}

/** A filter value's number of products, in the market's digits: "Road (12)". */
function FacetCount({ view, count }: { view: MarketView; count: number }) {
  return <span className="facet-count">{`(${formatCount(count, view.market.tag)})`}</span>
}
