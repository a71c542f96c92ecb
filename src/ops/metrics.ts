import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { RequestSummary } from './request-log'

/**
 * The route kind of a request: the pattern of the route that answers it (`/:market/products/:slug`, `/api/*`), found
 * among the matched routes even when a middleware answered first (the page cache, a 404 of the availability rule);
 * `none` when no route matched. Never the path itself: no slug, no token, a handful of values to group by.
 */
export function routeKindOf(c: Context): string {
  return matchedRoutes(c).find((route) => route.handler.length < 2)?.path ?? 'none'
}

/**
 * Writes one request's data point into Workers Analytics Engine (`METRICS`, `[[analytics_engine_datasets]]`); nothing
 * without the binding. The fields, which the alerts' queries name (docs/operations.md "Alerts"): index1 and blob1 the
 * route kind, blob2 the market (empty without one), blob3 the cache outcome, blob4 the method; double1 the status,
 * double2 the duration (ms), double3 the upstream calls, double4 those the backend failed. No path, no address, nothing personal.
 *
 * @example
 * recordRequest(c.env.METRICS, routeKindOf(c), log.summary(c.res.status))
 */
export function recordRequest(
  dataset: AnalyticsEngineDataset | undefined,
  routeKind: string,
  request: RequestSummary,
): void {
  dataset?.writeDataPoint({
    indexes: [routeKind],
    blobs: [routeKind, request.market ?? '', request.cache, request.method],
    doubles: [request.status, request.durationMs, request.upstreamCalls, request.upstreamFailures],
  })
}
