import { Hono } from 'hono'
import type { ApiEnv } from './context'
import { api } from './index'
import { sameSecret } from './service-token'
import { vouchedOverHttp, withWorkerCustomer } from './worker-customer'

/** The standalone Worker's environment: the API's own, and the Access service token it stands in for Access with. */
type StandaloneEnv = {
  Bindings: ApiEnv['Bindings'] & { ACCESS_CLIENT_ID?: string; ACCESS_CLIENT_SECRET?: string }
}

/**
 * The reference API as a Worker of its own (`reference-api/wrangler.toml`): the whole contract of docs/api.md over
 * HTTP, as the brand's backend serves it, for the site to run against it with `UPSTREAM_URL` (the browser tests'
 * "over HTTP" project, docs/decisions/042). It stands in for Cloudflare Access too: with `ACCESS_CLIENT_ID` and
 * `ACCESS_CLIENT_SECRET` set, a call without that service token (`CF-Access-Client-Id` / `CF-Access-Client-Secret`)
 * answers 403, as Access would. Reachable by anyone on its port, it settles no payment without the Worker's service
 * token (`UPSTREAM_SERVICE_TOKEN`): `POST api/payments/events` answers 503 until it is set; nor does it take a held
 * shop's customer (`X-Worker-Customer`, docs/decisions/043) from anyone else.
 */
const standalone = new Hono<StandaloneEnv>()

standalone.get('/_health', (c) => c.text('ok'))

standalone.use(async (c, next) => {
  const { ACCESS_CLIENT_ID: clientId, ACCESS_CLIENT_SECRET: clientSecret } = c.env
  if (!clientId || !clientSecret) return next()
  const [sameId, sameSecretValue] = await Promise.all([
    sameSecret(c.req.header('CF-Access-Client-Id') ?? '', clientId),
    sameSecret(c.req.header('CF-Access-Client-Secret') ?? '', clientSecret),
  ])
  if (!sameId || !sameSecretValue) return c.json({ message: 'Forbidden' }, 403)
  return next()
})

standalone.post('/api/payments/events', async (c, next) => {
  if (!c.env.UPSTREAM_SERVICE_TOKEN) return c.json({ message: 'UPSTREAM_SERVICE_TOKEN is not set' }, 503)
  return next()
})

// A held shop's customer, vouched for by the Worker with its service token; anyone else's header is ignored.
standalone.all('*', async (c) =>
  api.fetch(
    c.req.raw,
    withWorkerCustomer(c.env, await vouchedOverHttp(c.req.raw, c.env.UPSTREAM_SERVICE_TOKEN)),
    c.executionCtx,
  ),
)

export default { fetch: standalone.fetch } satisfies ExportedHandler<StandaloneEnv['Bindings']>
