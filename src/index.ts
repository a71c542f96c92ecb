import { app } from './app'
import type { Bindings } from './env'
import { deleteExpiredSubmissions } from './forms/retention'

export default {
  fetch: app.fetch,
  /** The Cron Trigger of wrangler.toml: lead-form submissions and CVs past the retention period are deleted. */
  scheduled(controller, env, ctx) {
    ctx.waitUntil(deleteExpiredSubmissions(env, new Date(controller.scheduledTime)))
  },
} satisfies ExportedHandler<Bindings>
