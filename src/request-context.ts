import type { MiddlewareHandler } from 'hono'
import { cacheKeysOf } from './cache/keys'
import { createLookups } from './cache/lookups'
import { configOf } from './config'
import type { AppEnv } from './env'
import { pageCacheRenderOf } from './page-cache/render-request'
import { createUpstream } from './upstream/client'
import { accessCredentialOf } from './upstream/access-credential'
import { referenceApiOf } from './upstream/reference-api'
import { type Areas, areasOf } from './upstream/areas'
import { watchAreas } from './upstream/area-missing'
import { heldShopTransport } from './upstream/held-shop'
import {
  EMBEDDED_ORIGIN,
  type EmbeddedTransport,
  type Transport,
  areaTransport,
  embeddedTransport,
  httpTransport,
  misconfiguredTransport,
} from './upstream/transport'
import { errorName, logEvent } from './ops/log'
import { recordRequest, routeKindOf } from './ops/metrics'
import { RequestLog } from './ops/request-log'

/** The backend's transport with the areas the Worker holds in its stead: the shop's own way when it holds the shop. */
function heldAreasTransport(backend: Transport, embedded: EmbeddedTransport, areas: Areas, baseUrl: string): Transport {
  const held = areaTransport(backend, embedded, areas, baseUrl)
  return areas.held('cart-checkout') ? heldShopTransport(backend, embedded, baseUrl, held) : held
}

/**
 * Builds what every request needs before anything else runs: its log line, the upstream client (the embedded
 * reference API in-process, or `UPSTREAM_URL` over HTTP) and the cached lookups; writes the log line and the metrics' data point (src/ops/metrics.ts) when the answer is ready.
 *
 * @example
 * app.use(requestContext())
 */
export const requestContext = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  // The page cache's own render counts into its visitor's line and writes none.
  const render = pageCacheRenderOf(c.req.raw)
  c.set('pageCacheRender', render)
  const log = render?.log ?? new RequestLog(c.req.method, c.req.path, { noTrace: c.get('noTrace') })
  c.set('log', log)
  const config = configOf(c.env)
  const http = config.upstream.kind === 'http' ? config.upstream : null
  const referenceApi = referenceApiOf(c)
  const embedded = config.upstream.kind === 'embedded' ? referenceApi : null
  const areas = areasOf(config.upstreamAreas, referenceApi !== null, config.upstreamHold)
  c.set('areas', areas)
  const backend = http && watchAreas(httpTransport(accessCredentialOf(c.env)), areas, http)
  const upstream = createUpstream({
    transport:
      http && backend
        ? referenceApi
          ? heldAreasTransport(backend, embeddedTransport(referenceApi), areas, http.url)
          : backend
        : embedded
          ? embeddedTransport(embedded)
          : misconfiguredTransport,
    baseUrl: http?.url ?? EMBEDDED_ORIGIN,
    timeoutMs: config.upstreamTimeoutMs,
    signal: c.req.raw.signal,
    onCall: log.upstreamCall,
  })
  c.set('upstream', upstream)
  c.set(
    'lookups',
    createLookups(
      {
        kv: c.env.CACHE,
        waitUntil: (promise) => c.executionCtx.waitUntil(promise),
        report: log.cacheOutcome,
        reportPut: log.kvPut,
        onRefreshError: (key, error) => logEvent('warn', 'cache_refresh_failed', { key, error: errorName(error) }),
      },
      upstream,
      cacheKeysOf(config.upstream.fingerprint),
    ),
  )
  await next()
  if (render) return
  log.write(c.res.status)
  recordRequest(c.env.METRICS, routeKindOf(c), log.summary(c.res.status))
}
