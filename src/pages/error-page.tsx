import type { Context } from 'hono'
import { ATTEMPT_WINDOW_SECONDS } from '../auth/attempts'
import { ErrorLayout, MarketErrorLayout } from '../components/layouts'
import type { MarketView, View } from '../components/view'
import { Caching } from '../cache/answer-caching'
import type { AppEnv } from '../env'
import { loadTranslator } from '../i18n/load-translator'
import { createTranslator } from '../i18n/translator'
import { FALLBACK_MARKET, parseMarketSegment, siteHome } from '../market/market'
import { forgetMarket, rememberedMarket } from '../market/remembered-market'
import type { ErrorKind, PageError } from '../errors/page-error'
import { sendPage, viewOf } from '../render/respond'
import { type MarketErrorChrome, loadErrorChrome } from './error-chrome'

/** The landing page: its market picker is where a visitor of a market under maintenance goes on. */
const LANDING_PATH = '/'

/** How long a visitor is told to wait before retrying a site under maintenance. */
export const RETRY_AFTER_SECONDS = 300

/** How long a visitor (or a crawler) is told to wait before asking again for a page whose data could not be read. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 60

type ErrorPageProps = {
  view: View
  status: number
  title: string
  message: string
  text: string
  home: string
  homeLabel?: string
  /** The market's header and footer: the page shows them and a way on (search, the bikes, the home). */
  market?: MarketErrorChrome | null
}

/** The translated heading and explanation of each kind of error page. */
const WORDING: Record<ErrorKind, { title: string; text: string }> = {
  'not-found': { title: 'common.not_found_title', text: 'common.page_not_found_homepage' },
  maintenance: { title: 'common.maintenance_title', text: 'common.maintenance' },
  unavailable: { title: 'common.unavailable_title', text: 'common.unavailable' },
  'bad-request': { title: 'common.error_title', text: 'common.error_text' },
  'server-error': { title: 'common.error_title', text: 'common.error_text' },
}

/**
 * The error page: the status, a heading and an explanation in the market's language, the exact message (PRODUCT.md
 * §3: an English text, so marked as English for screen readers and set left to right, its full stop at its end in a
 * right-to-left market too; quieter than the heading, kept for tests and crawlers) and a way on. In a market, inside
 * its header and footer, the way on is a search field, the bikes and the home; elsewhere, dark with the logo, home.
 */
export function ErrorPage({ view, status, title, message, text, home, homeLabel, market }: ErrorPageProps) {
  const head = { title: `${status} · ${view.t('brand.name')}`, robots: 'noindex' } as const
  const body = (
    <>
      <p className="error-status">{status}</p>
      <h1 className="error-title">{title}</h1>
      <p className="error-text">{text}</p>
      <p className="error-message" lang="en" dir="ltr">
        {message}
      </p>
    </>
  )
  if (market) {
    return (
      <MarketErrorLayout view={market.view} head={head} chrome={market.chrome}>
        {body}
        <ErrorWayOn view={market.view} available={market.chrome.available} home={home} />
      </MarketErrorLayout>
    )
  }
  return (
    <ErrorLayout view={view} head={head}>
      {body}
      <a className="button" href={home}>
        {homeLabel ?? view.t('common.return_to_home')}
      </a>
    </ErrorLayout>
  )
}

/** Where a visitor goes on from a market's error page: a search of the market, its bikes, its home. */
function ErrorWayOn({
  view,
  available,
  home,
}: {
  view: MarketView
  available: MarketErrorChrome['chrome']['available']
  home: string
}) {
  const { t } = view
  const base = `/${view.market.segment}`
  return (
    <nav className="error-way-on" aria-labelledby="error-way-on-title">
      <h2 id="error-way-on-title" className="error-way-on-title">
        {t('common.error_way_on')}
      </h2>
      {available.has('search') && (
        <form method="get" action={`${base}/search/all`} role="search" className="error-search">
          <label htmlFor="error-q">{t('header.search_label')}</label>
          <span className="error-search-field">
            <input id="error-q" type="search" name="q" maxLength={100} placeholder={t('header.search_placeholder')} />
            <button type="submit" className="button">
              {t('search.submit')}
            </button>
          </span>
        </form>
      )}
      <ul className="error-links">
        {available.has('products') && (
          <li>
            <a className="button" href={`${base}/products`}>
              {t('header.all_products')}
            </a>
          </li>
        )}
        <li>
          <a className="button secondary" href={home}>
            {t('common.return_to_home')}
          </a>
        </li>
      </ul>
    </nav>
  )
}

/**
 * Answers a PageError with the error page. Inside a resolved market it speaks the market's language and leads to the
 * site's first URL; otherwise int-en's texts and `/int-en`. Maintenance ("check again later") leads to the market
 * picker of the landing page, never to a page of the market under maintenance.
 * Maintenance also forgets the remembered market; "temporarily unavailable" keeps it (the market is not down, one
 * read failed), and speaks the language of the market asked for even when its site record could not be read.
 */
export async function sendErrorPage(c: Context<AppEnv>, error: PageError): Promise<Response> {
  const market = c.get('market') ?? null
  const maintenance = error.kind === 'maintenance'
  const t =
    c.get('t') ??
    (maintenance && !market
      ? createTranslator(FALLBACK_MARKET.locale, null) // the upstream just failed: do not wait for it twice
      : await loadTranslator(c.var.lookups.forMarket(market ?? textsMarketOf(c, error))))
  // A market under maintenance (or the whole site, when nothing answers) would only answer 503 again: its way out is
  // the market picker of the landing page, where the markets that are live are listed.
  const home = maintenance ? LANDING_PATH : market ? siteHome(market.site) : textsMarketOf(c, error).home
  if (maintenance) forgetMarket(c)
  const marketChrome = maintenance ? null : await loadErrorChrome(c, t)
  return sendPage(
    c,
    <ErrorPage
      view={viewOf(c, t, market, false)}
      status={error.status}
      title={t(WORDING[error.kind].title)}
      message={error.message}
      text={t(WORDING[error.kind].text)}
      home={home}
      homeLabel={maintenance ? t('picker.change') : undefined}
      market={marketChrome}
    />,
    {
      status: error.status,
      kind: 'error',
      caching: Caching.never,
      headers: retryAfterOf(error),
    },
  )
}

/** The wait an error page announces: maintenance's, a read's that failed, a refused burst's; none for the rest. */
function retryAfterOf(error: PageError): Record<string, string> {
  const seconds =
    error.kind === 'maintenance'
      ? RETRY_AFTER_SECONDS
      : error.kind === 'unavailable'
        ? UNAVAILABLE_RETRY_AFTER_SECONDS
        : error.status === 429
          ? ATTEMPT_WINDOW_SECONDS
          : null
  return seconds === null ? {} : { 'Retry-After': String(seconds) }
}

/**
 * Whose texts and home an error page outside a resolved market shows: when only reading its data failed ("temporarily
 * unavailable" of a site lookup that timed out, of a login), the market the path asks for, else the one the visitor
 * came from (`CountryLocale`: the login has no market in its path); else int-en's.
 */
function textsMarketOf(c: Context<AppEnv>, error: PageError): { country: string; locale: string; home: string } {
  const asked =
    error.kind === 'unavailable'
      ? (parseMarketSegment(c.req.path.split('/')[1]) ?? parseMarketSegment(rememberedMarket(c) ?? ''))
      : null
  return asked ? { ...asked, home: `/${asked.country}-${asked.locale}` } : FALLBACK_MARKET
}
