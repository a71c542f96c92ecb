import { describe, expect, it } from 'vitest'
import {
  acknowledgementDue,
  addMonths,
  byDeadline,
  type CaseTimes,
  caseDeadlines,
  feedbackDue,
} from '../../src/whistleblower/deadlines'

const at = (iso: string) => new Date(iso)
const received = (received_at: string, more: Partial<CaseTimes> = {}): CaseTimes => ({
  state: 'received',
  received_at,
  acknowledged_at: null,
  feedback_at: null,
  closed_at: null,
  ...more,
})

describe('calendar months in UTC', () => {
  it('keeps the day and the time of day', () => {
    expect(addMonths(at('2026-03-15T09:30:00.000Z'), 3).toISOString()).toBe('2026-06-15T09:30:00.000Z')
  })

  it('ends on the last day of a shorter month (31 January + 3 months is 30 April)', () => {
    expect(addMonths(at('2026-01-31T12:00:00.000Z'), 3).toISOString()).toBe('2026-04-30T12:00:00.000Z')
    expect(addMonths(at('2026-05-31T00:00:00.000Z'), 1).toISOString()).toBe('2026-06-30T00:00:00.000Z')
  })

  it('knows leap years: 30 November + 3 months is 29 February in 2028, 28 February in 2027', () => {
    expect(addMonths(at('2027-11-30T23:59:59.000Z'), 3).toISOString()).toBe('2028-02-29T23:59:59.000Z')
    expect(addMonths(at('2026-11-30T23:59:59.000Z'), 3).toISOString()).toBe('2027-02-28T23:59:59.000Z')
    expect(addMonths(at('2028-02-29T10:00:00.000Z'), 12).toISOString()).toBe('2029-02-28T10:00:00.000Z')
  })

  it('crosses the year', () => {
    expect(addMonths(at('2026-12-31T08:00:00.000Z'), 3).toISOString()).toBe('2027-03-31T08:00:00.000Z')
    expect(addMonths(at('2026-10-15T08:00:00.000Z'), 3).toISOString()).toBe('2027-01-15T08:00:00.000Z')
  })
})

