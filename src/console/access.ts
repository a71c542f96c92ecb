import type { Context, MiddlewareHandler } from 'hono'
import { isolateMemo } from '../cache/memo'
import { fromBase64Url } from '../crypto/digest'
import type { Bindings, AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { errorName, logEvent } from '../ops/log'

/**
 * Cloudflare Access in front of the console (optional, docs/console.md). Access itself stops anyone it does not
 * let in before the Worker runs; this check makes sure a request really came through it: with `ACCESS_TEAM_DOMAIN`
 * (`https://{team}.cloudflareaccess.com`) and `ACCESS_AUD` (the Access application's audience tag) set, every
 * `/_console` request must carry a `Cf-Access-Jwt-Assertion` signed by the team's keys (RS256), for that audience,
 * issued by that team and not expired; otherwise it is refused (403) before anything else. Unset: no check.
 *
 * The assertion's `email` is the person Access let in: a staff member signs in only with the account of that address,
 * and a console session is used only with it (sign-in.ts, guard.ts; `sameAccessEmail`), so whoever Access admits
 * cannot use another staff member's credentials or session.
 */

export type AccessConfig = { teamDomain: string; audience: string }

/** The Access configuration, or null when the check is off (either variable empty, or the domain not https). */
export function accessConfigOf(env: Pick<Bindings, 'ACCESS_TEAM_DOMAIN' | 'ACCESS_AUD'>): AccessConfig | null {
  const domain = env.ACCESS_TEAM_DOMAIN?.trim()
  const audience = env.ACCESS_AUD?.trim()
  if (!domain || !audience) return null
  try {
    const url = new URL(domain)
    if (url.protocol !== 'https:') return null
    return { teamDomain: url.origin, audience }
  } catch {
    return null
  }
}

/** Clocks of Access and the Worker may differ this much. */
const LEEWAY_SECONDS = 60
/** How long the team's keys are kept in the isolate before they are fetched again. */
const KEYS_TTL_MS = 3600_000

type Jwk = JsonWebKey & { kid?: string }
const keyCache = isolateMemo<Promise<Map<string, CryptoKey>>>({ limit: 4, maxAgeMs: KEYS_TTL_MS })

/** The team's public keys by `kid` (`/cdn-cgi/access/certs`), kept an hour; `fresh` fetches them again (a new kid). */
function teamKeys(teamDomain: string, fresh = false): Promise<Map<string, CryptoKey>> {
  if (fresh) keyCache.delete(teamDomain)
  return keyCache.remember(teamDomain, async () => {
    const response = await fetch(`${teamDomain}/cdn-cgi/access/certs`)
    if (!response.ok) throw new Error(`access certs answered ${response.status}`)
    const { keys: jwks = [] } = (await response.json()) as { keys?: Jwk[] }
    const imported = await Promise.all(
      jwks
        .filter((jwk) => jwk.kty === 'RSA' && jwk.kid)
        .map(
          async (jwk) =>
            [
              jwk.kid as string,
              await crypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, [
                'verify',
              ]),
            ] as const,
        ),
    )
    return new Map(imported)
  })
}

const decodeJson = (part: string) =>
  JSON.parse(new TextDecoder().decode(fromBase64Url(part))) as Record<string, unknown>

/** Who Access let in: the assertion's `email` claim, or null when it has none (a service token). */
export type AccessIdentity = { email: string | null }

/** The identity of an Access token good for this configuration at `now` (ms), or null when it is not good. */
export async function verifyAccessJwt(
  token: string,
  config: AccessConfig,
  now = Date.now(),
): Promise<AccessIdentity | null> {
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]+$/.test(part))) return null
  const [head, body, signature] = parts as [string, string, string]
  let header: Record<string, unknown>
  let claims: Record<string, unknown>
  try {
    header = decodeJson(head)
    claims = decodeJson(body)
  } catch {
    return null
  }
  if (header.alg !== 'RS256' || typeof header.kid !== 'string') return null
  const seconds = now / 1000
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (!audiences.includes(config.audience) || claims.iss !== config.teamDomain) return null
  if (typeof claims.exp !== 'number' || claims.exp + LEEWAY_SECONDS < seconds) return null
  if (typeof claims.nbf === 'number' && claims.nbf - LEEWAY_SECONDS > seconds) return null
  let key = (await teamKeys(config.teamDomain)).get(header.kid)
  if (!key) key = (await teamKeys(config.teamDomain, true)).get(header.kid)
  if (!key) return null
  const good = await crypto.subtle.verify(
    'RSASSA-PKCS1-v1_5',
    key,
    fromBase64Url(signature),
    new TextEncoder().encode(`${head}.${body}`),
  )
  if (!good) return null
  return { email: typeof claims.email === 'string' && claims.email.trim() ? claims.email.trim() : null }
}

/**
 * Who Cloudflare Access let in on this request: null when Access is not configured (no check); otherwise the
 * assertion's identity as the middleware verified it (`{ email: null }` if it did not run: no address matches that).
 */
export function accessIdentityOf(c: Context<AppEnv>): AccessIdentity | null {
  if (!accessConfigOf(c.env)) return null
  return c.var.access ?? { email: null }
}

/** Whether a staff member's address is the one Access let in (case-insensitive); true when Access is not configured. */
export function sameAccessEmail(access: AccessIdentity | null, staffEmail: string): boolean {
  if (!access) return true
  return access.email !== null && access.email.toLowerCase() === staffEmail.trim().toLowerCase()
}

/**
 * The console's first gate when Access is configured: a request without a good `Cf-Access-Jwt-Assertion` gets the
 * 403 console page. Keys that cannot be fetched refuse too (logged): the console stays shut rather than open.
 *
 * @example
 * consoleApp.use(cloudflareAccess())
 */
export const cloudflareAccess = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const config = accessConfigOf(c.env)
  if (config) {
    const token = c.req.header('Cf-Access-Jwt-Assertion') ?? ''
    const identity = await verifyAccessJwt(token, config).catch((error: unknown) => {
      logEvent('error', 'access_keys_unavailable', { error: errorName(error) })
      return null
    })
    if (!identity) {
      logEvent('warn', 'access_refused')
      throw new PageError(403, 'The console is reached through Cloudflare Access only.')
    }
    c.set('access', identity)
  }
  await next()
}
