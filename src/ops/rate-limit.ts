import type { Context } from 'hono'
import { sha256Hex } from '../crypto/digest'
import { errorName, logEvent } from './log'

/**
 * Whether an attempt counted under `key` stays within a Workers Rate Limiting binding's limit. A limiter that fails
 * lets the attempt through, logged: a broken counter must not lock everyone out.
 *
 * @example
 * if (!(await withinLimit(env.PURGE_ATTEMPTS, `purge:${client}`))) return tooMany()
 */
export async function withinLimit(limiter: RateLimit, key: string): Promise<boolean> {
  try {
    return (await limiter.limit({ key })).success
  } catch (error) {
    logEvent('error', 'rate_limiter_failed', { error: errorName(error) })
    return true
  }
}

/** The KV key of a lock (in `SESSIONS`, never `CACHE`: a purge must not lift it). */
const lockKey = (key: string) => `attempts:${key}`

/**
 * Whether any of these keys is locked. A store that cannot be read locks nothing, logged: the limiters still count.
 *
 * @example
 * if (await isLocked(env.SESSIONS, [`purge:${client}`])) return tooMany()
 */
export async function isLocked(kv: KVNamespace, keys: readonly string[]): Promise<boolean> {
  try {
    const locks = await Promise.all(keys.map((key) => kv.get(lockKey(key))))
    return locks.some((lock) => lock !== null)
  } catch (error) {
    logEvent('error', 'attempt_locks_unreadable', { error: errorName(error) })
    return false
  }
}

/** Locks a key for `seconds`. A lock that cannot be written is logged: the attempt that passed the limit is refused anyway. */
export async function lock(kv: KVNamespace, key: string, seconds: number, attempt: string): Promise<void> {
  await kv.put(lockKey(key), '1', { expirationTtl: seconds }).catch((error: unknown) => {
    logEvent('error', 'attempt_lock_not_written', { attempt, error: errorName(error) })
  })
}

/** The client a request comes from, for counting its attempts: a hash of its address (the address is never kept). */
export async function clientKey(c: Context): Promise<string> {
  return (await sha256Hex(c.req.header('CF-Connecting-IP') ?? 'local')).slice(0, 32)
}
