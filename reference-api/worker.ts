import { Hono } from 'hono'
import type { ApiEnv } from './context'
import { api } from './index'
import { errorName, logEvent } from './log'
import { runRetention } from './retention'
import { sameSecret } from './service-token'
import { vouchedOverHttp, withWorkerCustomer } from './worker-customer'

/**
 * The standalone Worker's environment: the API's own, the Access service token it stands in for Access with, and how
 * many days it keeps lead-form submissions (`SUBMISSION_RETENTION_DAYS`, as the site's deployment says it; 365).
 */
type StandaloneEnv = {
  Bindings: ApiEnv['Bindings'] & {
    ACCESS_CLIENT_ID?: string
    ACCESS_CLIENT_SECRET?: string
    SUBMISSION_RETENTION_DAYS?: string
  }
}

/** Submissions are kept this many days unless `SUBMISSION_RETENTION_DAYS` (a whole number of 1 to 3650) says otherwise. */
const RETENTION_DAYS = 365

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

/** The retention period of a deployment's setting: a whole number of days from 1 to 3650, else the default (logged). */
export function retentionDaysOf(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return RETENTION_DAYS
  const days = Number(value)
  if (Number.isInteger(days) && days >= 1 && days <= 3650) return days
  logEvent('error', 'config_invalid', { variable: 'SUBMISSION_RETENTION_DAYS' })
  return RETENTION_DAYS
}

/**
 * Its Cron Trigger (reference-api/wrangler.toml) deletes what the retention says, as the site's does for the embedded
 * API: the log line carries counts only, and a failed run throws so that it is seen. Its outbox waits for whoever
 * sends the backend's mail (the API's own `claimUnqueuedMails` and `sendMail`, as the site's mail queue calls them).
 */
async function scheduled(controller: ScheduledController, env: StandaloneEnv['Bindings']): Promise<void> {
  const days = retentionDaysOf(env.SUBMISSION_RETENTION_DAYS)
  try {
    const deleted = await runRetention(env.DB, new Date(controller.scheduledTime), days)
    logEvent('info', 'retention', { days, ...deleted })
  } catch (error) {
    logEvent('error', 'retention', { days, error: errorName(error) })
    throw error
  }
}

export default { fetch: standalone.fetch, scheduled } satisfies ExportedHandler<StandaloneEnv['Bindings']>
