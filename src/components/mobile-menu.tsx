export type MobileMenuProps = {
  /** The id of the navigation the button shows and hides. */
  controls: string
  openLabel: string
  closeLabel: string
}

/**
 * The menu button of small screens. Without JavaScript it is a link to `#{controls}`, which CSS shows through
 * `:target` as a full-height sheet; the page's script (client/mobile-menu.ts, no island: no framework on the page for
 * it) toggles the sheet in place with the product menu open at its top, its name `closeLabel` while open, and closes
 * it on Escape (focus back on the button) or when the focus leaves the header.
 */
export default function MobileMenu({ controls, openLabel, closeLabel }: MobileMenuProps) {
  return (
    <a
      href={`#${controls}`}
      role="button"
      className="mobile-menu-button icon-button"
      aria-controls={controls}
      aria-expanded={false}
      data-close-label={closeLabel}
    >
      <span aria-hidden="true" className="burger" />
      <span className="visually-hidden">{openLabel}</span>
    </a>
  )
}
