import { useEffect, useState } from 'react'

export type PrintButtonProps = { label: string }

/**
 * The whistleblower receipt's print button. Printing needs script (`window.print`), and a page's only scripts are the
 * site's own bundle: the server renders nothing here (the page says how to print or write the codes down), and the
 * button appears once the island is hydrated, so the server's and the browser's first render agree.
 */
export default function PrintButton({ label }: PrintButtonProps) {
  const [ready, setReady] = useState(false)
  useEffect(() => setReady(true), [])
  if (!ready) return null
  return (
    <button type="button" className="button secondary" onClick={() => window.print()}>
      {label}
    </button>
  )
}
