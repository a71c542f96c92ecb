import type { Ref } from 'react'

export type MapDealer = { name: string; lat: number; lng: number; href: string }

export type DealerMapProps = {
  /** Leaflet's tile URL template, or null: the map then shows the dealers' markers only. */
  tileUrl: string | null
  attribution: string
  label: string
  centre: { lat: number; lng: number }
  dealers: MapDealer[]
}

/**
 * The dealer map's frame: what the server renders and what the island hydrates. Kept apart from Leaflet, so the
 * Worker never bundles it; the list beside the map is the part that works without JavaScript.
 */
export function DealerMapFrame({ label, ref }: Pick<DealerMapProps, 'label'> & { ref?: Ref<HTMLDivElement> }) {
  return <div ref={ref} className="dealer-map" role="region" aria-label={label} />
}
