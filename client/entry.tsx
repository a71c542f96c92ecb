import { hydrateRoot } from 'react-dom/client'
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

void hydrateIslands()
