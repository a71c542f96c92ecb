import { tokenHash } from './passwords'

/** How many bearer tokens' hashes an isolate keeps (then the oldest is forgotten). */
const LIMIT = 500

/** Bearer tokens' hashes by token, in the order first asked. */
const hashes = new Map<string, string>()

/**
 * The stored form of a bearer token (`tokenHash`, its SHA-256 in hex), computed once per isolate for a token its calls
 * keep showing (a logged-in customer's every page): a hash is the same whenever it is computed, so nothing is trusted
 * that was not before. Whether the token is known and not expired is read from `access_tokens` on every call, as it
 * was (docs/decisions/074).
 *
 * @example
 * const owner = { tokenHash: await bearerTokenHash(token) }
 */
export async function bearerTokenHash(token: string): Promise<string> {
  const known = hashes.get(token)
  if (known !== undefined) return known
  const hash = await tokenHash(token)
  if (hashes.size >= LIMIT) hashes.delete(hashes.keys().next().value as string)
  hashes.set(token, hash)
  return hash
}
