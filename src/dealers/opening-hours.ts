import type { Dealer } from '../../contract/catalogue-schemas'

/** Minutes since midnight. */
type Minutes = number

/** Whether a dealer is open at a moment, and when that changes: what the "open now" line says. */
export type OpenState =
  | { open: true; closesAt: string }
  | { open: false; opensAt: string; day: 'today' | 'tomorrow' | number }
  /** No opening hours at all. */
  | { open: false; opensAt: null }

/** Monday 0 … Sunday 6, as a dealer's `hours` count days. */
const WEEKDAYS: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 }

/** The weekday and the minute of a moment on the clocks of a time zone. */
function wallClock(at: Date, timeZone: string): { day: number; minute: Minutes } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return { day: WEEKDAYS[part('weekday')] ?? 0, minute: Number(part('hour')) * 60 + Number(part('minute')) }
}

const minutesOf = (time: string): Minutes => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/**
 * A day's ranges as minutes; a range that ends at or before it starts ("18:00-02:00") runs past midnight: its end
 * counts on the next day (past 24:00).
 */
const rangesOf = (day: readonly string[]) =>
  day.map((range) => {
    const [from = '00:00', to = '00:00'] = range.split('-')
    const start = minutesOf(from)
    const end = minutesOf(to)
    return { from, to, start, end: end <= start ? end + 24 * 60 : end }
  })

/**
 * Whether a dealer is open at `at` on the clocks of `timeZone`, with the time it closes, or the next time it opens
 * ("today", "tomorrow" or the weekday, Monday 0) — a range past midnight counts from the day it starts.
 *
 * @example
 * openState(dealer.hours, new Date(), 'Europe/Rome') // { open: false, opensAt: '09:00', day: 'tomorrow' }
 */
export function openState(hours: Dealer['hours'], at: Date, timeZone: string): OpenState {
  const { day, minute } = wallClock(at, timeZone)
  const yesterday = rangesOf(hours[(day + 6) % 7] ?? [])
  const lateRange = yesterday.find((range) => range.end > 24 * 60 && minute < range.end - 24 * 60)
  if (lateRange) return { open: true, closesAt: lateRange.to }
  const today = rangesOf(hours[day] ?? [])
  const current = today.find((range) => minute >= range.start && minute < range.end)
  if (current) return { open: true, closesAt: current.to }
  const later = today.find((range) => range.start > minute)
  if (later) return { open: false, opensAt: later.from, day: 'today' }
  for (let ahead = 1; ahead <= 7; ahead++) {
    const first = rangesOf(hours[(day + ahead) % 7] ?? [])[0]
    if (first) return { open: false, opensAt: first.from, day: ahead === 1 ? 'tomorrow' : (day + ahead) % 7 }
  }
  return { open: false, opensAt: null }
}
