import { inProcessFetch } from './reference-api'
import { claimUnqueuedMails, failMail, releaseMails, sendMail, suppressAddress } from './reference-api/outbox-sender'
import { deleteReporterMails, deleteSubmissions } from './reference-api/retention'
import { rewrapSealed } from './reference-api/rewrap'
import { withSiteRequest } from './reference-api/bearer-once'
import { withRowCount } from './reference-api/row-count'
import { withWorkerCustomer } from './reference-api/worker-customer'
import type { Bindings } from './src/env'
import site from './src/index'
import { embedReferenceApi } from './src/upstream/reference-api'

/**
 * The Worker as deployed, composed of two programs that never import each other (docs/decisions/032): the site
 * (src/) and the embedded reference API (reference-api/), whose fetch the site's upstream client calls in-process while
 * `UPSTREAM_URL` is empty, and whose retention and outbox the site's Cron Trigger and mail queue run.
 */
embedReferenceApi({
  fetch: (request, env, ctx, customer, siteRequest, rows) =>
    inProcessFetch(request, withSiteRequest(withWorkerCustomer(withRowCount(env, rows), customer), siteRequest), ctx),
  claimUnqueuedMails,
  releaseMails,
  sendMail,
  failMail,
  suppressAddress,
  deleteSubmissions,
  deleteReporterMails,
  rewrapSealed,
})

export default {
  fetch: site.fetch,
  scheduled: site.scheduled,
  queue: site.queue,
} satisfies ExportedHandler<Bindings>
