/**
 * The menu button of small screens once the script runs (src/components/mobile-menu.tsx renders it: a link to the
 * navigation, shown by CSS through `:target` without JavaScript): it toggles the navigation's sheet in place
 * (`data-open`) with the product menu open at its top, says so (`aria-expanded`, its name the close label), and
 * closes it on Escape (focus back on the button) or when the focus leaves the header.
 */
export function enhanceMobileMenu(button: HTMLAnchorElement): void {
  const nav = document.getElementById(button.getAttribute('aria-controls') ?? '')
  const name = button.querySelector('.visually-hidden')
  if (!nav || !name) return
  const labels = { open: name.textContent ?? '', close: button.dataset.closeLabel ?? '' }
  const header = nav.closest('header')
  const products = nav.querySelector<HTMLDetailsElement>('details.product-menu')
  let open = false

  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return
    setOpen(false)
    button.focus()
  }
  const onFocus = (event: FocusEvent) => {
    if (!header?.contains(event.target as Node)) setOpen(false)
  }
  function setOpen(next: boolean): void {
    if (next === open) return
    open = next
    nav?.toggleAttribute('data-open', open)
    // The sheet begins with the product types: their panel opens and closes with it.
    if (products) products.open = open
    button.setAttribute('aria-expanded', String(open))
    if (name) name.textContent = open ? labels.close : labels.open
    if (!open) {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('focusin', onFocus)
      return
    }
    // The sheet hangs from the bar: bring the header to the top when something (the consent banner) sits above it.
    if (header && header.getBoundingClientRect().top !== 0) header.scrollIntoView({ block: 'start' })
    document.addEventListener('keydown', onKey)
    document.addEventListener('focusin', onFocus)
  }

  button.addEventListener('click', (event) => {
    event.preventDefault()
    setOpen(!open)
  })
  button.setAttribute('data-hydrated', '')
}
