import { ResponsiveImage } from '../components/responsive-image'
import type { Context } from 'hono'
import { MENU_TYPE_ID, NEWS_PER_PAGE } from '../cache/lookups'
import { Caching } from '../cache/answer-caching'
import { ProductCards } from '../components/product-cards'
import { DefaultLayout } from '../components/layouts'
import { articlePath, NewsCards } from '../components/news-cards'
import { absoluteUrl, type HeadProps, headFromSeo } from '../components/page-head'
import { Pagination, pageNumber } from '../components/pagination'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { PageError } from '../errors/page-error'
import { formatDate } from '../i18n/formats'
import { sanitizeRichText } from '../render/rich-text'
import { sendPage, viewOf } from '../render/respond'
import { alternatesOf, indexedAlternates } from '../seo/alternates'
import { canonicalUrl } from '../seo/canonical'
import { pageGroups, placesOf } from '../seo/page-groups'
import { articleData, breadcrumbs } from '../seo/structured-data'
import { modelSeo } from '../seo/page-seo'
import type { NewsArticle } from '../../contract/catalogue-schemas'
import type { MenuProduct, NewsSummary } from '../../contract/schemas'
import { loadChrome } from './chrome'
import { findBySlug } from './find-by-slug'

/** The most pages of the index anyone is shown (and the most that are ever cached). */
export const MAX_PAGES = 100

/** The news index, newest first, a page at a time. */
export function NewsIndexPage(props: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  articles: NewsSummary[]
  page: number
  pages: number
}) {
  const { view, chrome, head, articles, page, pages } = props
  const { t } = view
  const base = `/${view.market.segment}/news`
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="band">
        <h1>{t('news.title')}</h1>
        {articles.length === 0 ? (
          <p>{t('news.none')}</p>
        ) : (
          <NewsCards view={view} articles={articles} level={2} first="eager" />
        )}
        <Pagination
          view={view}
          page={page}
          pages={pages}
          href={(n) => (n > 1 ? `${base}?page=${n}` : base)}
          texts={{ label: 'news.pages', pageOf: 'news.page_of', previous: 'news.previous', next: 'news.next' }}
        />
      </div>
    </DefaultLayout>
  )
}

/** One article: title, date, picture and its sanitised rich text. */
export function ArticlePage({
  view,
  chrome,
  head,
  article,
  body,
  bikes,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  article: NewsArticle
  body: string
  bikes: MenuProduct[]
}) {
  const { t } = view
  const market = view.market
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <article className="article">
        <p className="eyebrow">
          <a href={`/${market.segment}/news`}>{t('news.all')}</a>
        </p>
        <h1>{article.title}</h1>
        <p className="meta">
          <time dateTime={article.published_at}>
            {t('news.published_on', { date: formatDate(article.published_at, market.tag) })}
          </time>
        </p>
        {article.image && (
          <ResponsiveImage
            className="article-image"
            src={article.image}
            alt=""
            width={960}
            height={640}
            place="column"
            resizing={view.imageResizing ?? false}
            loading="eager"
          />
        )}
        {article.excerpt && <p className="lead">{article.excerpt}</p>}
        {/* Sanitised by the allowlist of render/rich-text.ts just before: only text-level markup and safe links. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the article's rich text, sanitised by src/render/rich-text.ts */}
        <div className="rich-text" dangerouslySetInnerHTML={{ __html: body }} />
        <StoryBikes view={view} chrome={chrome} bikes={bikes} />
      </article>
    </DefaultLayout>
  )
}

/** The most bikes "The bikes in this story" shows. */
const STORY_BIKES = 4

/**
 * The bikes an article names that the market sells, in the article's order: each read by its slug (cached as its
 * product page's), so the page reads what it shows whatever the catalogue's size (docs/decisions/072); from the
 * product menu where the backend has no catalogue (the original's menu is its only list of products).
 */
async function storyBikesOf(c: Context<MarketEnv>, slugs: readonly string[], chrome: Chrome): Promise<MenuProduct[]> {
  const { api, areas } = c.var
  if (!areas.served('catalogue') && !areas.held('catalogue'))
    return slugs.flatMap((slug) => chrome.productMenu.find((product) => product.slug === slug) ?? [])
  const named = [...new Set(slugs)].slice(0, STORY_BIKES)
  const products = await Promise.all(named.map((slug) => api.catalogue.product(slug).catch(() => null)))
  return products.flatMap((product) => (product && product.type.id === MENU_TYPE_ID ? [product] : []))
}

