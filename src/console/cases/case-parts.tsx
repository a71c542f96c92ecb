import type { CaseSummary } from '../../../contract/staff-schemas'
import type { CaseState, ReportCategory } from '../../../contract/whistleblower-schemas'
import type { Deadline } from '../../whistleblower/deadlines'
import { Day, Time } from '../components'

/** What the list and the case page both show of a case: its category and state in words, its market, its deadlines. */

/** A report's category as the console names it. */
export const CATEGORY_LABELS: Record<ReportCategory, string> = {
  fraud_corruption: 'Fraud or corruption',
  product_safety: 'Product safety',
  environment: 'Environment',
  data_protection: 'Data protection',
  harassment_discrimination: 'Harassment or discrimination',
  other: 'Other',
}

/** A case's state as the console names it. */
export const STATE_LABELS: Record<CaseState, string> = {
  received: 'Received',
  acknowledged: 'Acknowledged',
  in_progress: 'In progress',
  closed: 'Closed',
}

/** The market a case came from (`it-it`). */
export const marketOf = (summary: Pick<CaseSummary, 'site' | 'locale'>) => `${summary.site}-${summary.locale}`

/** A case's state as a badge. */
export function StateBadge({ state }: { state: CaseState }) {
  const tone = state === 'closed' ? '' : state === 'received' ? ' warn' : ' ok'
  return <span className={`badge${tone}`}>{STATE_LABELS[state]}</span>
}

/**
 * A deadline as the list and the case show it: met (and when, late or not), due (its day only: the acknowledgement's
 * due time is the receipt's to the minute plus 7 days), overdue.
 */
export function DeadlineCell({ deadline, closed }: { deadline: Deadline; closed: boolean }) {
  if (deadline.met) {
    return (
      <>
        Met <Time at={deadline.met} />
        {deadline.late && (
          <>
            {' '}
            <span className="badge warn">Late</span>
          </>
        )}
      </>
    )
  }
  if (closed) return <>Not given</>
  return (
    <>
      Due <Day at={deadline.due} />
      {deadline.overdue && (
        <>
          {' '}
          <span className="badge error">Overdue</span>
        </>
      )}
    </>
  )
}
