import { formatDate } from '../i18n/formats'
import type { NewsSummary } from '../../contract/schemas'
import { CardImage, type CardImageLoading } from './card-image'
import type { MarketView } from './view'

/** The canonical URL path of an article. */
export const articlePath = (segment: string, slug: string) => `/${segment}/news/details/${slug}`

/**
 * News cards: picture, title (a heading at `level`), date and excerpt, each a link to the article. Pictures load
 * lazily, except the first one's where the cards are the page's main content (`first`: the news index).
 */
export function NewsCards({
  view,
  articles,
  level,
  first = 'lazy',
}: {
  view: MarketView
  articles: NewsSummary[]
  level: 2 | 3
  first?: CardImageLoading
}) {
  const market = view.market
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <ul className="card-grid news-grid">
      {articles.map((article, index) => (
        <li key={article.id} className="card">
          <a href={articlePath(market.segment, article.slug)}>
            {article.image && (
              <CardImage
                src={article.image}
                width={480}
                height={320}
                eager={index === 0 && first === 'eager'}
                resizing={view.imageResizing}
                place="news"
              />
            )}
            <Heading>{article.title}</Heading>
            <p className="meta">
              <time dateTime={article.published_at}>{formatDate(article.published_at, market.tag)}</time>
            </p>
            <p>{article.excerpt}</p>
          </a>
        </li>
      ))}
    </ul>
  )
}
