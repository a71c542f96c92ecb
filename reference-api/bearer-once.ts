import type { User } from '../contract/schemas'

/**
 * The users of bearer tokens already looked up for one request of the site (its in-process calls, reference-api's
 * `SITE_REQUEST`): a page asks the API several things with the same token at once (the account overview: the
 * profile, the orders, the bikes, the addresses, the cart), and each call would otherwise hash the token and read
 * `access_tokens` again. Kept by the site request's identity, gone with it.
 */
const looked = new WeakMap<object, Map<string, Promise<User | null>>>()

/**
 * The environment of an in-process call with the site request it is made for (an identity, nothing read from it).
 *
 * @example
 * api.fetch(request, withSiteRequest(env, siteRequest), ctx)
 */
export const withSiteRequest = <E extends object>(
  env: E,
  siteRequest: object | undefined,
): E & { SITE_REQUEST?: object } => (siteRequest ? { ...env, SITE_REQUEST: siteRequest } : env)

/**
 * The user of `token` for a reading call (GET, HEAD) of the same site request: looked up once (`lookUp`), answered
 * again from memory to that request's later reads. A call that may write (any other method) forgets what its request
 * looked up and looks up itself: a write can change the user or revoke the token (a logout, a new password, an
 * erasure), and later calls then read afresh. Without a site request (a call over HTTP), every call looks up.
 *
 * @example
 * const user = await bearerUserOnce(c.env.SITE_REQUEST, c.req.method, token, () => userOfToken(c.env.DB, token))
 */
export async function bearerUserOnce(
  siteRequest: object | undefined,
  method: string,
  token: string,
  lookUp: () => Promise<User | null>,
): Promise<User | null> {
  if (!siteRequest) return lookUp()
  if (method !== 'GET' && method !== 'HEAD') {
    forgetBearerUsers(siteRequest)
    return lookUp()
  }
  let users = looked.get(siteRequest)
  if (!users) {
    users = new Map()
    looked.set(siteRequest, users)
  }
  let user = users.get(token)
  if (!user) {
    user = lookUp()
    users.set(token, user)
    // A failed lookup is not remembered: the next call tries again, as it would have.
    user.catch(() => users.delete(token))
  }
  const found = await user
  return found && { ...found }
}

/**
 * The user of `token` that a reading call of the same site request already looked up, or null when none did (nothing
 * is looked up here).
 */
export async function lookedUpBearerUser(siteRequest: object | undefined, token: string): Promise<User | null> {
  const user = siteRequest ? looked.get(siteRequest)?.get(token) : undefined
  const found = await user?.catch(() => null)
  return found ? { ...found } : null
}

/**
 * Forgets the users looked up for a site request: called after each call that may write (reference-api/index.ts), so
 * a read that began while it wrote does not outlive it.
 */
export function forgetBearerUsers(siteRequest: object | undefined): void {
  if (siteRequest) looked.delete(siteRequest)
}
