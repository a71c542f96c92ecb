import { CACHE_VERSION } from '../cache/keys'
import { MEMO_SECONDS } from '../cache/policies'
import type { CacheOutcome } from '../cache/swr'

/** Where a version read is counted (the request log's cache lookups): `memo`, or `hit` for a KV read. */
export type VersionReport = (key: string, outcome: CacheOutcome) => void

/**
 * The page cache's versions: one per market (its country) and one for the whole brand, numbers in KV that a purge
 * raises. They are part of every page's key, so a purge drops a market's pages at once without listing a key: in the
 * isolate that purged at once, in the others within `MEMO_SECONDS` (each isolate reads them again that often).
 */
const BRAND = '*'
const keyOf = (scope: string) => `${CACHE_VERSION}:page-version:${scope}`
const memo = new Map<string, { version: string; readAt: number }>()

async function versionOf(kv: KVNamespace, scope: string, report?: VersionReport): Promise<string> {
  const now = Date.now()
  const remembered = memo.get(scope)
  if (remembered && now - remembered.readAt < MEMO_SECONDS * 1000) {
    report?.(keyOf(scope), 'memo')
    return remembered.version
  }
  report?.(keyOf(scope), 'hit')
  // KV that cannot be read keeps what this isolate knew (or the first version): pages are then still answered.
  const version = (await kv.get(keyOf(scope)).catch(() => null)) ?? remembered?.version ?? '0'
  memo.set(scope, { version, readAt: now })
  return version
}

/** The version part of a market's page keys: `{market}.{brand}`. */
export async function pageVersion(kv: KVNamespace, country: string, report?: VersionReport): Promise<string> {
  const [market, brand] = await Promise.all([versionOf(kv, country, report), versionOf(kv, BRAND, report)])
  return `${market}.${brand}`
}

/** Raises a market's version (`country`), or the whole brand's (no country): its cached pages are never read again. */
export async function raisePageVersion(kv: KVNamespace, country?: string): Promise<void> {
  const scope = country ?? BRAND
  const version = `${Date.now().toString(36)}${crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36)}`
  memo.set(scope, { version, readAt: Date.now() })
  await kv.put(keyOf(scope), version)
}

/** Forgets what this isolate read (between tests). */
export function forgetPageVersions(): void {
  memo.clear()
}
