import { ResponsiveImage } from '../components/responsive-image'
import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { type HeadProps, headFromSeo } from '../components/page-head'
import { Pagination, pageNumber } from '../components/pagination'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { sendPage, viewOf } from '../render/respond'
import { canonicalUrl } from '../seo/canonical'
import { modelSeo } from '../seo/page-seo'
import type { SearchResult } from '../../contract/catalogue-schemas'
import type { PageMeta } from '../../contract/schemas'
import { loadChrome } from './chrome'
import { articlePath } from '../components/news-cards'
import { formatMoney } from '../i18n/formats'
import { namedProducts } from '../search/named-products'
import { disciplinesIn, disciplineWordsOf, rankedResults, searchVocabulary } from '../search/ranking'
import { type Suggestion, suggestionIndexOf } from '../search/suggestion-index'
import { correctedQuery } from '../search/typo-tolerance'

/** The kinds of search page, in the order of their tabs. */
export const SEARCH_TYPES = ['all', 'products', 'news', 'dealers'] as const
type SearchType = (typeof SEARCH_TYPES)[number]

const RESULTS_PER_PAGE = 10
const MAX_PAGES = 50
const MAX_QUERY = 100

/** The URL of a search page. */
export const searchUrl = (segment: string, type: SearchType, q: string, page = 1) =>
  `/${segment}/search/${type}?q=${encodeURIComponent(q)}${page > 1 ? `&page=${page}` : ''}`

function resultUrl(segment: string, result: Pick<SearchResult, 'kind' | 'slug'>): string {
  if (result.kind === 'product') return `/${segment}/products/${result.slug}`
  if (result.kind === 'news') return articlePath(segment, result.slug)
  return `/${segment}/dealers/${result.slug}`
}

type SearchProps = {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  type: SearchType
  q: string
  /** The results, a product's with its price in the market's currency and format. */
  results: Array<Omit<SearchResult, 'price'> & { price: string | null }>
  meta: PageMeta
  /** The query searched instead of the visitor's words, which found nothing ("stradda" → "Strada"), or null. */
  corrected: string | null
  /** What an empty result offers: a few of the market's bikes (the listing and the dealers are linked beside). */
  bikes: Suggestion[]
  /** The dealer locator's URL, or null where the market has none. */
  dealersUrl: string | null
}

/** Bikes an empty result offers. */
const OFFERED_BIKES = 3

