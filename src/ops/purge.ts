import type { Context } from 'hono'
import { cacheKeysOf, everythingPrefix, isMarketKey } from '../cache/keys'
import { configOf } from '../config'
import { forgetMemo } from '../cache/swr'
import type { AppEnv, Bindings } from '../env'
import { parseMarketSegment } from '../market/market'
import { raisePageVersion } from '../page-cache/versions'
import { logEvent } from './log'
import { clientKey, isLocked, lock, withinLimit } from './rate-limit'

/** How long a client that sent too many wrong secrets (`PURGE_ATTEMPTS`) is refused, whatever it sends. */
export const PURGE_LOCK_SECONDS = 60

/**
 * `POST /_purge` (operators): `Authorization: Bearer {PURGE_SECRET}`; `?market=it-it` or `?country=it` purges one
 * market's cached lookups (and the sites list), nothing purges everything. Answers how many KV entries went. A client
 * (`CF-Connecting-IP`) past `PURGE_ATTEMPTS` wrong secrets is refused with 429 for a while, the right secret included,
 * so that guessing it gains nothing.
 *
 * @example
 * curl -X POST -H "Authorization: Bearer $PURGE_SECRET" "https://site.example/_purge?market=it-it"
 */
export async function purge(c: Context<AppEnv>): Promise<Response> {
  const refused = await operatorRefusal(c, 'purging')
  if (refused) return refused
  const country = c.req.query('country') ?? parseMarketSegment(c.req.query('market'))?.country
  if (
    (c.req.query('country') !== undefined || c.req.query('market') !== undefined) &&
    !/^[a-z]{2,3}$/.test(country ?? '')
  ) {
    return c.json({ error: 'market must look like it-it, country like it' }, 400)
  }
  const purged = country ? await purgeMarket(c.env, country) : await purgeEverything(c.env)
  return c.json({ purged, scope: country ?? 'everything' })
}

/**
 * The refusal of an operator's request (`/_purge`, `/_rewrap/whistleblower`), or null when it carries
 * `Authorization: Bearer {PURGE_SECRET}`: 503 without the secret (`what` is not configured), 401 for a wrong one, and 429 for a while once a
 * client sent `PURGE_ATTEMPTS` wrong ones (the right one included, so guessing gains nothing).
 */
export async function operatorRefusal(c: Context<AppEnv>, what: string): Promise<Response | null> {
  const secret = c.env.PURGE_SECRET
  const given = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1]
  if (!secret) return c.json({ error: `${what} is not configured (PURGE_SECRET)` }, 503)
  const key = `purge:${await clientKey(c)}`
  const tooMany = () => c.json({ error: 'too many wrong secrets' }, 429, { 'Retry-After': String(PURGE_LOCK_SECONDS) })
  if (await isLocked(c.env.SESSIONS, [key])) return tooMany()
  if (given && (await sameSecret(given, secret))) return null
  if (await withinLimit(c.env.PURGE_ATTEMPTS, key))
    return c.json({ error: 'unauthorized' }, 401, { 'WWW-Authenticate': 'Bearer' })
  await lock(c.env.SESSIONS, key, PURGE_LOCK_SECONDS, 'purge')
  logEvent('warn', 'purge_locked')
  return tooMany()
}

/**
 * Purges one market's cached lookups (the current upstream's `CACHE` entries and this isolate's memo; the sites list
 * too; another upstream's entries are never read: src/cache/keys.ts) and its pages (its
 * page version raised: src/page-cache/versions.ts): answers how many KV entries went. `/_purge?market=` and the
 * console's markets and purge pages call it.
 */
export async function purgeMarket(env: Bindings, country: string): Promise<number> {
  const { keys, prefix } = cacheKeysOf(configOf(env).upstream.fingerprint).market(country)
  await Promise.all(keys.map((key) => env.CACHE.delete(key)))
  const purged = keys.length + (await deletePrefix(env.CACHE, prefix))
  forgetMemo(isMarketKey(country))
  await raisePageVersion(env.CACHE, country)
  logEvent('info', 'cache_purged', { scope: country, purged })
  return purged
}

/** Purges every cached lookup (`CACHE` and this isolate's memo) and every page: answers how many KV entries went. */
export async function purgeEverything(env: Pick<Bindings, 'CACHE'>): Promise<number> {
  const purged = await deletePrefix(env.CACHE, everythingPrefix())
  forgetMemo()
  await raisePageVersion(env.CACHE)
  logEvent('info', 'cache_purged', { scope: 'everything', purged })
  return purged
}

async function deletePrefix(kv: KVNamespace, prefix: string): Promise<number> {
  let count = 0
  let cursor: string | undefined
  do {
    const page: KVNamespaceListResult<unknown> = await kv.list({ prefix, cursor })
    await Promise.all(page.keys.map((key) => kv.delete(key.name)))
    count += page.keys.length
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)
  return count
}

/** Workers' constant-time comparison (the DOM typings of SubtleCrypto lack it). */
type WorkersSubtle = { timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean }

/** Compares two secrets in constant time (digests first, so their lengths do not show either). */
export async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder()
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(given)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ])
  return (crypto.subtle as unknown as WorkersSubtle).timingSafeEqual(a, b)
}
