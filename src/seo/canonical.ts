/** Query parameters a canonical URL keeps: paging and the search query. Everything else (tracking, sorting) goes. */
export const CANONICAL_PARAMS = ['page', 'q'] as const

/**
 * The absolute canonical URL of a request: its origin and path, and only the whitelisted query parameters, sorted.
 *
 * @example
 * canonicalUrl('https://x.test/it-it/search/all?utm_source=a&q=gravel') // "https://x.test/it-it/search/all?q=gravel"
 */
export function canonicalUrl(requestUrl: string): string {
  const url = new URL(requestUrl)
  const kept = new URLSearchParams()
  for (const name of CANONICAL_PARAMS) {
    const value = url.searchParams.get(name)
    if (value && !(name === 'page' && value === '1')) kept.set(name, value)
  }
  const query = kept.toString()
  return `${url.origin}${url.pathname}${query ? `?${query}` : ''}`
}