/** The search page: the box (the query kept), a tab per kind, the ranked results or an empty state, paging. */
export function SearchPage({ view, chrome, head, type, q, results, meta, corrected, bikes, dealersUrl }: SearchProps) {
  const { t } = view
  const segment = view.market.segment
  const pages = Math.min(MAX_PAGES, Math.max(1, Math.ceil(meta.total / meta.per_page)))
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="band search">
        <h1>{q ? t('search.results_for', { q }) : t('search.title')}</h1>
        <form
          method="get"
          action={`/${segment}/search/${type}`}
          role="search"
          className="search-form"
          aria-label={t('search.title')}
        >
          <label htmlFor="search-q" className="visually-hidden">
            {t('header.search_label')}
          </label>
          <input
            id="search-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={MAX_QUERY}
            placeholder={t('header.search_placeholder')}
          />
          <button type="submit" className="button">
            {t('search.submit')}
          </button>
        </form>
        <nav className="type-links" aria-label={t('search.types')}>
          <ul>
            {SEARCH_TYPES.map((tab) => (
              <li key={tab}>
                <a href={searchUrl(segment, tab, q)} aria-current={tab === type ? 'page' : undefined}>
                  {t(`search.${tab}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {!q ? (
          <p>{t('search.prompt')}</p>
        ) : results.length === 0 ? (
          <EmptyResult view={view} q={q} bikes={bikes} dealersUrl={dealersUrl} />
        ) : (
          <>
            {corrected && <p className="search-corrected">{t('search.corrected', { q: corrected })}</p>}
            <p className="meta" role="status">
              {countText(view, meta, results.length)}
            </p>
            <ol className="results">
              {results.map((result) => (
                <li key={`${result.kind}:${result.slug}`} className="result">
                  {result.image && (
                    <ResponsiveImage
                      src={result.image}
                      alt=""
                      width={120}
                      height={80}
                      place="thumb"
                      resizing={view.imageResizing ?? false}
                    />
                  )}
                  <div>
                    <p className="eyebrow">{t(`search.kind_${result.kind}`)}</p>
                    <h2>
                      <a href={resultUrl(segment, result)}>{result.title}</a>
                    </h2>
                    {result.price && <p className="result-price">{result.price}</p>}
                    {result.excerpt && <p>{result.excerpt}</p>}
                  </div>
                </li>
              ))}
            </ol>
          </>
        )}
        <Pagination
          view={view}
          page={meta.page}
          pages={pages}
          href={(n) => searchUrl(segment, type, q, n)}
          texts={{ label: 'search.pages', pageOf: 'news.page_of', previous: 'search.previous', next: 'search.next' }}
        />
      </div>
    </DefaultLayout>
  )
}

/**
 * What the page says of its results: how many when they all fit this first page; else which of them it shows ("Results
 * 11–20"), as the backend need not count every match of a common word (docs/decisions/077).
 */
function countText({ t }: MarketView, meta: PageMeta, shown: number): string {
  if (meta.page === 1 && meta.total <= shown)
    return shown === 1 ? t('search.count_one') : t('search.count', { count: shown })
  const from = (meta.page - 1) * meta.per_page + 1
  return t('search.range', { from, to: from + shown - 1 })
}

/** An empty result with a way on: the words to try, a few of the market's bikes, the listing and the dealers. */
function EmptyResult({
  view,
  q,
  bikes,
  dealersUrl,
}: {
  view: MarketView
  q: string
  bikes: Suggestion[]
  dealersUrl: string | null
}) {
  const { t } = view
  return (
    <div className="search-empty">
      <p className="empty">{t('search.empty', { q })}</p>
      <p>{t('search.empty_offer')}</p>
      {bikes.length > 0 && (
        <ul className="search-offers">
          {bikes.map((bike) => (
            <li key={bike.slug}>
              <a href={bike.url}>
                {bike.image && (
                  <ResponsiveImage
                    src={bike.image}
                    alt=""
                    width={120}
                    height={80}
                    place="thumb"
                    resizing={view.imageResizing ?? false}
                  />
                )}
                <span className="search-offer-title">{bike.title}</span>
                {bike.detail && <span className="search-offer-price">{bike.detail}</span>}
              </a>
            </li>
          ))}
        </ul>
      )}
      <p className="search-ways">
        <a className="button" href={`/${view.market.segment}/products`}>
          {t('search.all_bikes')}
        </a>
        {dealersUrl && (
          <a className="button secondary" href={dealersUrl}>
            {t('search.find_dealer')}
          </a>
        )}
      </p>
    </div>
  )
}

/**
 * `GET /{m}/search/{type}?q=&page=`: full-text search of the market in its language (the API ranks). Any other
 * `type`, or a page past the results, is "Page Not Found"; results are never cached (queries are the visitors').
 */
export async function searchPage(c: Context<MarketEnv>): Promise<Response> {
  const { market, api, t } = c.var
  const type = SEARCH_TYPES.find((known) => known === c.req.param('type'))
  const page = pageNumber(c.req.query('page'), MAX_PAGES)
  if (!type || !page) throw PageError.pageNotFound(c.req.url)
  const q = (c.req.query('q') ?? '').trim().slice(0, MAX_QUERY)
  const words = disciplineWordsOf(t('search.discipline_words'))
  // The products of the categories the words name lead the first page of everything or of the products.
  const namedFor = (text: string) =>
    page === 1 && (type === 'all' || type === 'products')
      ? namedProducts(c, [...disciplinesIn(text, words)], RESULTS_PER_PAGE)
      : Promise.resolve([])
  const [first, chrome, namedFirst] = await Promise.all([
    q ? api.search.find({ type, q, page, perPage: RESULTS_PER_PAGE }) : null,
    loadChrome(c),
    q ? namedFor(q) : [],
  ])
  // Nothing found: the market's suggestion index, for the nearest terms ("stradda" → "Strada", said on the page) and
  // the bikes an empty result offers; read only then.
  const index = q && first?.items.length === 0 && namedFirst.length === 0 ? await suggestionIndexOf(c) : []
  const correction = index.length && page === 1 ? correctedQuery(q, searchVocabulary(index, words)) : null
  const corrected = correction?.changed ? correction.text : null
  const [found, named] = corrected
    ? await Promise.all([api.search.find({ type, q: corrected, page, perPage: RESULTS_PER_PAGE }), namedFor(corrected)])
    : [first, namedFirst]
  const money = (price: number | null | undefined) =>
    price === null || price === undefined ? null : formatMoney(price, market.site.currency, market)
  const ranked = rankedResults<SearchResult>(
    found?.items ?? [],
    corrected ?? q,
    named.map((product) => ({
      kind: 'product',
      slug: product.slug,
      title: product.name,
      excerpt: '',
      image: product.image,
      price: product.price,
    })),
  )
  const results = ranked
    .slice(0, Math.max(RESULTS_PER_PAGE, found?.items.length ?? 0))
    .map((result) => ({ ...result, price: result.kind === 'product' ? money(result.price) : null }))
  const meta = found?.meta ?? { page, per_page: RESULTS_PER_PAGE, total: 0 }
  if (page > 1 && results.length === 0) throw PageError.pageNotFound(c.req.url)
  const view = viewOf(c, t, market)
  const seo = await modelSeo(api, 'Listing', 'search')
  const head: HeadProps = {
    ...headFromSeo(seo, { title: `${t('search.title')} · ${t('brand.name')}` }, view.origin),
    canonical: canonicalUrl(view.origin, c.req.url, ['page', 'q']),
    robots: 'noindex, follow',
  }
  return sendPage(
    c,
    <SearchPage
      view={view}
      chrome={chrome}
      head={head}
      type={type}
      q={q}
      results={results}
      meta={meta}
      corrected={corrected}
      bikes={index.filter((entry) => entry.kind === 'product').slice(0, OFFERED_BIKES)}
      dealersUrl={c.var.available.pageUrl('dealer-locator')}
    />,
    {
      caching: Caching.shared,
    },
  )
}
