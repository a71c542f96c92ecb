import { MarketRegions, type PickerRegion } from './market-regions'

export type MarketPickerProps = {
  /** The market of the page, if any. */
  current: string | null
  /** The summary's text, e.g. "Italia · Italiano". */
  summary: string
  /** Its short form for small screens, e.g. "IT · IT" (a bare globe, hidden from assistive technology, without a market). */
  shortSummary: string
  /** What the control does, e.g. "Change country or language": its accessible name is the visible text, then this. */
  label: string
  title: string
  regions: PickerRegion[]
  /** Where the pick is posted: it remembers the market and redirects there. */
  action: string
  /** The page's path, sent along so that the pick lands on the same page of the other market (a hidden field). */
  from?: { name: string; value: string } | null
}

/**
 * The market picker: a disclosure with one submit button per live market, grouped by region. Without JavaScript it
 * is a plain `<details>` form; with the page's script (client/market-picker.ts, no island) it also closes on Escape
 * (focus back on its summary) and on an outside click.
 */
export default function MarketPicker({
  current,
  summary,
  shortSummary,
  label,
  title,
  regions,
  action,
  from = null,
}: MarketPickerProps) {
  return (
    <details className="market-picker">
      {/* Named by its content, so the name begins with the text shown (WCAG 2.5.3): the summary on wide screens, its
          short form on phones (the other one is display: none, outside the name), then what the control does. */}
      <summary>
        <svg
          aria-hidden="true"
          className="globe"
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3Z" />
        </svg>{' '}
        <span className="picker-long">{summary}</span>
        <bdi className="picker-short" aria-hidden={current ? undefined : true}>
          {shortSummary}
        </bdi>
        <span className="visually-hidden">, {label}</span>
      </summary>
      <form method="post" action={action} className="market-picker-panel">
        {from && <input type="hidden" name={from.name} value={from.value} />}
        <p className="market-picker-title">{title}</p>
        <MarketRegions regions={regions} current={current} />
      </form>
    </details>
  )
}
