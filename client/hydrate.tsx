import { hydrateRoot } from 'react-dom/client'
import type { IslandName } from './islands/names'
import { islands } from './islands/registry'
import { reloadAfterFailedChunk } from './reload-guard'

/**
 * The hydration runtime (React's API, which the client build answers with Preact's compatibility layer,
 * docs/decisions/078; and the islands' registry): a chunk of its own, fetched only by pages that have an island (their
 * head preloads it with their islands' chunks, src/render/page-modules.ts). Hydrates every marker with its island's
 * component and props.
 */
export async function hydrateIslands(markers: Iterable<HTMLElement>): Promise<void> {
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
