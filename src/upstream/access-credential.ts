import type { Bindings } from '../env'
import { logEvent } from '../ops/log'

/**
 * The Worker's Cloudflare Access service token at the brand's backend (`UPSTREAM_ACCESS_CLIENT_ID` and
 * `UPSTREAM_ACCESS_CLIENT_SECRET`, secrets): sent as `CF-Access-Client-Id` / `CF-Access-Client-Secret` on every call
 * over HTTP, the standard way through Access in front of an origin (docs/decisions/040). Never logged.
 */
export type AccessCredential = { clientId: string; clientSecret: string }

/** Read once per isolate and environment, as the configuration is (src/config.ts): a half is logged once. */
const read = new WeakMap<object, AccessCredential | null>()

/**
 * The service token when both its halves are set, else null; one half alone is logged `config_invalid` (its value
 * never) and counts as none.
 *
 * @example
 * const credential = accessCredentialOf(c.env)
 */
export function accessCredentialOf(env: Bindings): AccessCredential | null {
  let credential = read.get(env)
  if (credential === undefined) {
    credential = credentialOf(env)
    read.set(env, credential)
  }
  return credential
}

function credentialOf(env: Bindings): AccessCredential | null {
  const clientId = env.UPSTREAM_ACCESS_CLIENT_ID || ''
  const clientSecret = env.UPSTREAM_ACCESS_CLIENT_SECRET || ''
  if (clientId && clientSecret) return { clientId, clientSecret }
  if (clientId || clientSecret)
    logEvent('error', 'config_invalid', {
      variable: clientId ? 'UPSTREAM_ACCESS_CLIENT_SECRET' : 'UPSTREAM_ACCESS_CLIENT_ID',
    })
  return null
}

/** The request with the service token's headers. */
export function withAccessCredential(request: Request, { clientId, clientSecret }: AccessCredential): Request {
  const headers = new Headers(request.headers)
  headers.set('CF-Access-Client-Id', clientId)
  headers.set('CF-Access-Client-Secret', clientSecret)
  return new Request(request, { headers })
}
