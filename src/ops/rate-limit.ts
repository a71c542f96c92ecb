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
