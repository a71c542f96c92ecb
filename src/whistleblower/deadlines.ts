import type { CaseState } from '../../contract/whistleblower-schemas'

/**
 * The deadlines of EU Directive 2019/1937 for an internal reporting channel (art. 9(1)(b) and (f)): the reporter is
 * told their report was received within 7 days of receiving it, and gets feedback within a reasonable time not
 * exceeding 3 months from that acknowledgement or, when none was sent, from the end of the 7-day period. Times are UTC;
 * months are calendar months (31 January + 3 months is 30 April, the last day the month has).
 */

export const ACKNOWLEDGEMENT_DAYS = 7
export const FEEDBACK_MONTHS = 3

const DAY_MS = 24 * 60 * 60 * 1000

/** What the deadlines are computed from: a case's state and times (ISO 8601, UTC). */
export type CaseTimes = {
  state: CaseState
  received_at: string
  acknowledged_at: string | null
  feedback_at: string | null
  closed_at: string | null
}

export type DeadlineKind = 'acknowledgement' | 'feedback'

export type Deadline = {
  kind: DeadlineKind
  /** When it falls due (ISO 8601, UTC). */
  due: string
  /** When it was met (the acknowledgement, the first feedback), or null. */
  met: string | null
  /** Met after it fell due. */
  late: boolean
  /** Not met, the case open, and the time past it. */
  overdue: boolean
}

export type CaseDeadlines = {
  acknowledgement: Deadline
  feedback: Deadline
  /** The deadline the handler has to meet next: the first one not met of an open case; null when none is left. */
  next: Deadline | null
  /** Whether the next deadline has passed. */
  overdue: boolean
}

/** A time plus whole calendar months, in UTC, on the month's last day when it has fewer days (31 Jan + 1 = 28/29 Feb). */
export function addMonths(time: Date, months: number): Date {
  const year = time.getUTCFullYear()
  const month = time.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const result = new Date(time.getTime())
  result.setUTCFullYear(year, month, Math.min(time.getUTCDate(), lastDay))
  return result
}

/** When a case's acknowledgement falls due: 7 days after it was received. */
export const acknowledgementDue = (receivedAt: string) =>
  new Date(Date.parse(receivedAt) + ACKNOWLEDGEMENT_DAYS * DAY_MS)

/** When a case's feedback falls due: 3 months after its acknowledgement, or after the 7 days when none was sent. */
export const feedbackDue = (times: Pick<CaseTimes, 'received_at' | 'acknowledged_at'>) =>
  addMonths(
    times.acknowledged_at ? new Date(times.acknowledged_at) : acknowledgementDue(times.received_at),
    FEEDBACK_MONTHS,
  )

/** A case's two deadlines, which is next and whether it is overdue, at `now`. */
export function caseDeadlines(times: CaseTimes, now: Date): CaseDeadlines {
  const open = times.state !== 'closed'
  const deadline = (kind: DeadlineKind, due: Date, met: string | null): Deadline => ({
    kind,
    due: due.toISOString(),
    met,
    late: met !== null && Date.parse(met) > due.getTime(),
    overdue: open && met === null && now.getTime() > due.getTime(),
  })
  const acknowledgement = deadline('acknowledgement', acknowledgementDue(times.received_at), times.acknowledged_at)
  const feedback = deadline('feedback', feedbackDue(times), times.feedback_at)
  const next = open ? ([acknowledgement, feedback].find((each) => each.met === null) ?? null) : null
  return { acknowledgement, feedback, next, overdue: next?.overdue ?? false }
}

/**
 * Cases in the order a handler works on them: open cases with a deadline to meet, the soonest due first (so the
 * overdue ones come first, the most overdue at the top); then open cases whose deadlines are all met, the oldest
 * first; closed cases last, the most recently closed first.
 */
export function byDeadline<T extends CaseTimes>(
  cases: readonly T[],
  now: Date,
): Array<T & { deadlines: CaseDeadlines }> {
  const rank = (each: T & { deadlines: CaseDeadlines }) => (each.state === 'closed' ? 2 : each.deadlines.next ? 0 : 1)
  const key = (each: T & { deadlines: CaseDeadlines }) => {
    if (each.state === 'closed') return -Date.parse(each.closed_at ?? each.received_at)
    return each.deadlines.next ? Date.parse(each.deadlines.next.due) : Date.parse(each.received_at)
  }
  return cases
    .map((each) => ({ ...each, deadlines: caseDeadlines(each, now) }))
    .sort((a, b) => rank(a) - rank(b) || key(a) - key(b))
}
