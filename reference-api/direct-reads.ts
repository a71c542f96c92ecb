import { Context, type ExecutionContext } from 'hono'
import type { ApiContext, ApiEnv } from './context'
import { errorName, loggablePath, logEvent } from './log'
import { overviewRead } from './resources/overview'

/**
 * The reads the site makes on pages never kept whose handler is known by the path alone (no parameter in it, no
 * middleware but the caller's market and language and the handler's own token check): answered in-process without
 * the API's router (docs/decisions/066). Each is routed in `api` as well, for calls over HTTP.
 */
const DIRECT: Readonly<Record<string, (c: ApiContext) => Promise<Response>>> = {
  '/api/account/overview': overviewRead,
}

/**
 * The answer of a direct read (`DIRECT`: a GET of a known path), or null for every other call: the same handler, the
 * same caller (`setCaller`) and the same failure answer (`failed`) as through `api`, without its router.
 */
export function directRead(request: Request, env: ApiEnv['Bindings'], ctx: ExecutionContext): Promise<Response> | null {
  if (request.method !== 'GET') return null
  const url = request.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const end = url.indexOf('?', start)
  const path = url.slice(start, end < 0 ? undefined : end)
  const handler = DIRECT[path]
  if (!handler) return null
  const c = new Context<ApiEnv>(request, { env, executionCtx: ctx, path }) as unknown as ApiContext
  setCaller(c)
  return handler(c).catch((error: unknown) => failed(error, c))
}

/** The caller's market (`X-Tenant`, two or three letters, else none) and language (`X-Locale`, two letters, else en). */
export function setCaller(c: ApiContext): void {
  const tenant = c.req.header('X-Tenant')?.toLowerCase() ?? ''
  const locale = c.req.header('X-Locale')?.toLowerCase() ?? ''
  c.set('tenant', /^[a-z]{2,3}$/.test(tenant) ? tenant : null)
  c.set('locale', /^[a-z]{2}$/.test(locale) ? locale : 'en')
}

/** The answer of a call that threw: logged `api_failed` with its path, and a 500 that says nothing more. */
export function failed(error: unknown, c: ApiContext): Response {
  logEvent('error', 'api_failed', { path: loggablePath(c.req.path), error: errorName(error) })
  return c.json({ message: 'Server Error' }, 500)
}
