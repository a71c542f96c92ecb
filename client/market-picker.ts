/**
 * The header's market picker once the script runs (src/components/market-picker.tsx renders it: a `<details>` form
 * that works alone): Escape closes it with the focus back on its summary, and a click outside closes it.
 */
export function enhanceMarketPicker(details: HTMLDetailsElement): void {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !details.open) return
    details.open = false
    details.querySelector('summary')?.focus()
  })
  document.addEventListener('click', (event) => {
    if (details.open && !details.contains(event.target as Node)) details.open = false
  })
  details.setAttribute('data-hydrated', '')
}
