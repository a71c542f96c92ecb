import 'leaflet/dist/leaflet.css'
import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { type DealerMapProps, DealerMapFrame } from './dealer-map-frame'

const fixed = (n: number) => n.toFixed(5)

/**
 * Leaflet's stylesheet, which the page loads without blocking its first paint (src/render/critical-css.ts): settled
 * once it is there (or failed), so the map is laid out with it.
 */
function leafletStyles(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href*="/dealer-map-"]')
  if (!link || link.sheet) return Promise.resolve()
  return new Promise((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true })
    link.addEventListener('error', () => resolve(), { once: true })
  })
}

/**
 * The dealer locator's map (Leaflet, in a chunk of its own loaded only where the page has it): a marker per dealer
 * with a link to its page. Measured from a place or a position, it centres there and fits the nearest few dealers;
 * else it frames them all (a dealer's page: that one dealer). Tiles come from the configured URL; without one, markers only.
 */
export default function DealerMap({
  tileUrl,
  tilesNotice,
  attribution,
  label,
  centre,
  origin,
  focus,
  dealers,
}: DealerMapProps) {
  const frame = useRef<HTMLElement>(null)

  useEffect(() => {
    /** Draws the map in its frame: answers how to remove it. */
    function draw(): (() => void) | undefined {
      const element = frame.current
      if (!element) return
      const map = L.map(element, { scrollWheelZoom: false })
      map.attributionControl.setPrefix('Leaflet')
      if (tileUrl) L.tileLayer(tileUrl, { maxZoom: 18, attribution }).addTo(map)
      for (const dealer of dealers) {
        const link = document.createElement('a')
        link.href = dealer.href
        link.textContent = dealer.name
        L.circleMarker([dealer.lat, dealer.lng], { radius: 8, color: '#c2410c', weight: 2, fillOpacity: 0.7 })
          .bindPopup(link)
          .addTo(map)
      }
      if (origin) {
        L.circleMarker([origin.lat, origin.lng], {
          radius: 7,
          color: '#1d4ed8',
          weight: 3,
          fillColor: '#fff',
          fillOpacity: 1,
          interactive: false,
        })
          .bindTooltip(origin.label)
          .addTo(map)
      }
      const framed: Array<[number, number]> = origin
        ? [[origin.lat, origin.lng], ...dealers.slice(0, focus).map((d) => [d.lat, d.lng] as [number, number])]
        : dealers.map((d) => [d.lat, d.lng] as [number, number])
      const frameDealers = () => {
        if (framed.length > 1) map.fitBounds(L.latLngBounds(framed), { padding: [32, 32], maxZoom: 13, animate: false })
        else if (framed[0]) map.setView(framed[0], 12, { animate: false })
        else map.setView([centre.lat, centre.lng], 6, { animate: false })
      }
      frameDealers()
      // A map first drawn hidden (a phone's locator shows the list first) is framed again once it is shown.
      let hidden = element.clientWidth === 0
      const resized = new ResizeObserver(() => {
        map.invalidateSize({ animate: false })
        if (hidden && element.clientWidth > 0) frameDealers()
        hidden = element.clientWidth === 0
      })
      resized.observe(element)

      const tell = () => {
        const at = map.getCenter()
        const bounds = map.getBounds()
        element.dataset.centre = `${fixed(at.lat)},${fixed(at.lng)}`
        element.dataset.zoom = String(map.getZoom())
        element.dataset.bounds = [bounds.getSouth(), bounds.getWest(), bounds.getNorth(), bounds.getEast()]
          .map(fixed)
          .join(',')
        if (origin) element.dataset.origin = `${fixed(origin.lat)},${fixed(origin.lng)}`
      }
      tell()
      map.on('moveend', tell)
      element.dataset.ready = 'true'
      return () => {
        resized.disconnect()
        map.remove()
      }
    }

    let cleanUp: (() => void) | undefined
    let cancelled = false
    leafletStyles().then(() => {
      if (!cancelled) cleanUp = draw()
    })
    return () => {
      cancelled = true
      cleanUp?.()
    }
  }, [tileUrl, attribution, centre, origin, focus, dealers])

  return <DealerMapFrame label={label} tilesNotice={tilesNotice} ref={frame} />
}
