import type { View } from './view'

type PaginationProps = {
  view: View
  page: number
  pages: number
  /** The URL of page `n`. */
  href: (n: number) => string
  /** The keys of the navigation's label, its "page N of M" and its two links. */
  texts: { label: string; pageOf: string; previous: string; next: string }
}

/** Previous / "page N of M" / next, as links: paging works without JavaScript and search engines follow it. */
export function Pagination({ view, page, pages, href, texts }: PaginationProps) {
  if (pages <= 1) return null
  const { t } = view
  return (
    <nav className="pagination" aria-label={t(texts.label)}>
      {page > 1 && (
        <a href={href(page - 1)} rel="prev">
          {t(texts.previous)}
        </a>
      )}
      <span aria-current="page">{t(texts.pageOf, { page, pages })}</span>
      {page < pages && (
        <a href={href(page + 1)} rel="next">
          {t(texts.next)}
        </a>
      )}
    </nav>
  )
}

/** A page number from the query: 1 when absent, null when malformed or beyond `max`. */
export function pageNumber(value: string | undefined, max = 1000): number | null {
  if (value === undefined) return 1
  if (!/^[1-9][0-9]{0,5}$/.test(value)) return null
  const page = Number(value)
  return page <= max ? page : null
}