describe("the Directive's deadlines of a case", () => {
  it('asks for the acknowledgement within 7 days of receiving the report', () => {
    expect(acknowledgementDue('2026-02-25T10:00:00.000Z').toISOString()).toBe('2026-03-04T10:00:00.000Z')
    expect(acknowledgementDue('2028-02-25T10:00:00.000Z').toISOString()).toBe('2028-03-03T10:00:00.000Z')
  })

  it('asks for feedback within 3 months of the acknowledgement', () => {
    expect(
      feedbackDue({
        received_at: '2026-01-02T08:00:00.000Z',
        acknowledged_at: '2026-01-05T14:00:00.000Z',
      }).toISOString(),
    ).toBe('2026-04-05T14:00:00.000Z')
  })

  it('counts the 3 months from the end of the 7 days when no acknowledgement was sent (art. 9(1)(f))', () => {
    // Received 24 January: the 7 days end on 31 January, feedback falls due on 30 April.
    expect(feedbackDue({ received_at: '2026-01-24T12:00:00.000Z', acknowledged_at: null }).toISOString()).toBe(
      '2026-04-30T12:00:00.000Z',
    )
  })

  it('makes the acknowledgement the next deadline of a new case, not overdue before its time', () => {
    const deadlines = caseDeadlines(received('2026-11-20T09:00:00.000Z'), at('2026-11-27T08:59:59.000Z'))
    expect(deadlines.next).toMatchObject({
      kind: 'acknowledgement',
      due: '2026-11-27T09:00:00.000Z',
      met: null,
      overdue: false,
    })
    expect(deadlines.overdue).toBe(false)
  })

  it('marks an unacknowledged case overdue once the 7 days are past', () => {
    const deadlines = caseDeadlines(received('2026-11-20T09:00:00.000Z'), at('2026-11-27T09:00:01.000Z'))
    expect(deadlines.overdue).toBe(true)
    expect(deadlines.acknowledgement.overdue).toBe(true)
    expect(deadlines.feedback).toMatchObject({ due: '2027-02-27T09:00:00.000Z', overdue: false })
  })

  it('moves to the feedback once acknowledged, and tells an acknowledgement sent late', () => {
    const deadlines = caseDeadlines(
      received('2026-11-01T09:00:00.000Z', { state: 'acknowledged', acknowledged_at: '2026-11-10T09:00:00.000Z' }),
      at('2026-11-23T10:00:00.000Z'),
    )
    expect(deadlines.acknowledgement).toMatchObject({ met: '2026-11-10T09:00:00.000Z', late: true, overdue: false })
    expect(deadlines.next).toMatchObject({ kind: 'feedback', due: '2027-02-10T09:00:00.000Z', overdue: false })
  })

  it('marks feedback overdue after 3 months without any, and leaves nothing due once it was given', () => {
    const acknowledged = received('2026-01-01T09:00:00.000Z', {
      state: 'acknowledged',
      acknowledged_at: '2026-01-02T09:00:00.000Z',
    })
    expect(caseDeadlines(acknowledged, at('2026-04-02T09:00:01.000Z'))).toMatchObject({
      overdue: true,
      next: { kind: 'feedback' },
    })
    const answered = { ...acknowledged, state: 'in_progress' as const, feedback_at: '2026-03-01T09:00:00.000Z' }
    expect(caseDeadlines(answered, at('2026-06-01T00:00:00.000Z'))).toMatchObject({
      overdue: false,
      next: null,
      feedback: { met: '2026-03-01T09:00:00.000Z', late: false },
    })
  })

  it('lets nothing be overdue on a closed case', () => {
    const closed = received('2025-01-01T09:00:00.000Z', {
      state: 'closed',
      closed_at: '2025-01-03T09:00:00.000Z',
      feedback_at: '2025-01-03T09:00:00.000Z',
    })
    const deadlines = caseDeadlines(closed, at('2026-11-23T00:00:00.000Z'))
    expect(deadlines.next).toBeNull()
    expect(deadlines.overdue).toBe(false)
    expect(deadlines.acknowledgement.overdue).toBe(false)
  })
})

describe('the order of the case list', () => {
  it('puts overdue cases first (the most overdue at the top), then by next deadline, then cases with nothing due, closed last', () => {
    const now = at('2026-11-23T12:00:00.000Z')
    const cases = [
      {
        name: 'closed long ago',
        ...received('2026-01-01T00:00:00.000Z', { state: 'closed', closed_at: '2026-02-01T00:00:00.000Z' }),
      },
      { name: 'new today', ...received('2026-11-23T08:00:00.000Z') },
      {
        name: 'answered',
        ...received('2026-10-01T00:00:00.000Z', {
          state: 'in_progress',
          acknowledged_at: '2026-10-02T00:00:00.000Z',
          feedback_at: '2026-10-03T00:00:00.000Z',
        }),
      },
      { name: 'acknowledgement 2 days late', ...received('2026-11-14T12:00:00.000Z') },
      {
        name: 'closed yesterday',
        ...received('2026-11-01T00:00:00.000Z', { state: 'closed', closed_at: '2026-11-22T00:00:00.000Z' }),
      },
      {
        name: 'feedback 9 days late',
        ...received('2026-08-10T12:00:00.000Z', { state: 'acknowledged', acknowledged_at: '2026-08-14T12:00:00.000Z' }),
      },
      { name: 'new yesterday', ...received('2026-11-22T08:00:00.000Z') },
      {
        name: 'feedback due in January',
        ...received('2026-10-01T00:00:00.000Z', { state: 'acknowledged', acknowledged_at: '2026-10-05T00:00:00.000Z' }),
      },
    ]
    const ordered = byDeadline(cases, now)
    expect(ordered.map((each) => each.name)).toEqual([
      'feedback 9 days late',
      'acknowledgement 2 days late',
      'new yesterday',
      'new today',
      'feedback due in January',
      'answered',
      'closed yesterday',
      'closed long ago',
    ])
    expect(ordered.map((each) => each.deadlines.overdue)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
