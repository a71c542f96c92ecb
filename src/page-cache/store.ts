/**
 * The page cache's two tiers: the isolate's memory (least recently used first out, bounded in bytes) in front of the
 * Cache API of the data centre. An entry is a page's status, headers and bytes with when it was stored and its ETag.
 */
export type PageEntry = {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: ArrayBuffer
  readonly etag: string
  readonly storedAt: number
  /** Where the page's personal parts end (`personal.tsx`): only the bytes before it are stitched. */
  readonly personalEnd?: number
}

/** How long a page is fresh, and how long after that it may still be answered while one refresh renders it again. */
export const PAGE_FRESH_SECONDS = 60
export const PAGE_STALE_SECONDS = 24 * 3600
/** A "Page Not Found" is kept this long and never answered stale: a page published meanwhile shows soon. */
export const NOT_FOUND_SECONDS = 60
/** The memory tier's bound. */
export const MEMORY_BYTES = 16 * 1024 * 1024

export type Freshness = 'fresh' | 'stale' | 'expired'

/** How an entry may be answered now. */
export function freshnessOf(entry: PageEntry, now = Date.now()): Freshness {
  const age = (now - entry.storedAt) / 1000
  if (entry.status === 404) return age < NOT_FOUND_SECONDS ? 'fresh' : 'expired'
  return age < PAGE_FRESH_SECONDS ? 'fresh' : age < PAGE_FRESH_SECONDS + PAGE_STALE_SECONDS ? 'stale' : 'expired'
}

const memory = new Map<string, PageEntry>()
let memoryBytes = 0
const sizeOf = (key: string, entry: PageEntry) => entry.body.byteLength + key.length * 2 + 512

/** A new answer of a kept page with its ETag (its body is read again for each answer; `HEAD` gets none). */
export function answerOf(entry: PageEntry, method: string): Response {
  const headers = new Headers(entry.headers as Array<[string, string]>)
  headers.set('ETag', entry.etag)
  return new Response(method === 'HEAD' ? null : entry.body, { status: entry.status, headers })
}

/** Whether an `If-None-Match` header names this ETag. */
export const matchesEtag = (ifNoneMatch: string | null | undefined, etag: string) =>
  !!ifNoneMatch && ifNoneMatch.split(/\s*,\s*/).includes(etag)

/** The isolate's copy, marked as just used. */
export function fromMemory(key: string): PageEntry | undefined {
  const entry = memory.get(key)
  if (!entry) return undefined
  memory.delete(key)
  memory.set(key, entry)
  return entry
}

/** Keeps an entry in memory, dropping the least recently used ones beyond `MEMORY_BYTES`. */
export function toMemory(key: string, entry: PageEntry): void {
  forgetInMemory(key)
  const size = sizeOf(key, entry)
  if (size > MEMORY_BYTES / 8) return
  memory.set(key, entry)
  memoryBytes += size
  for (const [oldest, old] of memory) {
    if (memoryBytes <= MEMORY_BYTES) break
    forgetInMemory(oldest, old)
  }
}

function forgetInMemory(key: string, entry = memory.get(key)): void {
  if (!entry) return
  memory.delete(key)
  memoryBytes -= sizeOf(key, entry)
}

/** Empties the memory tier (between tests). */
export function forgetPagesInMemory(): void {
  memory.clear()
  memoryBytes = 0
}

/** The data centre's copy: the entry as one body, its metadata (JSON, length first) before the page's bytes. */
export async function fromCacheApi(cache: Cache, key: string): Promise<PageEntry | undefined> {
  const stored = await cache.match(key).catch(() => undefined)
  if (!stored) return undefined
  try {
    const bytes = new Uint8Array(await stored.arrayBuffer())
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0)
    const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Omit<PageEntry, 'body'>
    return { ...meta, body: bytes.slice(4 + length).buffer }
  } catch {
    return undefined
  }
}

/** Stores an entry in the data centre's cache for as long as it may be answered. */
export async function toCacheApi(cache: Cache, key: string, entry: PageEntry): Promise<void> {
  const { body, ...meta } = entry
  const json = new TextEncoder().encode(JSON.stringify(meta))
  const bytes = new Uint8Array(4 + json.byteLength + body.byteLength)
  new DataView(bytes.buffer).setUint32(0, json.byteLength)
  bytes.set(json, 4)
  bytes.set(new Uint8Array(body), 4 + json.byteLength)
  const seconds = entry.status === 404 ? NOT_FOUND_SECONDS : PAGE_FRESH_SECONDS + PAGE_STALE_SECONDS
  await cache.put(key, new Response(bytes, { headers: { 'Cache-Control': `public, max-age=${seconds}` } }))
}

/** Drops a page from both tiers (a refresh found it gone). */
export async function forgetPage(cache: Cache, key: string): Promise<void> {
  forgetInMemory(key)
  await cache.delete(key).catch(() => false)
}
