import type { Context } from 'hono'
import { sha256Hex } from '../crypto/digest'
import type { AppEnv } from '../env'
import { errorName, logEvent } from '../ops/log'
import { withinLimit } from '../ops/rate-limit'

/** What is counted: logging in and asking for a password link. */
export type Attempt = 'login' | 'forgot'

/** The window of the limiters (wrangler.toml `ratelimits`, period 60 s) and of a lock. */
export const ATTEMPT_WINDOW_SECONDS = 60

/**
 * The keys an attempt is counted under: every attempt of the client; failures against the account from this client
 * (`source`, 5 a minute) and from everywhere (`everywhere`, 30 a minute). Asking for a password link has no
 * `everywhere`: nobody may lock a customer out of recovery (the API bounds the mails an account gets).
 */
export type AttemptKeys = { attempt: Attempt; client: string; source: string; everywhere: string | null }

/** An attempt's keys, worked out once for the checks before and after it. */
export async function attemptKeys(c: Context<AppEnv>, attempt: Attempt, email: string): Promise<AttemptKeys> {
  const client = c.req.header('CF-Connecting-IP') ?? 'local'
  // Hashes of the address and the IP: the locks in KV hold neither.
  const [account, clientHash] = await Promise.all([sha256Hex(email.trim().toLowerCase()), sha256Hex(client)])
  return {
    attempt,
    client: `${attempt}:${client}`,
    source: `${attempt}:${account.slice(0, 32)}:${clientHash.slice(0, 16)}`,
    everywhere: attempt === 'login' ? `${attempt}:${account.slice(0, 32)}` : null,
  }
}

/**
 * Whether an attempt is refused before it is made (docs/decisions/006): the client is over its limit (every attempt
 * counts), or the account is locked for this client (too many failures from it) or for everyone (failures from
 * many clients). A limiter or a store that fails lets the attempt through, logged: the upstream's own limits remain.
 */
export async function attemptRefused(c: Context<AppEnv>, keys: AttemptKeys): Promise<boolean> {
  const { attempt } = keys
  const [byClient, locks] = await Promise.all([
    withinLimit(c.env.CLIENT_ATTEMPTS, keys.client),
    Promise.all(accountKeys(keys).map((key) => c.env.SESSIONS.get(lockKey(key)))).catch((error: unknown) => {
      logEvent('error', 'attempt_locks_unreadable', { error: errorName(error) })
      return []
    }),
  ])
  const refused = !byClient || locks.some((lock) => lock !== null)
  if (refused) logEvent('warn', 'attempt_refused', { attempt, by: byClient ? 'account' : 'client' })
  return refused
}

/**
 * Counts an attempt against its account (a failed login; every password link, since each sends a mail), from this
 * client and from everywhere, and locks the account for the window where a limit is passed. Answers whether this
 * attempt passed one. A customer's successful logins never count.
 */
export async function countAgainstAccount(c: Context<AppEnv>, keys: AttemptKeys): Promise<boolean> {
  const { attempt } = keys
  const [fromSource, fromEverywhere] = await Promise.all([
    withinLimit(c.env.ACCOUNT_CLIENT_ATTEMPTS, keys.source),
    keys.everywhere === null ? true : withinLimit(c.env.ACCOUNT_ATTEMPTS, keys.everywhere),
  ])
  const over = [!fromSource && keys.source, !fromEverywhere && keys.everywhere].filter((key): key is string => Boolean(key))
  await Promise.all(
    over.map((key) => c.env.SESSIONS.put(lockKey(key), '1', { expirationTtl: ATTEMPT_WINDOW_SECONDS }).catch(() => {})),
  )
  if (over.length) logEvent('warn', 'account_locked', { attempt, everywhere: !fromEverywhere })
  return over.length > 0
}

const accountKeys = (keys: AttemptKeys) => [keys.source, keys.everywhere].filter((key): key is string => key !== null)

const lockKey = (key: string) => `attempts:${key}`
