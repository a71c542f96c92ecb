import { configOf } from '../config'
import type { Bindings } from '../env'
import { errorName, logEvent } from '../ops/log'
import { embeddedReferenceApi } from '../upstream/reference-api'
import { CV_PREFIX } from './cv'

const DAY_MS = 24 * 60 * 60 * 1000
/** R2 lists and deletes at most 1000 keys at a time. */
const KEYS_PER_PAGE = 1000

export type RetentionReport = {
  cutOff: string
  submissions: number | null
  reporterMails: number | null
  files: number
}

/**
 * Deletes what lead forms left behind once the deployment's retention period (`SUBMISSION_RETENTION_DAYS`) is over, as
 * of `now` (the Cron Trigger's time): the embedded reference API's submissions created before the cut-off, with their
 * mails, and the whistleblowers' "there is news" mails once sent (or kept as long as the API says), deleted by the reference API
 * itself — only when it is the site's upstream (a brand's own backend keeps its own data and deletes it itself) — and
 * every CV uploaded to R2 before the cut-off, whatever the upstream (the Worker stored them). The log line carries
 * counts only. A part that fails does not stop the other; the run then fails, so the failure is seen.
 */
export async function deleteExpiredSubmissions(env: Bindings, now: Date): Promise<RetentionReport> {
  const config = configOf(env)
  const cutOff = new Date(now.getTime() - config.retentionDays * DAY_MS)
  const embedded = config.upstream.kind === 'embedded' ? embeddedReferenceApi() : null
  const [submissions, reporterMails, files] = await Promise.allSettled([
    embedded ? embedded.deleteSubmissions(env.DB, cutOff) : Promise.resolve(null),
    embedded ? embedded.deleteReporterMails(env.DB, now) : Promise.resolve(null),
    deleteFiles(env.FILES, cutOff),
  ])
  const report: RetentionReport = {
    cutOff: cutOff.toISOString(),
    submissions: submissions.status === 'fulfilled' ? submissions.value : null,
    reporterMails: reporterMails.status === 'fulfilled' ? reporterMails.value : null,
    files: files.status === 'fulfilled' ? files.value : 0,
  }
  const failed = [submissions, reporterMails, files].filter(
    (part): part is PromiseRejectedResult => part.status === 'rejected',
  )
  logEvent(failed.length ? 'error' : 'info', 'retention', {
    days: config.retentionDays,
    submissions: report.submissions,
    reporterMails: report.reporterMails,
    files: report.files,
    ...(failed.length ? { error: failed.map((part) => errorName(part.reason)).join('; ') } : {}),
  })
  if (failed.length) throw new Error('retention incomplete')
  return report
}

/** Deletes the CVs uploaded before the cut-off, a listing page at a time (R2 lists in key order, not by date). */
async function deleteFiles(bucket: R2Bucket, cutOff: Date): Promise<number> {
  let deleted = 0
  let cursor: string | undefined
  do {
    const page = await bucket.list({ prefix: CV_PREFIX, cursor, limit: KEYS_PER_PAGE })
    const expired = page.objects.filter((object) => object.uploaded < cutOff).map((object) => object.key)
    if (expired.length) await bucket.delete(expired)
    deleted += expired.length
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  return deleted
}
