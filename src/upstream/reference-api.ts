import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'
import type { MailOutcome, QueuedMail, SuppressionReason } from '../../contract/outbox-mail'
import type { RewrapBatch, RewrapPart } from '../../contract/rewrap-batch'
import type { WorkerCustomer } from '../../contract/worker-customer'
import type { D1Rows } from '../../contract/d1-rows'
import { queueWrittenMails } from '../mail/mail-queue'

/**
 * The embedded reference API as the composition root (worker.ts) hands it to the site: the site never imports it
 * (docs/decisions/032). With `UPSTREAM_URL` empty, the upstream client calls its `fetch` in-process, the Cron Trigger
 * its retention, the mail queue (docs/mail.md) its outbox (a write's new rows announced, each sent by the consumer)
 * and `/_rewrap/whistleblower` its sealed values.
 */
export type ReferenceApi = {
  /**
   * Answers a call in-process; `customer`, the backend's user the Worker vouches for on a held shop's call
   * (docs/decisions/043), travels beside the request, never in it; `siteRequest`, the same object for every call of
   * one request of the site (an identity only), lets the API look a bearer token up once for that request's reads;
   * `rows`, the request's tally of D1 rows read and written, which the API's database adds to.
   */
  fetch: (
    request: Request,
    env: Bindings,
    ctx: Context['executionCtx'],
    customer?: WorkerCustomer,
    siteRequest?: object,
    rows?: D1Rows,
  ) => Response | Promise<Response>
  /** Marks at most `limit` outbox rows not yet announced to the mail queue as queued; answers their ids. */
  claimUnqueuedMails(db: D1Database, limit: number): Promise<number[]>
  /** Gives claimed rows back when their announcement failed (the scheduled run announces them again). */
  releaseMails(db: D1Database, ids: readonly number[]): Promise<void>
  /**
   * Sends one row through `deliver` (a sealed recipient as stored; it answers the mail service's id, or null when
   * mails are only recorded), once; a failed attempt's reason (`reasonOf`) is kept on the row and the error thrown.
   */
  sendMail(
    db: D1Database,
    id: number,
    deliver: (mail: QueuedMail) => Promise<string | null>,
    reasonOf: (error: unknown) => string,
  ): Promise<MailOutcome>
  /** Marks a row failed for good, with `reason` or its last attempt's. */
  failMail(db: D1Database, id: number, reason?: string): Promise<void>
  /** Stops mail to an address the mail service reported bounced or complained about; its newsletter ends. */
  suppressAddress(db: D1Database, address: string, reason: SuppressionReason): Promise<void>
  /** Deletes its lead-form submissions created before `cutOff`, with their mails; answers how many. */
  deleteSubmissions(db: D1Database, cutOff: Date): Promise<number>
  /** Deletes whistleblowers' "there is news" mails once sent, or unsent ones past the API's own period; how many. */
  deleteReporterMails(db: D1Database, now: Date): Promise<number>
  /**
   * Moves at most `limit` rows of a part after the id `after` to the newest whistleblower key through `rewrap` (a
   * stored value sealed again, null when it already is, throws when it cannot be opened); answers the counts.
   */
  rewrapSealed(
    db: D1Database,
    part: RewrapPart,
    rewrap: (stored: string) => Promise<string | null>,
    after: number,
    limit: number,
  ): Promise<RewrapBatch>
}

let embedded: ReferenceApi | null = null

/**
 * Hands the site the reference API it uses while `UPSTREAM_URL` is empty: once, when the Worker is composed.
 *
 * @example
 * embedReferenceApi({ fetch: (request, env, ctx, customer, siteRequest, rows) => api.fetch(request, withSiteRequest(withWorkerCustomer(withRowCount(env, rows), customer), siteRequest), ctx), claimUnqueuedMails, releaseMails, sendMail, failMail, suppressAddress, deleteSubmissions, deleteReporterMails, rewrapSealed })
 */
export function embedReferenceApi(referenceApi: ReferenceApi): void {
  embedded = referenceApi
}

/** The embedded reference API, or null when the Worker was composed without one. */
export const embeddedReferenceApi = (): ReferenceApi | null => embedded

/**
 * The request's way to the embedded reference API's `fetch` (for a vouched customer, when given), or null when none
 * was handed over. Its calls share one identity of this request, so the API looks the visitor's token up once for
 * all of them, and the request log's tally of D1 rows, which they add to. A call that may write (any but GET and HEAD) is followed, in the background, by announcing the
 * mails it wrote to the mail queue — once its own background work is done too (a sign-up writes its mail after
 * answering).
 */
export function referenceApiOf(
  c: Context<AppEnv>,
): ((request: Request, customer?: WorkerCustomer) => Promise<Response>) | null {
  const referenceApi = embedded
  const siteRequest = {}
  const rows = c.get('log')?.d1Rows
  return (
    referenceApi &&
    (async (request, customer) => {
      if (request.method === 'GET' || request.method === 'HEAD')
        return referenceApi.fetch(request, c.env, c.executionCtx, customer, siteRequest, rows)
      const ctx = c.executionCtx
      const background: Promise<unknown>[] = []
      const watched = new Proxy(ctx, {
        get(target, key) {
          if (key === 'waitUntil')
            return (promise: Promise<unknown>) => {
              background.push(promise)
              target.waitUntil(promise)
            }
          const value = Reflect.get(target, key, target)
          return typeof value === 'function' ? value.bind(target) : value
        },
      })
      const response = await referenceApi.fetch(request, c.env, watched, customer, siteRequest, rows)
      ctx.waitUntil(Promise.allSettled(background).then(() => queueWrittenMails(c.env, referenceApi)))
      return response
    })
  )
}
