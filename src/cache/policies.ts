/**
 * How long a cached answer is fresh, and how long after that it may still be served while a refresh runs.
 * KV keeps an entry for `fresh + stale` seconds (at least 60, KV's minimum).
 */
export type CachePolicy = {
  readonly name: string
  readonly freshSeconds: number
  readonly staleSeconds: number
  /** False for keys made of a visitor's words (a product slug): "does not exist" then stays in the isolate's memo, never in KV. */
  readonly absentInKv?: boolean
}

/** Sites, the sites list, features and the menu: an operator's switch (maintenance, a feature) shows within a minute. */
export const CacheShort: CachePolicy = { name: 'short', freshSeconds: 60, staleSeconds: 24 * 3600 }

/** Translations and SEO records: they change with an editor's publish, which purges. */
export const CacheLong: CachePolicy = { name: 'long', freshSeconds: 15 * 60, staleSeconds: 7 * 24 * 3600 }

/** Products and articles by slug: as short as the menu, and an unknown slug never reaches KV. */
export const CacheItem: CachePolicy = { name: 'item', freshSeconds: 60, staleSeconds: 24 * 3600, absentInKv: false }

/** Answers that something does not exist (an unknown country): kept briefly, never served stale. */
export const CacheAbsent: CachePolicy = { name: 'absent', freshSeconds: 60, staleSeconds: 0 }

/** How long an isolate trusts its own memo before asking KV again, so a purge reaches every isolate quickly. */
export const MEMO_SECONDS = 10
