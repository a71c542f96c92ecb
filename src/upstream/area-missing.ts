import { isolateMemo } from '../cache/memo'
import { logEvent } from '../ops/log'
import { AREAS, type Area, type Areas, areaOfCall } from './areas'
import type { Transport } from './transport'

/**
 * The answers that prove a backend lacks a route rather than a thing: `405` and `501` on any call, and `404` on a call
 * of the area's `lists` (src/upstream/areas.ts), which a backend serving the area answers 200 whatever it holds. A
 * `404` on a thing's own call (`front/news/{slug}`) is that thing's absence, never counted.
 */
export function provesAreaMissing(path: string, status: number, area: Area): boolean {
  if (status === 405 || status === 501) return true
  const bare = path.split('?')[0] ?? ''
  return status === 404 && (AREAS[area].lists as readonly string[]).includes(bare)
}

/** The areas already told missing in this isolate, by upstream and area: each is logged once. */
const told = isolateMemo<true>({ limit: 64 })

/**
 * The backend's transport, watched at first use: when a call of an area the deployment declares served
 * (`UPSTREAM_AREAS`) answers in a way that proves the backend lacks the route, `upstream_area_missing` is logged with
 * the area, once per isolate and upstream. The answer itself goes on unchanged: the page is what the error catalogue
 * makes of it (docs/decisions/039, 044).
 *
 * @example
 * const transport = watchAreas(httpTransport(credential), areas, config.upstream)
 */
export const watchAreas =
  (backend: Transport, areas: Areas, upstream: { url: string; fingerprint: string }): Transport =>
  async (request) => {
    const response = await backend(request)
    const prefix = `${upstream.url}/api/`
    if (response.ok || !request.url.startsWith(prefix)) return response
    const path = request.url.slice(prefix.length)
    const area = areaOfCall(path)
    if (!area || !areas.served(area) || !provesAreaMissing(path, response.status, area)) return response
    const key = `${upstream.fingerprint} ${area}`
    if (!told.get(key)) {
      told.set(key, true)
      logEvent('error', 'upstream_area_missing', {
        area,
        call: `${request.method} api/${path.split('?')[0]}`,
        status: response.status,
      })
    }
    return response
  }
