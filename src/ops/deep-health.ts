import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { type HealthParts, healthParts } from './health-parts'
import { errorName, logEvent } from './log'
import { operatorRefusal } from './purge'

/** How long one part may take before it counts as failed: the whole report answers within about this much. */
export const HEALTH_PART_TIMEOUT_MS = 2500

/** One part's outcome: whether it works, how long it took, and why not (never a secret's value). */
export type PartReport = { ok: boolean; ms: number; reason?: string }

/** Runs one check within `timeoutMs`: its outcome, or its reason. */
async function checkPart(check: () => Promise<void>, timeoutMs: number): Promise<PartReport> {
  const started = Date.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    await Promise.race([check(), timeout])
    return { ok: true, ms: Date.now() - started }
  } catch (error) {
    return { ok: false, ms: Date.now() - started, reason: error instanceof Error ? error.message : errorName(error) }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Checks every part at once, each within `timeoutMs`: a report by part's name, in `parts`' order.
 *
 * @example
 * const report = await checkParts({ d1: () => db.prepare('SELECT 1').first().then(() => {}) })
 */
export async function checkParts(
  parts: HealthParts,
  timeoutMs = HEALTH_PART_TIMEOUT_MS,
): Promise<Record<string, PartReport>> {
  const names = Object.keys(parts)
  const reports = await Promise.all(names.map((name) => checkPart(parts[name] as () => Promise<void>, timeoutMs)))
  return Object.fromEntries(names.map((name, i) => [name, reports[i] as PartReport]))
}

/**
 * `GET /_health/deep` (operators, monitors): `Authorization: Bearer {PURGE_SECRET}` as `/_purge` takes it (its rate
 * limit too). Checks D1, both KV namespaces, R2, the mail queue, the required secrets and the upstream (src/ops/health-parts.ts),
 * each within `HEALTH_PART_TIMEOUT_MS`: 200 when every part works, else 503, with a report per part; the failed ones
 * are logged `health_failed` (an alert's line: docs/operations.md "Alerts"). `/_health` stays the load balancers' cheap one.
 *
 * @example
 * curl -H "Authorization: Bearer $PURGE_SECRET" https://site.example/_health/deep
 */
export async function deepHealth(c: Context<AppEnv>): Promise<Response> {
  const refused = await operatorRefusal(c, 'deep health')
  if (refused) return refused
  const parts = await checkParts(healthParts(c.env, c.var.upstream, c.var.areas))
  const failed = Object.keys(parts).filter((name) => !parts[name]?.ok)
  if (failed.length) logEvent('error', 'health_failed', { parts: failed })
  return c.json({ status: failed.length ? 'failing' : 'ok', failed, parts }, failed.length ? 503 : 200)
}
