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

/** A page of the list, from 1 (`?page=2`). */
export const queriedPage = (value: string | undefined): number | undefined =>
  value && /^[0-9]{1,5}$/.test(value) && Number(value) >= 1 ? Number(value) : undefined
