/** Query parameters a canonical URL may keep: paging and the search query. Everything else (tracking, sorting) goes. */
export const CANONICAL_PARAMS = ['page', 'q'] as const
export type CanonicalParam = (typeof CANONICAL_PARAMS)[number]

/**
 * The absolute canonical URL of a request, on the site's public origin (never the request's host): its path, and of
 * the whitelisted query parameters only those the page itself reads (`page` on the news index, `page` and `q` on
 * search; none elsewhere), sorted, trimmed, and without `page=1`. Null without a public origin.
 *
 * @example
 * canonicalUrl('https://x.test', 'http://evil/it-it/search/all?utm_source=a&q=gravel', ['page', 'q']) // "https://x.test/it-it/search/all?q=gravel"
 */
export function canonicalUrl(
  origin: string | null,
  requestUrl: string,
  reads: readonly CanonicalParam[] = [],
): string | undefined {
  if (!origin) return undefined
  const url = new URL(requestUrl)
  const kept = new URLSearchParams()
  for (const name of CANONICAL_PARAMS) {
    const value = reads.includes(name) ? url.searchParams.get(name)?.trim() : undefined
    if (value && !(name === 'page' && value === '1')) kept.set(name, value)
  }
  const query = kept.toString()
  return `${origin}${url.pathname}${query ? `?${query}` : ''}`
}
