import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'

/** What is counted: logging in and asking for a password link. */
export type Attempt = 'login' | 'forgot'

/** The window of both limiters (wrangler.toml `ratelimits`, period 60 s): a refused visitor may retry after it. */
export const ATTEMPT_WINDOW_SECONDS = 60

/**
 * Counts an attempt against the per-client (IP) and per-account (e-mail) limits of Workers Rate Limiting and answers
 * whether either is exceeded. The account is keyed by a hash of the address, never the address itself. A limiter that
 * fails lets the attempt through (logged): the upstream's own checks still apply.
 */
export async function tooManyAttempts(c: Context<AppEnv>, attempt: Attempt, email: string): Promise<boolean> {
  const client = c.req.header('CF-Connecting-IP') ?? 'local'
  try {
    const [byClient, byAccount] = await Promise.all([
      c.env.CLIENT_ATTEMPTS.limit({ key: `${attempt}:${client}` }),
      c.env.ACCOUNT_ATTEMPTS.limit({ key: `${attempt}:${await accountKey(email)}` }),
    ])
    const refused = !byClient.success || !byAccount.success
    if (refused) logEvent('warn', 'attempts_limited', { attempt, by: byClient.success ? 'account' : 'client' })
    return refused
  } catch (error) {
    logEvent('error', 'rate_limiter_failed', { attempt, error: errorName(error) })
    return false
  }
}

async function accountKey(email: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(email.trim().toLowerCase()))
  return Array.from(new Uint8Array(digest).slice(0, 16), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
