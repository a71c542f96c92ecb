import { describe, expect, it } from 'vitest'
import { openState } from '../../src/dealers/opening-hours'
import { dealerTimeZone } from '../../src/dealers/time-zones'

/** Cicli Bergamasca's week: split hours on weekdays, Saturday until 18:00, closed on Sunday. */
const bergamo = [
  ['09:00-12:30', '15:00-19:30'],
  ['09:00-12:30', '15:00-19:30'],
  ['09:00-12:30', '15:00-19:30'],
  ['09:00-12:30', '15:00-19:30'],
  ['09:00-12:30', '15:00-19:30'],
  ['09:00-18:00'],
  [],
]
const at = (iso: string) => new Date(iso)

describe('"open now" from a dealer\'s opening hours', () => {
  it("reads the hours on the dealer's own clocks (Rome in winter is UTC+1)", () => {
    // Wednesday 2026-12-02 08:30 UTC is 09:30 in Rome: open until the lunch break.
    expect(openState(bergamo, at('2026-12-02T08:30:00Z'), 'Europe/Rome')).toEqual({ open: true, closesAt: '12:30' })
    // 07:30 UTC is 08:30 in Rome: closed, opens at nine today.
    expect(openState(bergamo, at('2026-12-02T07:30:00Z'), 'Europe/Rome')).toEqual({
      open: false,
      opensAt: '09:00',
      day: 'today',
    })
    // The same moment read on UTC's clocks (08:30) would say closed.
    expect(openState(bergamo, at('2026-12-02T08:30:00Z'), 'UTC')).toEqual({
      open: false,
      opensAt: '09:00',
      day: 'today',
    })
  })

  it('says when it opens again over the lunch break, after closing and across a closed day', () => {
    expect(openState(bergamo, at('2026-12-02T12:00:00Z'), 'Europe/Rome')).toEqual({
      open: false,
      opensAt: '15:00',
      day: 'today',
    })
    // Wednesday 21:00 in Rome: tomorrow at nine.
    expect(openState(bergamo, at('2026-12-02T20:00:00Z'), 'Europe/Rome')).toEqual({
      open: false,
      opensAt: '09:00',
      day: 'tomorrow',
    })
    // Saturday 19:00 in Rome: Sunday is closed, so Monday (0) at nine.
    expect(openState(bergamo, at('2026-12-05T18:00:00Z'), 'Europe/Rome')).toEqual({
      open: false,
      opensAt: '09:00',
      day: 0,
    })
    // Closing time itself is closed.
    expect(openState(bergamo, at('2026-12-05T17:00:00Z'), 'Europe/Rome').open).toBe(false)
  })

  it('keeps a range past midnight open into the next day, counted from the day it starts', () => {
    const late = [['18:00-02:00'], [], [], [], [], [], []]
    // Monday 23:00 and Tuesday 01:30 in UTC: open until two.
    expect(openState(late, at('2026-11-30T23:00:00Z'), 'UTC')).toEqual({ open: true, closesAt: '02:00' })
    expect(openState(late, at('2026-12-01T01:30:00Z'), 'UTC')).toEqual({ open: true, closesAt: '02:00' })
    // Tuesday 02:00: closed until next Monday at six in the evening.
    expect(openState(late, at('2026-12-01T02:00:00Z'), 'UTC')).toEqual({ open: false, opensAt: '18:00', day: 0 })
  })

  it('says nothing of an opening for a dealer without any hours', () => {
    expect(openState([[], [], [], [], [], [], []], at('2026-12-02T10:00:00Z'), 'UTC')).toEqual({
      open: false,
      opensAt: null,
    })
  })

  it("picks the dealer's time zone by country, and by longitude where a country spans several", () => {
    expect(dealerTimeZone({ country_code: 'IT', lng: 9.69 })).toBe('Europe/Rome')
    expect(dealerTimeZone({ country_code: 'AE', lng: 55.2 })).toBe('Asia/Dubai')
    expect(dealerTimeZone({ country_code: 'IL', lng: 35.2 })).toBe('Asia/Jerusalem')
    expect(dealerTimeZone({ country_code: 'US', lng: -122.64 })).toBe('America/Los_Angeles')
    expect(dealerTimeZone({ country_code: 'US', lng: -105.27 })).toBe('America/Denver')
    expect(dealerTimeZone({ country_code: 'US', lng: -73.99 })).toBe('America/New_York')
    expect(dealerTimeZone({ country_code: 'AU', lng: 151.18 })).toBe('Australia/Sydney')
    // Dubai's Friday 10:00 is 06:00 UTC: the shop (open from nine) is open on the dealer's clock, not on UTC's.
    const dubai = [
      ['09:00-21:00'],
      ['09:00-21:00'],
      ['09:00-21:00'],
      ['09:00-21:00'],
      ['09:00-12:00', '14:30-21:00'],
      ['09:00-21:00'],
      ['10:00-20:00'],
    ]
    expect(openState(dubai, at('2026-12-04T06:00:00Z'), dealerTimeZone({ country_code: 'AE', lng: 55.2 }))).toEqual({
      open: true,
      closesAt: '12:00',
    })
  })
})
