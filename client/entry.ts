// The browser entry of every page with script: the header's plain enhancements (no framework), and — only on a page
// with islands — the hydration runtime, a chunk of its own with React (docs/decisions/065-first-paint.md).
import { enhanceHeader } from './header'
import { plainIslands } from './islands/plain'
import { enhanceMarketPicker } from './market-picker'
import { enhanceMobileMenu } from './mobile-menu'
import { reloadAfterFailedChunk } from './reload-guard'

/**
 * Starts the islands the server marked with `data-island`: a plain island from its own chunk, the others hydrated by
 * the runtime, which brings React, only if the page has one of them.
 */
function startIslands(): void {
  const hydrated: HTMLElement[] = []
  for (const marker of document.querySelectorAll<HTMLElement>('[data-island]')) {
    const plain = plainIslands[marker.dataset.island ?? '']
    if (!plain) hydrated.push(marker)
    else
      plain().then((module) => module.enhance(marker, JSON.parse(marker.dataset.props ?? '{}')), reloadAfterFailedChunk)
  }
  if (hydrated.length > 0) import('./hydrate').then((module) => module.hydrateIslands(hydrated), reloadAfterFailedChunk)
}

/**
 * A form that came back with messages: the first field that has one takes the focus (its message is read with it),
 * else the form's own message; without JavaScript the messages are at the top of the form, in its summary.
 */
function focusFirstError(): void {
  const summary = document.querySelector<HTMLElement>('form .form-error[role="alert"]')
  if (!summary) return
  const form = summary.closest('form')
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"], .choice-group.invalid input')
  if (field) field.focus()
  else {
    summary.tabIndex = -1
    summary.focus()
  }
}

/**
 * The product gallery's pictures are links to their files; with JavaScript a plain click opens them full screen
 * instead, in the viewer, whose chunk is fetched on that first click (never with the page).
 */
function openGalleryViewer(): void {
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-viewer]')
    if (
      !link ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return
    event.preventDefault()
    import('./islands/gallery-viewer').then((module) => module.openViewer(link), reloadAfterFailedChunk)
  })
}

const header = document.querySelector<HTMLElement>('[data-header]')
if (header) enhanceHeader(header)
const menuButton = document.querySelector<HTMLAnchorElement>('a.mobile-menu-button')
if (menuButton) enhanceMobileMenu(menuButton)
const picker = document.querySelector<HTMLDetailsElement>('details.market-picker')
if (picker) enhanceMarketPicker(picker)

// The header search's suggestions: a chunk of its own, fetched on the field's first focus (first load stays small).
const searchField = document.querySelector<HTMLInputElement>('input[data-suggest]')
searchField?.addEventListener(
  'focus',
  () => import('./search-suggestions').then((module) => module.suggest(searchField), reloadAfterFailedChunk),
  { once: true },
)
focusFirstError()
openGalleryViewer()
startIslands()
