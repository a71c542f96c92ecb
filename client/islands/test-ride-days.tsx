import { useEffect, useState } from 'react'

/** A dealer's opening days, Monday first (`1111110`: closed on Sunday), and the sentence that names them. */
export type RideDealerDays = { open: string; note: string }

export type TestRideDaysProps = {
  /** The dealers of the form's list by slug. */
  dealers: Record<string, RideDealerDays>
  /** The dealer and the day the server rendered the form with. */
  dealer: string
  date: string
  /** What to say before a dealer is chosen, and when the day chosen is closed. */
  chooseDealer: string
  closed: string
  /** Whether the server already refused this dealer's day (its message is shown under the field). */
  refused: boolean
}

const DEALER_FIELD = 'field-dealer'
const DATE_FIELD = 'field-date'
const NOTE_ID = 'field-date-days'
const CLOSED_ID = 'field-date-closed'

/** The weekday of `YYYY-MM-DD`, Monday 0 … Sunday 6 (as `weekdayOf` in contract/form-schemas.ts). */
const weekdayOf = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7

/**
 * The test ride's opening days: under the day field, which days the chosen dealer is open. Rendered by the server for
 * the dealer the form starts with; hydrated, it follows the dealer and the day chosen, marks a closed day invalid at
 * once (`setCustomValidity`, `aria-invalid` and a visible message) and keeps the form from being sent with it. Without
 * JavaScript the server's message does the same after sending.
 */
export default function TestRideDays({
  dealers,
  dealer: initialDealer,
  date: initialDate,
  chooseDealer,
  closed,
  refused,
}: TestRideDaysProps) {
  const [dealer, setDealer] = useState(initialDealer)
  const [date, setDate] = useState(initialDate)
  const [hydrated, setHydrated] = useState(false)
  const days = dealers[dealer]
  const isClosed = Boolean(hydrated && days && /^\d{4}-\d{2}-\d{2}$/.test(date) && days.open[weekdayOf(date)] !== '1')
  // The server's message already says so for the day it refused.
  const showClosed = isClosed && !(refused && dealer === initialDealer && date === initialDate)

  useEffect(() => {
    const select = document.getElementById(DEALER_FIELD) as HTMLSelectElement | null
    const input = document.getElementById(DATE_FIELD) as HTMLInputElement | null
    if (!select || !input) return
    const read = () => {
      setDealer(select.value)
      setDate(input.value)
    }
    // The browser may have restored other values than the server's (back and forward).
    read()
    setHydrated(true)
    const guard = (event: SubmitEvent) => {
      if (!input.validity.customError) return
      event.preventDefault()
      input.focus()
    }
    select.addEventListener('change', read)
    input.addEventListener('input', read)
    input.addEventListener('change', read)
    input.form?.addEventListener('submit', guard)
    return () => {
      select.removeEventListener('change', read)
      input.removeEventListener('input', read)
      input.removeEventListener('change', read)
      input.form?.removeEventListener('submit', guard)
    }
  }, [])

  useEffect(() => {
    const input = document.getElementById(DATE_FIELD) as HTMLInputElement | null
    if (!input || !hydrated) return
    input.setCustomValidity(isClosed ? closed : '')
    const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== CLOSED_ID)
    input.setAttribute('aria-describedby', (showClosed ? [...described, CLOSED_ID] : described).join(' '))
    if (isClosed) input.setAttribute('aria-invalid', 'true')
    else if (!input.closest('.field')?.classList.contains('invalid')) input.removeAttribute('aria-invalid')
  }, [hydrated, isClosed, showClosed, closed])

  return (
    <div className="ride-days" aria-live="polite">
      <p className="hint" id={NOTE_ID}>
        {days ? days.note : chooseDealer}
      </p>
      {showClosed && (
        <p className="field-error" id={CLOSED_ID}>
          {closed}
        </p>
      )}
    </div>
  )
}
