import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'

/** What is counted: logging in and asking for a password link. */
export type Attempt = 'login' | 'forgot'

/** The window of both limiters (wrangler.toml `ratelimits`, period 60 s) and of an account's lock. */
export const ATTEMPT_WINDOW_SECONDS = 60

/**
 * Whether an attempt is refused before it is made: the client (IP) is over its limit (every attempt counts, Workers
 * Rate Limiting), or the account is locked after too many failures. A limiter that fails lets the attempt through
 * (logged): the upstream's own checks still apply.
 */
export async function attemptRefused(c: Context<AppEnv>, attempt: Attempt, email: string): Promise<boolean> {
  const client = c.req.header('CF-Connecting-IP') ?? 'local'
  const [byClient, locked] = await Promise.all([
    limit(c.env.CLIENT_ATTEMPTS, `${attempt}:${client}`),
    c.env.SESSIONS.get(lockKey(attempt, await accountKey(email))).catch(() => null),
  ])
  if (!byClient) logEvent('warn', 'attempts_limited', { attempt, by: 'client' })
  return !byClient || locked !== null
}

/**
 * Counts an attempt against the account (a failed login; every password link, since each sends a mail) and answers
 * whether the account is now over its limit, in which case it stays locked for the window. Counting only failures
 * keeps a customer who logs in often from locking themselves out; the key is a hash of the address, never the address.
 */
export async function countAgainstAccount(c: Context<AppEnv>, attempt: Attempt, email: string): Promise<boolean> {
  const account = await accountKey(email)
  if (await limit(c.env.ACCOUNT_ATTEMPTS, `${attempt}:${account}`)) return false
  logEvent('warn', 'attempts_limited', { attempt, by: 'account' })
  await c.env.SESSIONS.put(lockKey(attempt, account), '1', { expirationTtl: ATTEMPT_WINDOW_SECONDS }).catch(() => {})
  return true
}

async function limit(limiter: RateLimit, key: string): Promise<boolean> {
  try {
    return (await limiter.limit({ key })).success
  } catch (error) {
    logEvent('error', 'rate_limiter_failed', { error: errorName(error) })
    return true
  }
}

const lockKey = (attempt: Attempt, account: string) => `attempts:${attempt}:${account}`

async function accountKey(email: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(email.trim().toLowerCase()))
  return Array.from(new Uint8Array(digest).slice(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
