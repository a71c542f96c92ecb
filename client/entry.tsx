import { hydrateRoot } from 'react-dom/client'
import { enhanceHeader } from './header'
import type { IslandName } from './islands/names'
import { islands } from './islands/registry'
import { reloadAfterFailedChunk } from './reload-guard'

/** Hydrates every island the server marked with `data-island`, each from its own props. */
async function hydrateIslands(): Promise<void> {
  const markers = document.querySelectorAll<HTMLElement>('[data-island]')
  await Promise.all(
    Array.from(markers, async (marker) => {
      const load = islands[marker.dataset.island as IslandName]
      if (!load) return
      const Component = await load().catch(reloadAfterFailedChunk)
      if (!Component) return
      hydrateRoot(marker, <Component {...JSON.parse(marker.dataset.props ?? '{}')} />)
    }),
  )
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

// The header search's suggestions: a chunk of its own, fetched on the field's first focus (first load stays small).
const searchField = document.querySelector<HTMLInputElement>('input[data-suggest]')
searchField?.addEventListener(
  'focus',
  () => import('./search-suggestions').then((module) => module.suggest(searchField), reloadAfterFailedChunk),
  { once: true },
)
focusFirstError()
openGalleryViewer()
void hydrateIslands()
