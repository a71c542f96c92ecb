import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { byDeadline } from '../../whistleblower/deadlines'
import { DataTable, Day, Flash } from '../components'
import { sendConsolePage } from '../page'
import { callsOf, casePath } from './case-access'
import { CATEGORY_LABELS, DeadlineCell, marketOf, StateBadge } from './case-parts'

/** `GET /_console/cases`: every case, overdue ones first, then by the next deadline; closed ones last. */
export async function casesPage(c: Context<AppEnv>): Promise<Response> {
  const now = new Date()
  const ordered = byDeadline(await callsOf(c).list(), now)
  const overdue = ordered.filter((each) => each.deadlines.overdue).length
  return sendConsolePage(c, {
    title: 'Cases',
    body: (
      <>
        <p className="hint cases-intro">
          The Directive's deadlines: acknowledge a report within 7 days of receiving it; give feedback within 3 months
          of the acknowledgement. Open cases with a deadline passed come first.
        </p>
        {overdue > 0 && (
          <Flash tone="error">{overdue === 1 ? '1 case is overdue.' : `${overdue} cases are overdue.`}</Flash>
        )}
        <DataTable
          caption="Cases, overdue first, then by next deadline"
          empty="No reports have come in."
          head={['Receipt code', 'Market', 'Category', 'State', 'Received', 'Acknowledgement', 'Feedback']}
          rows={ordered.map((each) => ({
            key: each.id,
            cells: [
              <>
                <a href={casePath(each.id)}>
                  <code>{each.receipt_code}</code>
                </a>
                {each.deadlines.overdue && (
                  <>
                    {' '}
                    <span className="badge error">Overdue</span>
                  </>
                )}
              </>,
              marketOf(each),
              CATEGORY_LABELS[each.category],
              <StateBadge state={each.state} />,
              <Day at={each.received_at} />,
              <DeadlineCell deadline={each.deadlines.acknowledgement} closed={each.state === 'closed'} />,
              <DeadlineCell deadline={each.deadlines.feedback} closed={each.state === 'closed'} />,
            ],
          }))}
        />
      </>
    ),
  })
}
