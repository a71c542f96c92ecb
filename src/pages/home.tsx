import type { Context } from 'hono'
import { Suspense, use } from 'react'
import { Caching } from '../cache/answer-caching'
import { DefaultLayout } from '../components/layouts'
import { preloadPicture, ResponsiveImage } from '../components/responsive-image'
import { ProductCards } from '../components/product-cards'
import { NewsCards } from '../components/news-cards'
import { type HeadProps, headFromSeo } from '../components/page-head'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { type Deferred, defer, orNull } from '../render/deferred'
import { sendPage, viewOf } from '../render/respond'
import { homeAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageSeo } from '../seo/page-seo'
import { homeData } from '../seo/structured-data'
import type { MenuProduct, NewsSummary } from '../../contract/schemas'
import { errorName, logEvent } from '../ops/log'
import { loadChrome } from './chrome'
import { textsOf } from '../i18n/translator'
import { Kept } from '../render/kept'

const FEATURED_COUNT = 4
/** The hero's picture: the page's largest paint. */
const HERO = { src: '/images/hero.svg', width: 1600 } as const
/** The latest-news block shows this many articles. */
const LATEST_NEWS_COUNT = 3

type HomeProps = {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  featured: MenuProduct[]
  /** The latest news, or null where the backend has no news (no block then). */
  latestNews: Deferred<NewsSummary[] | null> | null
}

/** The market home: hero, featured bikes, latest news (streamed), the dealer finder and, where on, the test ride. */
export function HomePage({ view, chrome, head, featured, latestNews }: HomeProps) {
  const { t } = view
  const dealerLocator = chrome.available.pageUrl('dealer-locator')
  const testRide = chrome.available.pageUrl('test-drive')
  const market = view.market
  // The sections are the same for every visitor of the market and language: kept as bytes (src/render/kept.tsx,
  // decision 083); the latest news between them is rendered each time (it may stream).
  const texts = textsOf(t)
  preloadPicture(HERO.src, 'hero', view.imageResizing ?? false, HERO.width)
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <Kept
        part="home-hero-featured"
        deps={[...texts, market.segment, market.tag, market.site, view.imageResizing ?? false, featured]}
      >
        {() => <HeroAndFeatured view={view} featured={featured} />}
      </Kept>

      {latestNews && (
        <section className="band" aria-labelledby="news-title">
          <h2 id="news-title">{t('home.latest_news')}</h2>
          <Suspense
            fallback={
              <p className="loading" role="status">
                {t('common.loading')}
              </p>
            }
          >
            <LatestNews view={view} news={latestNews} />
          </Suspense>
        </section>
      )}

      <Kept part="home-calls-to-action" deps={[...texts, dealerLocator, testRide]}>
        {() => (
          <>
            {dealerLocator && (
              <CallToAction
                id="dealer-title"
                title={t('home.dealer_finder_title')}
                text={t('home.dealer_finder_text')}
                cta={t('home.dealer_finder_cta')}
                href={dealerLocator}
              />
            )}
            {testRide && (
              <CallToAction
                id="test-ride-title"
                title={t('home.test_ride_title')}
                text={t('home.test_ride_text')}
                cta={t('home.test_ride_cta')}
                href={testRide}
                accent
              />
            )}
          </>
        )}
      </Kept>
    </DefaultLayout>
  )
}

/** A band that sends the visitor on: its title, a line of text and the one link. */
function CallToAction({
  id,
  title,
  text,
  cta,
  href,
  accent = false,
}: {
  id: string
  title: string
  text: string
  cta: string
  href: string
  accent?: boolean
}) {
  return (
    <section className={accent ? 'band call-to-action accent' : 'band call-to-action'} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p>{text}</p>
      <a className="button" href={href}>
        {cta}
      </a>
    </section>
  )
}

/** The hero and the featured bikes. */
function HeroAndFeatured({ view, featured }: { view: MarketView; featured: MenuProduct[] }) {
  const { t } = view
  return (
    <>
      <section className="hero">
        <ResponsiveImage
          src={HERO.src}
          alt=""
          width={HERO.width}
          height={700}
          place="hero"
          resizing={view.imageResizing ?? false}
          loading="eager"
        />
        <div className="hero-text">
          <h1>{t('home.hero_title')}</h1>
          <p>{t('home.hero_text')}</p>
          <a className="button" href="#featured">
            {t('home.hero_cta')}
          </a>
        </div>
      </section>

      {featured.length > 0 && (
        <section id="featured" className="band" aria-labelledby="featured-title">
          <h2 id="featured-title">{t('home.featured_products')}</h2>
          <ProductCards view={view} products={featured} />
        </section>
      )}
    </>
  )
}

/** The latest-news block: it waits for its data inside Suspense, so the shell never waits for it. */
function LatestNews({ view, news }: { view: MarketView; news: Promise<NewsSummary[] | null> }) {
  const { t, market } = view
  const articles = use(news)
  if (articles === null) return <p>{t('home.news_unavailable')}</p>
  if (articles.length === 0) return <p>{t('home.no_news')}</p>
  // The same for every visitor once the news is there: kept as bytes by the list it shows (decision 083).
  return (
    <Kept
      part="home-latest-news"
      deps={[...textsOf(t), market.segment, market.tag, view.imageResizing ?? false, articles]}
    >
      {() => (
        <>
          <NewsCards view={view} articles={articles.slice(0, LATEST_NEWS_COUNT)} level={3} />
          <p>
            <a href={`/${market.segment}/news`}>{t('home.all_news')}</a>
          </p>
        </>
      )}
    </Kept>
  )
}

/**
 * The featured bikes of a product menu: the same list for the same menu (a lookup's, kept in the isolate's memo), so
 * the kept hero's key reads it by its identity instead of writing it out on every render (decision 087).
 */
function featuredOf(menu: MenuProduct[]): MenuProduct[] {
  let featured = featuredLists.get(menu)
  if (featured === undefined) {
    featured = menu.slice(0, FEATURED_COUNT)
    featuredLists.set(menu, featured)
  }
  return featured
}
const featuredLists = new WeakMap<MenuProduct[], MenuProduct[]>()

/** `GET /{m}`: critical data (chrome, featured bikes) awaited; the latest news deferred. */
export async function home(c: Context<MarketEnv>): Promise<Response> {
  const [market, api, t, available] = [c.get('market'), c.get('api'), c.get('t'), c.get('available')]
  const latestNews = available.has('news')
    ? defer(
        orNull(api.news.latest(LATEST_NEWS_COUNT), (error) =>
          logEvent('warn', 'deferred_failed', { section: 'latest_news', error: errorName(error) }),
        ),
      )
    : null
  const [chrome, seo] = await Promise.all([loadChrome(c), pageSeo(api, 'home')])
  const view = viewOf(c, t, market)
  const head: HeadProps = {
    ...headFromSeo(
      seo ?? market.site.seo,
      { title: `${t('brand.name')} · ${t('brand.tagline')}`, description: t('home.hero_text') },
      view.origin,
    ),
    canonical: canonicalUrl(view.origin, c.req.url),
    alternates: homeAlternates(chrome.sites, view.origin),
    structuredData: view.origin ? homeData(view.origin, market, t('brand.name'), chrome.available.has('search')) : [],
  }
  const featured = featuredOf(chrome.productMenu)
  return sendPage(c, <HomePage view={view} chrome={chrome} head={head} featured={featured} latestNews={latestNews} />, {
    caching: Caching.shared,
    deferred: latestNews ? [latestNews] : [],
  })
}
