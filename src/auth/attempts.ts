import type { Context } from 'hono'
import { sha256Hex } from '../crypto/digest'
import type { AppEnv } from '../env'
import { logEvent } from '../ops/log'
import { isLocked, lock, withinLimit } from '../ops/rate-limit'
import { trustedDevice } from './device-cookie'

/**
 * What is counted: logging in, asking for a password link, creating an account, asking for a new confirmation link,
 * and staff signing in to the console.
 */
export type Attempt = 'login' | 'forgot' | 'register' | 'confirm' | 'staff'

/** The window of the limiters (wrangler.toml `ratelimits`, period 60 s) and of a lock. */
export const ATTEMPT_WINDOW_SECONDS = 60

/**
 * The keys an attempt is counted under: every attempt of the client (`client`); failures against the account from
 * this client (`source`, 5 a minute) and from everywhere (`everywhere`, 30 a minute). A browser with the account's
 * device cookie (src/auth/device-cookie.ts) is `trusted`: its failures count against that device and against all the
 * account's trusted devices together, so failures from elsewhere never lock it, and a stolen or hoarded device cookie
 * is no licence to guess. Asking for a password link has no `everywhere`: nobody may lock a customer out of recovery
 * (the API bounds the mails an account gets); nor has creating an account or asking for a new confirmation link.
 */
export type AttemptKeys = {
  attempt: Attempt
  /** The account: the SHA-256 of its address. */
  account: string
  trusted: boolean
  client: string
  source: string
  everywhere: string | null
}

/** Attempts that send a mail: counted per client and per account from one client, never locked from everywhere. */
const MAILING_ATTEMPTS: readonly Attempt[] = ['forgot', 'register', 'confirm']

/** An attempt's keys, worked out once for the checks before and after it. */
export async function attemptKeys<E extends AppEnv>(
  c: Context<E>,
  attempt: Attempt,
  email: string,
): Promise<AttemptKeys> {
  const client = c.req.header('CF-Connecting-IP') ?? 'local'
  // Hashes of the address, the IP and the device: the locks in KV hold none of them.
  const [account, clientHash] = await Promise.all([sha256Hex(email.trim().toLowerCase()), sha256Hex(client)])
  const prefix = `${attempt}:${account.slice(0, 32)}`
  const device = attempt === 'login' ? await trustedDevice(c, account) : null
  const deviceHash = device && (await sha256Hex(device))
  return {
    attempt,
    account,
    trusted: device !== null,
    client: `${attempt}:${client}`,
    source: deviceHash ? `${prefix}:device:${deviceHash.slice(0, 16)}` : `${prefix}:${clientHash.slice(0, 16)}`,
    everywhere: deviceHash ? `${prefix}:devices` : MAILING_ATTEMPTS.includes(attempt) ? null : prefix,
  }
}

/**
 * Whether an attempt is refused before it is made (docs/decisions/006): the client is over its limit (every attempt
 * counts), or the account is locked for this client (too many failures from it) or for everyone (failures from
 * many clients); for a trusted device, for that device or for all the account's devices. A limiter or a store that
 * fails lets the attempt through, logged: the upstream's own limits remain.
 */
export async function attemptRefused<E extends AppEnv>(c: Context<E>, keys: AttemptKeys): Promise<boolean> {
  const { attempt } = keys
  const [byClient, locked] = await Promise.all([
    withinLimit(c.env.CLIENT_ATTEMPTS, keys.client),
    isLocked(c.env.SESSIONS, accountKeys(keys)),
  ])
  const refused = !byClient || locked
  if (refused)
    logEvent('warn', 'attempt_refused', { attempt, by: byClient ? 'account' : 'client', trusted: keys.trusted })
  return refused
}

/**
 * Counts an attempt against its account (a failed login; every password link, since each sends a mail), from this
 * client and from everywhere, and locks the account for the window where a limit is passed. Answers whether this
 * attempt passed one. A customer's successful logins never count.
 */
export async function countAgainstAccount<E extends AppEnv>(c: Context<E>, keys: AttemptKeys): Promise<boolean> {
  const { attempt } = keys
  const [fromSource, fromEverywhere] = await Promise.all([
    withinLimit(c.env.ACCOUNT_CLIENT_ATTEMPTS, keys.source),
    keys.everywhere === null ? true : withinLimit(c.env.ACCOUNT_ATTEMPTS, keys.everywhere),
  ])
  const over = [!fromSource && keys.source, !fromEverywhere && keys.everywhere].filter((key): key is string =>
    Boolean(key),
  )
  await Promise.all(over.map((key) => lock(c.env.SESSIONS, key, ATTEMPT_WINDOW_SECONDS, attempt)))
  if (over.length) logEvent('warn', 'account_locked', { attempt, everywhere: !fromEverywhere, trusted: keys.trusted })
  return over.length > 0
}

const accountKeys = (keys: AttemptKeys) => [keys.source, keys.everywhere].filter((key): key is string => key !== null)
