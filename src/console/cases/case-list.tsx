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

/** The words of the open cases' pager: they are in the order of their deadlines, not of their age. */
const OPEN_PAGES = { first: 'Soonest due', next: 'Due later', nav: 'Open cases’ pages' }

/**
 * `GET /_console/cases?open=&after=`: the open cases, overdue ones first, then by the next deadline, a page at a time;
 * below them the closed ones, newest first, a page at a time (both by keyset, docs/decisions/068 and 077: neither the
 * open cases nor the years' closed ones are ever read whole).
 */
export async function casesPage(c: Context<AppEnv>): Promise<Response> {
  const now = new Date()
  const openAfter = queriedCursor(c.req.query('open'))
  const after = queriedCursor(c.req.query('after'))
  const calls = callsOf(c)
  const [open, closed] = await Promise.all([calls.open(openAfter), calls.closed(after)])
  const ordered = byDeadline(open?.items ?? [], now)
  const overdue = ordered.filter((each) => each.deadlines.overdue).length
  // The page holds the soonest due first: when every case on it is overdue, more may follow on the next.
  const atLeast = overdue === ordered.length && Boolean(open?.meta.next_cursor)
  return sendConsolePage(c, {
    title: 'Cases',
    body: (
      <>
        <p className="hint cases-intro">
          The Directive's deadlines: acknowledge a report within 7 days of receiving it; give feedback within 3 months
          of the acknowledgement. Open cases with a deadline passed come first.
        </p>
        {overdue > 0 && !openAfter && (
          <Flash tone="error">
            {atLeast
              ? `At least ${overdue} cases are overdue.`
              : overdue === 1
                ? '1 case is overdue.'
                : `${overdue} cases are overdue.`}
          </Flash>
        )}
        <CaseTable caption="Open cases, overdue first, then by next deadline" empty="No open case." cases={ordered} />
        {open && (
          <Pager
            meta={open.meta}
            first={!openAfter}
            labels={OPEN_PAGES}
            href={(next) => withQuery(sectionPath('cases'), { open: next })}
          />
        )}
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
