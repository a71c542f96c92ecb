import type { DealerMapProps } from '../../client/islands/dealer-map-frame'
import type { Translate } from '../i18n/translator'
import type { MapTiles } from '../tracking/map-tiles'

/** The tile server's name, as its attribution and the notice write it. */
const TILE_SOURCE = 'OpenStreetMap'

/**
 * The map island's tile props for a page: the tile URL once the visitor allowed it, else the notice that asks for it
 * (docs/decisions/064-before-consent.md); neither where no tile server is configured.
 *
 * @example
 * <Island name={IslandNames.dealerMap} component={DealerMapFrame} props={{ ...mapTileProps(tiles, t), label, … }} />
 */
export function mapTileProps(
  tiles: MapTiles | null,
  t: Translate,
): Pick<DealerMapProps, 'tileUrl' | 'tilesNotice' | 'attribution'> {
  const attribution = `© ${TILE_SOURCE}`
  if (!tiles) return { tileUrl: null, tilesNotice: null, attribution }
  if (tiles.allowed) return { tileUrl: tiles.url, tilesNotice: null, attribution }
  const [before = '', after = ''] = t('dealer.map_tiles_off', { source: '\u0000' }).split('\u0000')
  return {
    tileUrl: null,
    attribution,
    tilesNotice: {
      text: [before, after],
      source: TILE_SOURCE,
      choice: tiles.choice && { ...tiles.choice, button: t('dealer.map_tiles_show') },
    },
  }
}
