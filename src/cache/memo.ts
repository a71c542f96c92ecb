/**
 * What an isolate keeps between requests: imported keys, the sessions it read, page versions, lookups. Bounded in
 * entries (the one written longest ago goes first) and, given `maxAgeMs`, answered only while younger than that. It
 * holds what any request may see; a request's own state never goes here.
 *
 * @example
 * const keys = isolateMemo<Promise<CryptoKey>>({ limit: 16 })
 * const key = keys.remember(secret, () => crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt']))
 */
export function isolateMemo<V>({ limit, maxAgeMs = Number.POSITIVE_INFINITY }: IsolateMemoOptions) {
  const entries = new Map<string, { value: V; at: number }>()
  const memo = {
    /** The value of a key written less than `maxAgeMs` before `now`, else undefined. */
    get(key: string, now = Date.now()): V | undefined {
      const entry = entries.get(key)
      return entry && now - entry.at < maxAgeMs ? entry.value : undefined
    },

    /** The value of a key and when it was written, whatever its age (for when nothing fresher can be had). */
    entry(key: string): { value: V; at: number } | undefined {
      return entries.get(key)
    },

    /** Keeps a value as written at `now`; when the memo is full, the entry written longest ago goes. */
    set(key: string, value: V, now = Date.now()): V {
      entries.delete(key)
      if (entries.size >= limit) entries.delete(entries.keys().next().value as string)
      entries.set(key, { value, at: now })
      return value
    },

    /** The current value of a key, else the one `make` makes, kept; a promise that rejects is forgotten (made again next time). */
    remember(key: string, make: () => V, now = Date.now()): V {
      const current = memo.get(key, now)
      if (current !== undefined) return current
      const value = memo.set(key, make(), now)
      if (value instanceof Promise)
        value.catch(() => {
          if (entries.get(key)?.value === value) entries.delete(key)
        })
      return value
    },

    /** Forgets a key. */
    delete(key: string): void {
      entries.delete(key)
    },

    /** Forgets every entry, or the entries `which` picks. */
    clear(which?: (key: string, value: V) => boolean): void {
      if (!which) {
        entries.clear()
        return
      }
      for (const [key, { value }] of entries) if (which(key, value)) entries.delete(key)
    },
  }
  return memo
}

/** A memo's bounds: how many entries it keeps, and how long an entry is answered (no limit when left out). */
export type IsolateMemoOptions = { limit: number; maxAgeMs?: number }

/** A per-isolate memo of values of one type. */
export type IsolateMemo<V> = ReturnType<typeof isolateMemo<V>>
