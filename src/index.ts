import { app } from './app'
import type { Bindings } from './env'
import { deleteExpiredSubmissions } from './forms/retention'
import { receiveMailBatch } from './mail/mail-consumer'
import { MAIL_SWEEP_CRON, queueWrittenMails } from './mail/mail-queue'
import { withEarlyAnswers } from './page-cache/early'
import { embeddedReferenceApi } from './upstream/reference-api'

export default {
  /** A page the page cache keeps, before the app runs (src/page-cache/early.ts); else the app. */
  fetch: withEarlyAnswers((request, env, ctx) => app.fetch(request, env, ctx)),
  /**
   * The Cron Triggers of wrangler.toml: every run announces the outbox rows the mail queue was not told of; the daily
   * one (any but MAIL_SWEEP_CRON) also deletes lead-form submissions and CVs past the retention period.
   */
  scheduled(controller, env, ctx) {
    ctx.waitUntil(queueWrittenMails(env, embeddedReferenceApi(), { all: true }))
    if (controller.cron !== MAIL_SWEEP_CRON)
      ctx.waitUntil(deleteExpiredSubmissions(env, new Date(controller.scheduledTime)))
  },
  /** The mail queue and its dead-letter queue (src/mail/mail-consumer.ts). */
  queue: (batch, env) => receiveMailBatch(batch, env),
} satisfies ExportedHandler<Bindings>
