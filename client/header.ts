/**
 * The header's disclosures once the script runs (src/components/header.tsx): the product menu, the search and the
 * account menu are `<details>` that work alone; here one stays open at a time, Escape closes the open one and gives
 * the focus back to its button, and an outside click or the focus leaving it closes it too. Opening the search puts
 * the focus in its field. A disclosure inside the open menu sheet of phones is left to the menu button (its Escape
 * closes the whole sheet).
 */
export function enhanceHeader(header: HTMLElement): void {
  const disclosures = Array.from(
    header.querySelectorAll<HTMLDetailsElement>('details.product-menu, details.header-search, details.account-menu'),
  )
  const inOpenSheet = (details: HTMLDetailsElement) =>
    details.closest('.site-nav[data-open], .site-nav:target') !== null
  const close = (details: HTMLDetailsElement, focusSummary: boolean) => {
    details.open = false
    if (focusSummary) details.querySelector('summary')?.focus()
  }

  for (const details of disclosures) {
    details.addEventListener('toggle', () => {
      if (!details.open) return
      for (const other of disclosures) if (other !== details && other.open) other.open = false
      details.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    })
    details.addEventListener('focusout', (event) => {
      const next = event.relatedTarget as Node | null
      if (details.open && next && !details.contains(next) && !inOpenSheet(details)) details.open = false
    })
  }
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    const open = disclosures.find((details) => details.open && !inOpenSheet(details))
    if (open) close(open, true)
  })
  document.addEventListener('click', (event) => {
    for (const details of disclosures) {
      if (details.open && !details.contains(event.target as Node) && !inOpenSheet(details)) details.open = false
    }
  })
  header.setAttribute('data-hydrated', '')
}
