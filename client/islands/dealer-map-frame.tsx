import type { Ref } from 'react'

export type MapDealer = { name: string; lat: number; lng: number; href: string }

export type DealerMapProps = {
  /** Leaflet's tile URL template, or null: the map then shows the dealers' markers only. */
  tileUrl: string | null
  attribution: string
  label: string
  centre: { lat: number; lng: number }
  /**
   * Where the list measures from (a place searched, the visitor's position), or null (the market's centre): the map
   * then fits this point and the `focus` nearest dealers; without it, every dealer.
   */
  origin: { lat: number; lng: number; label: string } | null
  /** How many of the nearest dealers the map fits around the origin. */
  focus: number
  /** The dealers, nearest first. */
  dealers: MapDealer[]
}

/**
 * The dealer map's frame: what the server renders and what the island hydrates. Kept apart from Leaflet, so the
 * Worker never bundles it; the list beside the map is the part that works without JavaScript. Hydrated, the frame
 * tells the map's state in data attributes (`data-centre`, `data-zoom`, `data-bounds` south,west,north,east,
 * `data-origin`), which the browser tests read.
 */
export function DealerMapFrame({ label, ref }: Pick<DealerMapProps, 'label'> & { ref?: Ref<HTMLElement> }) {
  return <section ref={ref} className="dealer-map" aria-label={label} />
}
