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

const header = document.querySelector<HTMLElement>('[data-header]')
if (header) enhanceHeader(header)
focusFirstError()
void hydrateIslands()
