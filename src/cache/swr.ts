import { isolateMemo } from './memo'
import { CacheAbsent, type CachePolicy, MEMO_SECONDS } from './policies'
import { rereadGate } from './rereads'

/** How a lookup was answered, for the request log. */
export type CacheOutcome = 'memo' | 'hit' | 'stale' | 'miss'

/** What a cached lookup needs from the request: the KV namespace, `waitUntil`, and where to report. */
export type CacheContext = {
  kv: KVNamespace
  waitUntil: (promise: Promise<unknown>) => void
  report?: (key: string, outcome: CacheOutcome) => void
  /** Told the size in bytes of each value written to KV (the request log keeps the largest). */
  reportPut?: (key: string, bytes: number) => void
  onRefreshError?: (key: string, error: unknown) => void
}

/** Loads the value from the upstream; `null` means "does not exist" and is cached briefly (CacheAbsent). */
export type Load<T> = (background: boolean) => Promise<T | null>

type Entry<T> = { value: T | null; storedAt: number }

const MEMO_LIMIT = 2000
/** A refresh older than this is taken for lost (workerd cancels `waitUntil` work after 30 s). */
const REFRESH_LIMIT_MS = 30_000
const memo = isolateMemo<Entry<unknown>>({ limit: MEMO_LIMIT, maxAgeMs: MEMO_SECONDS * 1000 })
const refreshing = new Map<string, number>()
const rereads = rereadGate()

/**
 * Answers a cached value: the isolate's memo (for `MEMO_SECONDS`), else KV, else the upstream. Stale entries are
 * answered at once and refreshed in `waitUntil`, once per key per isolate; a failed load is never stored, and leaves a
 * stale entry in place. KV is the truth between isolates: an entry purged there is loaded again, not served from memo.
 * When the memo runs out, one request reads KV again while the others answer from the memo (`rereads.ts`). A
 * visitor's load is never shared with another request (workerd may hang a request awaiting another's I/O).
 *
 * @example
 * const site = await cached(cache, keys.site('it'), CacheShort, (background) => siteCalls(upstream).site('it', { background }))
 */
export async function cached<T>(
  cache: CacheContext,
  key: string,
  policy: CachePolicy,
  load: Load<T>,
): Promise<T | null> {
  const now = Date.now()
  const remembered = memo.entry(key)
  const memoCurrent = remembered && (memo.get(key, now) !== undefined || rereads.busy(key, now))
  if (memoCurrent && isFresh(remembered.value, policy, now)) {
    cache.report?.(key, 'memo')
    return remembered.value.value as T | null
  }

  const stored = await rereads.around(key, now, () => readEntry<T>(cache.kv, key))
  // Read again after the wait: a refresh may have stored a newer entry meanwhile.
  const memoEntry = memo.entry(key)?.value as Entry<T> | undefined
  // KV is the truth between isolates: only when it cannot be read does the memo stand in for it.
  const entry = stored === undefined ? (memoEntry ?? null) : newest(stored, memoEntry)
  if (entry && isFresh(entry, policy, now)) {
    remember(key, entry, now)
    cache.report?.(key, 'hit')
    return entry.value
  }
  if (entry && isServable(entry, policy, now)) {
    remember(key, entry, now)
    cache.report?.(key, 'stale')
    refreshInBackground(cache, key, policy, load)
    return entry.value
  }

  cache.report?.(key, 'miss')
  const value = await load(false)
  store(cache, key, policy, value)
  return value
}

/**
 * The value this isolate remembers for a key while `cached` would answer it from memo (`{ value }`, the value null
 * when the thing does not exist), else undefined: no KV read, no upstream call, nothing refreshed.
 */
export function remembered<T>(key: string, policy: CachePolicy, now = Date.now()): { value: T | null } | undefined {
  const memoEntry = memo.get(key, now)
  if (!memoEntry || !isFresh(memoEntry, policy, now)) return undefined
  return { value: memoEntry.value as T | null }
}

/** Forgets this isolate's memo of the keys with a prefix, or those a test picks (after a purge, and between tests). */
export function forgetMemo(which: string | ((key: string) => boolean) = ''): void {
  memo.clear(typeof which === 'string' ? (key) => key.startsWith(which) : which)
}

function policyOf(entry: Entry<unknown>, policy: CachePolicy): CachePolicy {
  return entry.value === null ? CacheAbsent : policy
}

function isFresh(entry: Entry<unknown>, policy: CachePolicy, now: number): boolean {
  return now - entry.storedAt < policyOf(entry, policy).freshSeconds * 1000
}

function isServable(entry: Entry<unknown>, policy: CachePolicy, now: number): boolean {
  const { freshSeconds, staleSeconds } = policyOf(entry, policy)
  return now - entry.storedAt < (freshSeconds + staleSeconds) * 1000
}

/** KV's entry, unless this isolate holds a newer one for a key KV also has (its own write may still be on the way). */
function newest<T>(stored: Entry<T> | null, remembered: Entry<T> | undefined): Entry<T> | null {
  if (!stored || !remembered) return stored
  return stored.storedAt >= remembered.storedAt ? stored : remembered
}

/** The entry KV holds, `null` when it holds none, `undefined` when KV could not be read. */
async function readEntry<T>(kv: KVNamespace, key: string): Promise<Entry<T> | null | undefined> {
  try {
    const entry = await kv.get<Entry<T>>(key, 'json')
    return entry && typeof entry.storedAt === 'number' && 'value' in entry ? entry : null
  } catch {
    return undefined
  }
}

function remember(key: string, entry: Entry<unknown>, now: number): void {
  memo.set(key, entry, now)
}

/** Refreshes a stale entry after the answer, once per key per isolate: other visitors meanwhile get the stale entry. */
function refreshInBackground<T>(cache: CacheContext, key: string, policy: CachePolicy, load: Load<T>): void {
  const started = refreshing.get(key)
  if (started !== undefined && Date.now() - started < REFRESH_LIMIT_MS) return
  refreshing.set(key, Date.now())
  cache.waitUntil(
    load(true)
      .then((value) => store(cache, key, policy, value))
      .catch((error) => cache.onRefreshError?.(key, error))
      .finally(() => refreshing.delete(key)),
  )
}

function store<T>(cache: CacheContext, key: string, policy: CachePolicy, value: T | null): void {
  const entry: Entry<T> = { value, storedAt: Date.now() }
  remember(key, entry, entry.storedAt)
  if (value === null && policy.absentInKv === false) return
  const { freshSeconds, staleSeconds } = policyOf(entry, policy)
  const stored = JSON.stringify(entry)
  cache.reportPut?.(key, bytesOf(stored))
  cache.waitUntil(
    cache.kv
      .put(key, stored, { expirationTtl: Math.max(60, freshSeconds + staleSeconds) })
      .catch((error) => cache.onRefreshError?.(key, error)),
  )
}

const encoder = new TextEncoder()
/** A string's size in UTF-8 bytes, as KV stores it. */
const bytesOf = (text: string): number => encoder.encode(text).byteLength
