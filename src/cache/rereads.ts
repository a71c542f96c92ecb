/**
 * One KV read per key at a time when an isolate's memo of it runs out (`MEMO_SECONDS`): the request that reads it
 * again marks the key, and the requests that come meanwhile answer from the memo they have, for at most
 * `REREAD_GRACE_MS` more, instead of each reading KV too (fifty connections once meant fifty reads of every lookup).
 * No request awaits another's read (workerd may hang a request that waits on another's I/O); a memo forgotten by a
 * purge is not there to answer, so a purge still shows at once.
 *
 * @example
 * const rereads = rereadGate()
 * if (memoFresh || rereads.busy(key, now)) return memoValue
 * const stored = await rereads.around(key, now, () => kv.get(key))
 */
export function rereadGate() {
  const started = new Map<string, number>()
  return {
    /** Whether another request is reading this key again right now (so the memo may answer a moment longer). */
    busy: (key: string, now: number) => {
      const at = started.get(key)
      return at !== undefined && now - at < REREAD_GRACE_MS
    },
    /** Runs this request's read of the key, marked as under way while it lasts. */
    around: async <T>(key: string, now: number, read: () => Promise<T>): Promise<T> => {
      started.set(key, now)
      try {
        return await read()
      } finally {
        if (started.get(key) === now) started.delete(key)
      }
    },
  }
}

/** How long a read under way lets other requests answer from an expired memo (a slower read is taken for lost). */
export const REREAD_GRACE_MS = 1000
