import { useEffect, useRef, useState } from 'react'

export type LocateButtonProps = {
  label: string
  /** Said while the browser looks for the position. */
  locating: string
  /** Said when the visitor (or the browser) refused to share the position. */
  denied: string
  /** Said when the browser could not find the position. */
  unavailable: string
  /** Said when finding the position took too long. */
  timeout: string
}

/** How long the browser may look for the position, and how old a position it may reuse. */
const GEOLOCATION: PositionOptions = { enableHighAccuracy: false, timeout: 10_000, maximumAge: 10 * 60_000 }

/** Decimals kept of the position (about 110 m): enough to sort dealers, no more of the visitor's whereabouts. */
const DECIMALS = 3

/**
 * The dealer locator's "use my position" button. Geolocation needs script, so the server renders nothing here and
 * the button appears once hydrated (and only where the browser has geolocation). The browser asks for the position
 * only when the button is pressed; with it, the page loads again measured from there (`?lat=&lng=`, the form's
 * filters kept, a typed place dropped). Refused, unavailable or too slow: a message beside the button says so and the
 * town or postcode field takes the focus.
 */
export default function LocateButton({ label, locating, denied, unavailable, timeout }: LocateButtonProps) {
  const [supported, setSupported] = useState(false)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState('')
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => setSupported('geolocation' in navigator), [])
  if (!supported) return null

  const failed = (text: string) => {
    setBusy(false)
    setMessage(text)
    const field = button.current?.form?.querySelector<HTMLInputElement>('input[name="near"]')
    field?.focus()
  }

  const locate = () => {
    setBusy(true)
    setMessage(locating)
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        const form = button.current?.form
        const url = new URL(form?.action || window.location.href, window.location.href)
        const query = new URLSearchParams()
        if (form)
          for (const [name, value] of new FormData(form))
            if (name !== 'near' && typeof value === 'string') query.append(name, value)
        query.set('lat', coords.latitude.toFixed(DECIMALS))
        query.set('lng', coords.longitude.toFixed(DECIMALS))
        url.search = query.toString()
        url.hash = 'dealer-results'
        window.location.assign(url.toString())
      },
      (error) =>
        failed(error.code === error.PERMISSION_DENIED ? denied : error.code === error.TIMEOUT ? timeout : unavailable),
      GEOLOCATION,
    )
  }

  return (
    <span className="locate">
      <button
        ref={button}
        type="button"
        className="button secondary locate-button"
        onClick={locate}
        disabled={busy}
        data-hydrated=""
      >
        <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="18" height="18">
          <circle cx="12" cy="12" r="4" fill="currentColor" />
          <path d="M12 2v3M12 19v3M2 12h3M19 12h3" stroke="currentColor" strokeWidth="2" fill="none" />
          <circle cx="12" cy="12" r="7.5" stroke="currentColor" strokeWidth="2" fill="none" />
        </svg>
        {label}
      </button>
      <span className="locate-message" role="status">
        {message}
      </span>
    </span>
  )
}
