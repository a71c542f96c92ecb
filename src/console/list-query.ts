/**
 * The query values the console's lists share (orders, leads, outbox), read the one way: anything malformed reads as
 * unset, so the filter shows "Any" and the list is not narrowed by it.
 */

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/

/** A market's country code (`?market=it`). */
export const queriedMarket = (value: string | undefined): string | undefined =>
  value && /^[a-z]{2,3}$/.test(value) ? value : undefined

/** A day of a date filter (`YYYY-MM-DD`, `?from=` and `?to=`). */
export const queriedDay = (value: string | undefined): string | undefined =>
  value && DAY.test(value) ? value : undefined

/** Where a page of a list starts (`?after=`, the API's opaque cursor; docs/decisions/068); the API refuses a forged one. */
export const queriedCursor = (value: string | undefined): string | undefined =>
  value && /^[A-Za-z0-9_-]{1,120}$/.test(value) ? value : undefined
