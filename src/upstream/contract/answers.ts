import type { PageMeta } from '../../../contract/schemas'

/** One page of a paged list, as the contract's functions answer it: by number (`PageMeta`) or by keyset (`CursorMeta`). */
export type Paged<T, M = PageMeta> = { items: T[]; meta: M }

/** An enveloped answer's `data`, or null when the API answered 404. */
export async function dataOf<T>(answer: Promise<{ data: T } | null>): Promise<T | null> {
  return (await answer)?.data ?? null
}

/** An enveloped list, empty when the API answered 404 (a list that does not exist has nothing in it). */
export async function listOf<T>(answer: Promise<{ data: T[] } | null>): Promise<T[]> {
  return (await answer)?.data ?? []
}

/**
 * An enveloped list, or null when the API answered 404: a list the backend does not serve (the brand's own backend
 * may serve none of the account's lists), told apart from an empty one.
 */
export async function servedListOf<T>(answer: Promise<{ data: T[] } | null>): Promise<T[] | null> {
  return (await answer)?.data ?? null
}

/** A paged answer as `{ items, meta }`, or null when the API answered 404. */
export async function pagedOf<T, M = PageMeta>(
  answer: Promise<{ data: T[]; meta: M } | null>,
): Promise<Paged<T, M> | null> {
  const paged = await answer
  return paged ? { items: paged.data, meta: paged.meta } : null
}

/** A query string from the parameters that are set, in order (`?type=bike&page=2`), or ''. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value))
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** A path segment from a visitor's words (a slug, a code), escaped. */
export const segment = (value: string | number) => encodeURIComponent(String(value))
