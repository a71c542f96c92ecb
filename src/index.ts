import { app } from './app'
import type { Bindings } from './env'
import { deleteExpiredSubmissions } from './forms/retention'
import { withEarlyAnswers } from './page-cache/early'

export default {
  /** A page the page cache keeps, before the app runs (src/page-cache/early.ts); else the app. */
  fetch: withEarlyAnswers((request, env, ctx) => app.fetch(request, env, ctx)),
  /** The Cron Trigger of wrangler.toml: lead-form submissions and CVs past the retention period are deleted. */
  scheduled(controller, env, ctx) {
    ctx.waitUntil(deleteExpiredSubmissions(env, new Date(controller.scheduledTime)))
  },
} satisfies ExportedHandler<Bindings>
