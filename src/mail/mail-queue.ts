import type { Bindings } from '../env'
import { errorName, logEvent } from '../ops/log'
import type { ReferenceApi } from '../upstream/reference-api'

/**
 * The mail queue's producer side (docs/mail.md): every outbox row the embedded reference API writes is announced to
 * `MAIL_QUEUE` by a message holding its id only — never the recipient or the words. A write's rows are announced as
 * its call is answered; rows whose announcement failed stay unannounced, and the scheduled run announces them.
 */

/** The body of a mail queue's message: the outbox row to send. */
export type MailMessage = { id: number }

/** The Cron Trigger that only announces what the mail queue was not told of (wrangler.toml `[triggers]`). */
export const MAIL_SWEEP_CRON = '*/10 * * * *'

/** Rows announced at once (a queue takes at most 100 messages a batch). */
export const MAILS_PER_ANNOUNCEMENT = 100

/**
 * Announces the outbox rows of the embedded reference API (none without one) not yet announced, oldest first, `MAILS_PER_ANNOUNCEMENT` at a time (`all`: until none is
 * left, as the scheduled run does; else one batch, as after a write). A failed send gives the rows back and is logged
 * with their count; it never throws. Answers how many were announced.
 *
 * @example ctx.waitUntil(queueWrittenMails(env, embeddedReferenceApi()))
 */
export async function queueWrittenMails(
  env: Bindings,
  referenceApi: ReferenceApi | null,
  { all = false } = {},
): Promise<number> {
  if (!referenceApi || !env.MAIL_QUEUE) return 0
  let announced = 0
  for (;;) {
    let ids: number[]
    try {
      ids = await referenceApi.claimUnqueuedMails(env.DB, MAILS_PER_ANNOUNCEMENT)
    } catch (error) {
      // Nothing claimed: the next run (or the next write) announces them.
      logEvent('error', 'mail_not_queued', { mails: 0, error: errorName(error) })
      return announced
    }
    if (!ids.length) return announced
    try {
      await env.MAIL_QUEUE.sendBatch(ids.map((id) => ({ body: { id } satisfies MailMessage, contentType: 'json' })))
    } catch (error) {
      await referenceApi.releaseMails(env.DB, ids).catch(() => undefined)
      logEvent('error', 'mail_not_queued', { mails: ids.length, error: errorName(error) })
      return announced
    }
    announced += ids.length
    if (!all || ids.length < MAILS_PER_ANNOUNCEMENT) return announced
  }
}
