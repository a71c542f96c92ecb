import type { Ref } from 'react'

export type MapDealer = { name: string; lat: number; lng: number; href: string }

/**
 * The street map's notice before the visitor allowed it (docs/decisions/064-before-consent.md): why there is none
 * (the sentence around the tile server's name, isolated in `<bdi>`), and, where a choice can change it, the consent
 * form's fields that allow it and the button's words.
 */
export type MapTilesNotice = {
  text: readonly [string, string]
  source: string
  choice: { action: string; returnPath: string; allowed: readonly string[]; button: string } | null
}

export type DealerMapProps = {
  /** Leaflet's tile URL template, or null: the map then shows the dealers' markers only. */
  tileUrl: string | null
  /** The notice in place of the street map while the visitor has not allowed it, or null. */
  tilesNotice: MapTilesNotice | null
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
export function DealerMapFrame({
  label,
  tilesNotice,
  ref,
}: Pick<DealerMapProps, 'label' | 'tilesNotice'> & { ref?: Ref<HTMLElement> }) {
  return (
    <section ref={ref} className="dealer-map" aria-label={label}>
      {tilesNotice && <TilesNotice notice={tilesNotice} />}
    </section>
  )
}

/** The street map's notice, over the map's corner: a sentence, and the consent form's button that allows it. */
function TilesNotice({ notice }: { notice: MapTilesNotice }) {
  const { text, source, choice } = notice
  return (
    <div className="map-tiles-notice">
      <p>
        {text[0]}
        <bdi>{source}</bdi>
        {text[1]}
      </p>
      {choice && (
        <form method="post" action={choice.action}>
          <input type="hidden" name="choice" value="save" />
          <input type="hidden" name="return" value={choice.returnPath} />
          {choice.allowed.map((category) => (
            <input key={category} type="hidden" name={category} value="on" />
          ))}
          <button type="submit" className="button secondary">
            {choice.button}
          </button>
        </form>
      )}
    </div>
  )
}
