import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { byDeadline } from '../../whistleblower/deadlines'
import type { CaseSummary } from '../../../contract/staff-schemas'
import { DataTable, Day, Flash, Pager, withQuery } from '../components'
import { queriedCursor } from '../list-query'
import { sectionPath } from '../sections'
import { sendConsolePage } from '../page'
import { callsOf, casePath } from './case-access'
import { CATEGORY_LABELS, DeadlineCell, marketOf, StateBadge } from './case-parts'

/**
 * `GET /_console/cases?after=`: every open case, overdue ones first, then by the next deadline; below them the closed
 * ones, newest first, a page at a time (by keyset, docs/decisions/068: the years' closed cases are never read whole).
 */
export async function casesPage(c: Context<AppEnv>): Promise<Response> {
  const now = new Date()
  const after = queriedCursor(c.req.query('after'))
  const calls = callsOf(c)
  const [open, closed] = await Promise.all([calls.list(), calls.closed(after)])
  const ordered = byDeadline(open, now)
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
        <CaseTable caption="Open cases, overdue first, then by next deadline" empty="No open case." cases={ordered} />
        <CaseTable
          caption="Closed cases, newest first"
          empty="No case is closed yet."
          cases={byDeadline(closed?.items ?? [], now)}
        />
        {closed && (
          <Pager meta={closed.meta} first={!after} href={(next) => withQuery(sectionPath('cases'), { after: next })} />
        )}
      </>
    ),
  })
}

/** A table of cases with their state and deadlines. */
function CaseTable({
  caption,
  empty,
  cases,
}: {
  caption: string
  empty: string
  cases: ReturnType<typeof byDeadline<CaseSummary>>
}) {
  return (
    <DataTable
      caption={caption}
      empty={empty}
      head={['Receipt code', 'Market', 'Category', 'State', 'Received', 'Acknowledgement', 'Feedback']}
      rows={cases.map((each) => ({
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
  )
}
