import type { ReactNode } from 'react'

type Name = { labelledBy: string; label?: never } | { label: string; labelledBy?: never }

/**
 * The box of a table that scrolls sideways on a narrow screen. It is in the tab order, so a keyboard can reach it and
 * scroll it with the arrow keys (WCAG 2.1.1; axe `scrollable-region-focusable`), and named, so a screen reader says
 * what it holds when it gets focus: by the heading that introduces the table (`labelledBy`) or by a `label`.
 * A named group rather than a region: the tables sit in sections already named by that same heading, and a second
 * landmark of the same name inside the first would only repeat it (axe `landmark-unique`).
 */
export function TableScroll({ labelledBy, label, children }: Name & { children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll from the keyboard (axe scrollable-region-focusable)
    <div className="table-scroll" role="group" tabIndex={0} aria-labelledby={labelledBy} aria-label={label}>
      {children}
    </div>
  )
}
