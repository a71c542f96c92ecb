import { useEffect, useState } from 'react'

export type MobileMenuProps = {
  /** The id of the navigation the button shows and hides. */
  controls: string
  openLabel: string
  closeLabel: string
}

/**
 * The menu button of small screens. Without JavaScript it is a link to `#{controls}`, which CSS shows through
 * `:target`; hydrated, it toggles the navigation in place and closes it on Escape.
 */
export default function MobileMenu({ controls, openLabel, closeLabel }: MobileMenuProps) {
  const [open, setOpen] = useState(false)

  useEffect(() => {
    const nav = document.getElementById(controls)
    if (!nav) return
    nav.toggleAttribute('data-open', open)
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open, controls])

  return (
    <a
      href={`#${controls}`}
      role="button"
      className="mobile-menu-button"
      aria-controls={controls}
      aria-expanded={open}
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
