import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'

/**
 * The reference API's entry as the composition root (worker.ts) hands it to the site: the site never imports it
 * (docs/decisions/032). With `UPSTREAM_URL` empty, the upstream client calls it in-process through this.
 */
export type ReferenceApiFetch = (request: Request, env: Bindings, ctx: Context['executionCtx']) => Response | Promise<Response>

let referenceApi: ReferenceApiFetch | null = null

/**
 * Hands the site the reference API it calls in-process while `UPSTREAM_URL` is empty: once, when the Worker is
 * composed.
 *
 * @example
 * embedReferenceApi((request, env, ctx) => api.fetch(request, env, ctx))
 */
export function embedReferenceApi(fetch: ReferenceApiFetch): void {
  referenceApi = fetch
}

/** The request's way to the embedded reference API, or null when none was handed over. */
export function referenceApiOf(c: Context<AppEnv>): ((request: Request) => Response | Promise<Response>) | null {
  const embedded = referenceApi
  return embedded && ((request) => embedded(request, c.env, c.executionCtx))
}