/**
 * "The bikes in this story": the cards of the bikes an article names that the market sells, and the way to a test
 * ride of the first; nothing when it names none the market sells.
 */
export function StoryBikes({ view, chrome, bikes }: { view: MarketView; chrome: Chrome; bikes: MenuProduct[] }) {
  const { t } = view
  const first = bikes[0]
  if (!first) return null
  const testRide = chrome.available.pageUrl('test-drive', `?model=${encodeURIComponent(first.slug)}`)
  return (
    <section className="story-bikes" aria-labelledby="story-bikes-title">
      <h2 id="story-bikes-title">{t('news.story_bikes')}</h2>
      <ProductCards view={view} products={bikes} />
      {testRide && (
        <p>
          <a className="button" href={testRide}>
            {t('news.book_test_ride', { model: first.name })}
          </a>
        </p>
      )}
    </section>
  )
}

/** `GET /{m}/news?page=N`: a page past the last or a malformed number is "Page Not Found". */
export async function newsIndex(c: Context<MarketEnv>): Promise<Response> {
  const { market, api, t } = c.var
  const page = pageNumber(c.req.query('page'), MAX_PAGES)
  if (!page) throw PageError.pageNotFound(c.req.url)
  const [list, chrome] = await Promise.all([api.news.page(page), loadChrome(c)])
  const articles = list?.items ?? []
  if (page > 1 && articles.length === 0) throw PageError.pageNotFound(c.req.url)
  const pages = Math.min(MAX_PAGES, Math.max(1, Math.ceil((list?.meta.total ?? 0) / NEWS_PER_PAGE)))
  const view = viewOf(c, t, market)
  const seo = await modelSeo(api, 'Listing', 'news')
  const head: HeadProps = {
    ...headFromSeo(
      seo,
      { title: `${t('news.title')} · ${t('brand.name')}`, description: t('home.latest_news') },
      view.origin,
    ),
    canonical: canonicalUrl(view.origin, c.req.url, ['page']),
    // The index's first page exists in every live market; its later pages differ everywhere and have no alternates.
    alternates:
      page === 1 ? alternatesOf(pageGroups.newsIndex(placesOf(chrome.sites, c.var.available), null), view.origin) : [],
  }
  return sendPage(
    c,
    <NewsIndexPage view={view} chrome={chrome} head={head} articles={articles} page={page} pages={pages} />,
    {
      caching: Caching.shared,
    },
  )
}

/** `GET /{m}/news/details/{slug}`: the canonical article page; articles carry their own SEO fields. */
export async function articlePage(c: Context<MarketEnv>): Promise<Response> {
  const { api, t, market } = c.var
  const { found: article, chrome, view } = await findBySlug(c, (slug) => api.news.article(slug))
  const head: HeadProps = {
    title: `${article.title} · ${t('brand.name')}`,
    description: article.excerpt,
    canonical: canonicalUrl(view.origin, c.req.url),
    ogImage: absoluteUrl(view.origin, article.image),
    alternates: await indexedAlternates(
      c,
      chrome.sites,
      (places, index, here) => pageGroups.article(places, index, article.slug, here),
      { article: article.slug },
    ),
    structuredData: view.origin
      ? [
          articleData(view.origin, market, article, t('brand.name')),
          breadcrumbs(view.origin, [
            { name: t('header.home'), path: `/${market.segment}` },
            { name: t('news.title'), path: `/${market.segment}/news` },
            { name: article.title, path: articlePath(market.segment, article.slug) },
          ]),
        ]
      : [],
  }
  const [body, bikes] = await Promise.all([sanitizeRichText(article.body), storyBikesOf(c, article.products, chrome)])
  return sendPage(
    c,
    <ArticlePage view={view} chrome={chrome} head={head} article={article} body={body} bikes={bikes} />,
    {
      caching: Caching.shared,
    },
  )
}

/** `GET /{m}/news/{slug}-{id}`: the permalink of an article answers 301 with its canonical page. */
export async function articlePermalink(c: Context<MarketEnv>): Promise<Response> {
  const { market, api } = c.var
  const id = /^[a-z0-9-]*-([1-9][0-9]{0,8})$/.exec(c.req.param('slugId') ?? '')?.[1]
  const article = id ? await api.news.articleById(Number(id)) : null
  if (!article) throw PageError.pageNotFound(c.req.url)
  c.var.caching.allow(Caching.shared)
  return c.redirect(articlePath(market.segment, article.slug), 301)
}
