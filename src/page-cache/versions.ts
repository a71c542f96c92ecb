import { isMarketKey } from '../cache/keys'
import { isolateMemo } from '../cache/memo'
import { MEMO_SECONDS } from '../cache/policies'
import { rereadGate } from '../cache/rereads'
import { type CacheOutcome, forgetMemo } from '../cache/swr'

/** Where a version read is counted (the request log's cache lookups): `memo`, or `hit` for a KV read. */
export type VersionReport = (key: string, outcome: CacheOutcome) => void

/**
 * The page cache's versions: one per market (its country) and one for the whole brand, in KV, raised by a purge.
 * They are part of every page's key, so a purge drops a market's pages without listing a key: at once in the isolate
 * that purged, in the others of its location within `MEMO_SECONDS` (each isolate reads them again that often), once
 * KV has the new value there. Their keys sit outside the lookups' prefix, so purging everything never deletes them.
 */
const BRAND = '*'
const keyOf = (scope: string) => `page-version:${scope}`
const FIRST = '0'
const memo = isolateMemo<string>({ limit: 256, maxAgeMs: MEMO_SECONDS * 1000 })
const rereads = rereadGate()

async function versionOf(kv: KVNamespace, scope: string, report?: VersionReport): Promise<string | null> {
  const now = Date.now()
  const remembered = memo.entry(scope)
  if (remembered && (memo.get(scope, now) !== undefined || rereads.busy(scope, now))) {
    report?.(keyOf(scope), 'memo')
    return remembered.value
  }
  report?.(keyOf(scope), 'hit')
  const stored = await rereads.around(scope, now, () =>
    kv.get(keyOf(scope)).then(
      (value) => value ?? FIRST,
      () => undefined,
    ),
  )
  // KV that cannot be read: what this isolate knew, else no version (the page is rendered, not looked up).
  if (stored === undefined) return remembered?.value ?? null
  // A version raised elsewhere: this isolate's lookups of that scope are from before the purge.
  if (remembered && remembered.value !== stored) forgetLookups(scope)
  memo.set(scope, stored, now)
  return stored
}

function forgetLookups(scope: string): void {
  if (scope === BRAND) {
    forgetMemo()
    return
  }
  forgetMemo(isMarketKey(scope))
}

/** The version part of a market's page keys (`{market}.{brand}`), or null when KV cannot tell it. */
export async function pageVersion(kv: KVNamespace, country: string, report?: VersionReport): Promise<string | null> {
  const [market, brand] = await Promise.all([versionOf(kv, country, report), versionOf(kv, BRAND, report)])
  return market === null || brand === null ? null : `${market}.${brand}`
}

/**
 * The version part of a market's page keys as this isolate remembers it (both read within `MEMO_SECONDS`), else
 * null: no KV read (the page cache's early answer, `early.ts`).
 */
export function rememberedPageVersion(country: string, now = Date.now()): string | null {
  const fresh = (scope: string) => memo.get(scope, now) ?? null
  const market = fresh(country)
  const brand = market === null ? null : fresh(BRAND)
  return market === null || brand === null ? null : `${market}.${brand}`
}

/**
 * Raises a market's version (`country`), or the whole brand's (no country): its cached pages are never read again.
 * Called last by a purge, once the lookups the pages are made of are gone.
 */
export async function raisePageVersion(kv: KVNamespace, country?: string): Promise<void> {
  const scope = country ?? BRAND
  const version = `${Date.now().toString(36)}${(crypto.getRandomValues(new Uint32Array(1))[0] ?? 0).toString(36)}`
  memo.set(scope, version)
  await kv.put(keyOf(scope), version)
}

/** Forgets what this isolate read (between tests). */
export function forgetPageVersions(): void {
  memo.clear()
}
