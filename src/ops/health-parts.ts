import { z } from 'zod'
import type { Bindings } from '../env'
import { AREA_NAMES, AREAS, type Areas } from '../upstream/areas'
import type { Upstream } from '../upstream/client'
import { siteCalls } from '../upstream/contract/sites'
import { isUpstreamError } from '../upstream/errors'
import { missingSecrets, requiredSecrets } from './required-secrets'

/** The key the deep health check reads in each KV namespace and heads in R2: it need not exist. */
export const HEALTH_KEY = '_health'

/** One part's check: resolves when the part works, throws (or rejects) with the reason it does not. */
export type HealthCheck = () => Promise<void>

/** The parts the deep health check asks, by name, in its report's order. */
export type HealthParts = Record<string, HealthCheck>

const anything = z.unknown()

/** A failed call's reason as the report names it (`api/sites: unavailable 500`): its call, failure and status. */
function reasonOf(error: unknown): Error {
  if (!isUpstreamError(error)) return error instanceof Error ? error : new Error(String(error))
  return new Error(`api/${error.path}: ${error.failure}${error.status ? ` ${error.status}` : ''}`)
}

/**
 * One cheap read of an area's `lists` call: ok whatever it answers but a failure of its own (a 5xx, no answer, a
 * timeout); a 401 or a refusal is an answer. A 404 proves the backend lacks the area (src/upstream/area-missing.ts).
 */
async function readList(upstream: Upstream, path: string): Promise<void> {
  const answer = await upstream.get(path, anything).catch((error: unknown) => {
    if (isUpstreamError(error) && (error.failure === 'unauthorized' || error.failure === 'rejected')) return undefined
    throw reasonOf(error)
  })
  if (answer === null) throw new Error(`api/${path}: 404, the area is missing`)
}

/**
 * The upstream's parts: the markets' list (`api/sites`, the original's eight calls' first), then one read of each area
 * the deployment serves or holds that has a call answered whatever it holds (its first `lists` call), for the first
 * market. Areas with no such read (the whistleblower channel, the newsletter, staff) are not asked: their writes are
 * proven by their own paths.
 */
function upstreamParts(upstream: Upstream, areas: Areas): HealthParts {
  let market: Promise<{ country: string; locale: string }> | undefined
  const sites = () =>
    (market ??= siteCalls(upstream)
      .sites()
      .then(
        (list) => {
          const first = list[0]
          if (!first) throw new Error('api/sites answered no market')
          return { country: first.slug, locale: first.locales[0] as string }
        },
        (error: unknown) => {
          throw reasonOf(error)
        },
      ))
  const parts: HealthParts = { 'upstream:sites': async () => void (await sites()) }
  for (const area of AREA_NAMES) {
    const call = (AREAS[area].lists as readonly string[])[0]
    if (!call || !(areas.served(area) || areas.held(area))) continue
    parts[`upstream:${area}`] = async () => readList(upstream.forMarket(await sites()), call)
  }
  return parts
}

/**
 * Every part of a deployment the deep health check asks: D1 (a trivial query), both KV namespaces (a read of
 * `HEALTH_KEY`), R2 (a head of it), the mail queue (bound: nothing is sent), the required secrets' presence
 * (src/ops/required-secrets.ts) and the upstream (`upstreamParts`).
 *
 * @example
 * const parts = healthParts(c.env, c.var.upstream, c.var.areas)
 */
export function healthParts(env: Bindings, upstream: Upstream, areas: Areas): HealthParts {
  return {
    d1: async () => void (await env.DB.prepare('SELECT 1').first()),
    'kv:CACHE': async () => void (await env.CACHE.get(HEALTH_KEY)),
    'kv:SESSIONS': async () => void (await env.SESSIONS.get(HEALTH_KEY)),
    r2: async () => void (await env.FILES.head(HEALTH_KEY)),
    'queue:MAIL_QUEUE': async () => {
      if (typeof env.MAIL_QUEUE?.send !== 'function') throw new Error('MAIL_QUEUE is not bound')
    },
    secrets: async () => {
      const missing = missingSecrets(requiredSecrets(env), env)
      if (missing.length) throw new Error(`missing: ${missing.join(', ')}`)
    },
    ...upstreamParts(upstream, areas),
  }
}
