import type { ReactNode } from 'react'
import type { CursorMeta } from '../../contract/schemas'
import type { MarketSwitches } from '../../contract/staff-schemas'

/**
 * The console's small shared pieces (leads, outbox, markets, cases): a scrolling table, a definition list, a filters
 * form and its fields, a flash message, one-button forms, a pager, times as staff read them. No script: every
 * action is a form.
 */

/**
 * What a visitor wrote (a name, an e-mail address, a message, a file's name), isolated from what surrounds it: its own
 * direction (a Hebrew name in an English table) and any direction control it carries go no further than itself, so
 * one value cannot reorder its label or its neighbours (docs/decisions/028).
 */
export const Written = ({ children }: { children: string }) => <bdi>{children}</bdi>

/** A time as staff read it, the same everywhere in the console: `2026-11-23 08:24 UTC`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** A `<time>` showing formatTime. */
export const Time = ({ at }: { at: string | null | undefined }) =>
  at ? <time dateTime={at}>{formatTime(at)}</time> : <>—</>

/** The UTC day (`2026-11-23`) of a time, or null when it is no time. */
export function utcDay(iso: string | null | undefined): string | null {
  const date = new Date(iso ?? '')
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10)
}

/**
 * A `<time>` showing only the UTC day, its `datetime` too: for the times of a whistleblower's own actions (received,
 * their messages, their trail entries), which to the minute could be matched against network logs to identify them.
 */
export function Day({ at }: { at: string | null | undefined }) {
  const day = utcDay(at)
  return day ? <time dateTime={day}>{day}</time> : <>—</>
}

/**
 * A table that scrolls sideways on a phone (its region focusable and named, so the keyboard scrolls it too).
 * `head` are the column headings; the first cell of each row is its header cell.
 */
export function DataTable({
  caption,
  head,
  rows,
  empty = 'Nothing here.',
}: {
  caption: string
  head: ReactNode[]
  rows: Array<{ key: string | number; cells: ReactNode[] }>
  empty?: string
}) {
  if (rows.length === 0) return <p className="empty">{empty}</p>
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll from the keyboard (axe scrollable-region-focusable)
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((cell, i) => (
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, i) =>
                i === 0 ? (
                  <th key={i} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={i}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Label–value pairs (a submission in full, a case's facts). Values may be long text: they wrap and keep line breaks. */
export function DefinitionList({ items }: { items: Array<[label: string, value: ReactNode]> }) {
  return (
    <dl className="facts">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A GET form of filters above a list: its fields, "Filter", and a link that clears them. */
export function FiltersForm({
  action,
  label = 'Filters',
  children,
  clearHref,
}: {
  action: string
  label?: string
  children: ReactNode
  clearHref?: string
}) {
  return (
    <form className="filters" method="get" action={action} aria-label={label}>
      {children}
      <div className="filter-actions">
        <button type="submit" className="button">
          Filter
        </button>
        {clearHref && <a href={clearHref}>Clear</a>}
      </div>
    </form>
  )
}

export type Option = { value: string; label: string }

/** A select of a filters form (or any form), its first option "Any" (empty). */
export function ConsoleSelect({
  label,
  name,
  options,
  value,
  any = 'Any',
  id = `field-${name}`,
}: {
  label: string
  name: string
  options: Option[]
  value?: string
  any?: string | null
  /** The select's id, where a page has two selects of one name (a filter and a form). */
  id?: string
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        {any !== null && <option value="">{any}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The markets as a select's options: "Italy (it)". */
export const marketOptions = (markets: MarketSwitches[]): Option[] =>
  markets.map((m) => ({ value: m.country, label: `${m.name} (${m.country})` }))

/** A list's filter by market (`?market=`), its first option "Any". */
export function MarketSelect({ markets, value }: { markets: MarketSwitches[]; value?: string }) {
  return <ConsoleSelect label="Market" name="market" value={value} options={marketOptions(markets)} />
}

/** A list's caption: what it lists, newest first. */
export const newestFirst = (what: string): string => `${what}, newest first`

/** A date field (`YYYY-MM-DD`). */
export function DateField({ label, name, value }: { label: string; name: string; value?: string }) {
  const id = `field-${name}`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="date" name={name} defaultValue={value ?? ''} />
    </div>
  )
}

export type FlashTone = 'ok' | 'error'

/** A message after an action ("Marked as handled.") or about a refusal; announced by screen readers. */
export function Flash({ tone = 'ok', children }: { tone?: FlashTone; children: ReactNode }) {
  return (
    <div className={`flash flash-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}

/** A POST form that is one button (mark handled, purge), with hidden fields. */
export function ButtonForm({
  action,
  label,
  fields = {},
  tone = 'primary',
}: {
  action: string
  label: string
  fields?: Record<string, string>
  tone?: 'primary' | 'quiet' | 'danger'
}) {
  return (
    <form className="button-form" method="post" action={action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={`button ${tone}`}>
        {label}
      </button>
    </form>
  )
}

/**
 * A keyset list's way on (docs/decisions/068): "Newest" back to the first page once past it, "Older" to the page after
 * this one while there is one; nothing on a list of one page.
 */
export function Pager({
  meta,
  href,
  first,
  labels = { first: 'Newest', next: 'Older', nav: 'Pages' },
}: {
  meta: CursorMeta
  href: (after?: string) => string
  first: boolean
  /** The links' words and the navigation's name: "Newest" and "Older" unless the list is in another order. */
  labels?: { first: string; next: string; nav: string }
}) {
  if (first && !meta.next_cursor) return null
  return (
    <nav className="pager" aria-label={labels.nav}>
      {first ? <span /> : <a href={href()}>{labels.first}</a>}
      {meta.next_cursor ? (
        <a href={href(meta.next_cursor)} rel="next">
          {labels.next}
        </a>
      ) : (
        <span />
      )}
    </nav>
  )
}

/** A URL of a console list with query parameters (empty ones left out). */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value))
  const text = search.toString()
  return text ? `${path}?${text}` : path
}
