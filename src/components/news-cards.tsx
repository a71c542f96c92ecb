import { formatDate } from '../i18n/formats'
import type { NewsSummary } from '../upstream/schemas'
import type { View } from './view'

/** The canonical URL path of an article. */
export const articlePath = (segment: string, slug: string) => `/${segment}/news/details/${slug}`

/** News cards: picture, title (a heading at `level`), date and excerpt, each a link to the article. */
export function NewsCards({ view, articles, level }: { view: View; articles: NewsSummary[]; level: 2 | 3 }) {
  const market = view.market!
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <ul className="card-grid news-grid">
      {articles.map((article) => (
        <li key={article.id} className="card">
          <a href={articlePath(market.segment, article.slug)}>
            {article.image && <img src={article.image} alt="" width={480} height={270} loading="lazy" decoding="async" />}
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
