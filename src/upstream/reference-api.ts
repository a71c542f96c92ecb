import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'

/**
 * The embedded reference API as the composition root (worker.ts) hands it to the site: the site never imports it
 * (docs/decisions/032). With `UPSTREAM_URL` empty, the upstream client calls its `fetch` in-process, the Cron Trigger
 * its retention, the mail queue's consumer its outbox and `/_rewrap/whistleblower` its sealed values.
 */
export type ReferenceApi = {
  fetch: (request: Request, env: Bindings, ctx: Context['executionCtx']) => Response | Promise<Response>
  /** Sends at most `limit` of its queued mails through `deliver` (a sealed recipient as stored), oldest first. */
  sendOutbox(db: D1Database, deliver: (mail: QueuedMail) => Promise<void>, limit: number): Promise<SendingReport>
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

/** What is re-wrapped: the cases' wrapped keys or the outbox's queued sealed recipients (docs/decisions/048). */
export type RewrapPart = 'cases' | 'recipients'

/** What one batch of the re-wrap did, and the id to go on after (null: the part is done). */
export type RewrapBatch = { moved: number; newest: number; failed: number; next: number | null }

/** A queued row of the reference API's outbox, as stored. */
export type QueuedMail = { id: number; recipient: string; subject: string; body: string; kind: string }

/** What one run of the outbox's sender did. */
export type SendingReport = { sent: number; failed: number }

let embedded: ReferenceApi | null = null

/**
 * Hands the site the reference API it uses while `UPSTREAM_URL` is empty: once, when the Worker is composed.
 *
 * @example
 * embedReferenceApi({ fetch: (request, env, ctx) => api.fetch(request, env, ctx), sendOutbox, deleteSubmissions, deleteReporterMails, rewrapSealed })
 */
export function embedReferenceApi(referenceApi: ReferenceApi): void {
  embedded = referenceApi
}

/** The embedded reference API, or null when the Worker was composed without one. */
export const embeddedReferenceApi = (): ReferenceApi | null => embedded

/** The request's way to the embedded reference API's `fetch`, or null when none was handed over. */
export function referenceApiOf(c: Context<AppEnv>): ((request: Request) => Response | Promise<Response>) | null {
  const referenceApi = embedded
  return referenceApi && ((request) => referenceApi.fetch(request, c.env, c.executionCtx))
}
