import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'
import type { WorkerCustomer } from '../../contract/worker-customer'

/**
 * The embedded reference API as the composition root (worker.ts) hands it to the site: the site never imports it
 * (docs/decisions/032). With `UPSTREAM_URL` empty, the upstream client calls its `fetch` in-process, the Cron Trigger
 * its retention and the mail queue's consumer its outbox.
 */
export type ReferenceApi = {
  /**
   * Answers a call in-process; `customer`, the backend's user the Worker vouches for on a held shop's call
   * (docs/decisions/043), travels beside the request, never in it.
   */
  fetch: (
    request: Request,
    env: Bindings,
    ctx: Context['executionCtx'],
    customer?: WorkerCustomer,
  ) => Response | Promise<Response>
  /** Sends at most `limit` of its queued mails through `deliver` (a sealed recipient as stored), oldest first. */
  sendOutbox(db: D1Database, deliver: (mail: QueuedMail) => Promise<void>, limit: number): Promise<SendingReport>
  /** Deletes its lead-form submissions created before `cutOff`, with their mails; answers how many. */
  deleteSubmissions(db: D1Database, cutOff: Date): Promise<number>
  /** Deletes whistleblowers' "there is news" mails once sent, or unsent ones past the API's own period; how many. */
  deleteReporterMails(db: D1Database, now: Date): Promise<number>
}

/** A queued row of the reference API's outbox, as stored. */
export type QueuedMail = { id: number; recipient: string; subject: string; body: string; kind: string }

/** What one run of the outbox's sender did. */
export type SendingReport = { sent: number; failed: number }

let embedded: ReferenceApi | null = null

/**
 * Hands the site the reference API it uses while `UPSTREAM_URL` is empty: once, when the Worker is composed.
 *
 * @example
 * embedReferenceApi({ fetch: (request, env, ctx) => api.fetch(request, env, ctx), sendOutbox, deleteSubmissions, deleteReporterMails })
 */
export function embedReferenceApi(referenceApi: ReferenceApi): void {
  embedded = referenceApi
}

/** The embedded reference API, or null when the Worker was composed without one. */
export const embeddedReferenceApi = (): ReferenceApi | null => embedded

/** The request's way to the embedded reference API's `fetch` (for a vouched customer, when given), or null when none was handed over. */
export function referenceApiOf(
  c: Context<AppEnv>,
): ((request: Request, customer?: WorkerCustomer) => Response | Promise<Response>) | null {
  const referenceApi = embedded
  return referenceApi && ((request, customer) => referenceApi.fetch(request, c.env, c.executionCtx, customer))
}
