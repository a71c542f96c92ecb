import { useEffect, useRef, useState } from 'react'

export type MobileMenuProps = {
  /** The id of the navigation the button shows and hides. */
  controls: string
  openLabel: string
  closeLabel: string
}

/**
 * The menu button of small screens. Without JavaScript it is a link to `#{controls}`, which CSS shows through
 * `:target` as a full-height sheet; hydrated, it toggles the sheet in place with the product menu open at its top,
 * and closes it on Escape (focus back on the button) or when the focus leaves the header.
 */
export default function MobileMenu({ controls, openLabel, closeLabel }: MobileMenuProps) {
  const [open, setOpen] = useState(false)
  const [hydrated, setHydrated] = useState(false)
  const button = useRef<HTMLAnchorElement>(null)
  const wasOpen = useRef(false)

  useEffect(() => setHydrated(true), [])

  useEffect(() => {
    const nav = document.getElementById(controls)
    if (!nav) return
    nav.toggleAttribute('data-open', open)
    // The sheet begins with the product types: their panel opens and closes with it.
    const products = nav.querySelector<HTMLDetailsElement>('details.product-menu')
    if (products && (open || wasOpen.current)) products.open = open
    wasOpen.current = open
    if (!open) return
    // The sheet hangs from the bar: bring the header to the top when something (the consent banner) sits above it.
    const header = nav.closest('header')
    if (header && header.getBoundingClientRect().top !== 0) header.scrollIntoView({ block: 'start' })
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    const onFocus = (event: FocusEvent) => {
      if (!header?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('focusin', onFocus)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('focusin', onFocus)
    }
  }, [open, controls])

  return (
    <a
      ref={button}
      href={`#${controls}`}
      role="button"
      className="mobile-menu-button icon-button"
      aria-controls={controls}
      aria-expanded={open}
      data-hydrated={hydrated ? '' : undefined}
      onClick={(event) => {
        event.preventDefault()
        setOpen(!open)
      }}
    >
      <span aria-hidden="true" className="burger" />
      <span className="visually-hidden">{open ? closeLabel : openLabel}</span>
    </a>
  )
}
