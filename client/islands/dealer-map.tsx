import 'leaflet/dist/leaflet.css'
import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { type DealerMapProps, DealerMapFrame } from './dealer-map-frame'

/**
 * The dealer locator's map (Leaflet, in a chunk of its own loaded only where the page has it): a marker per dealer
 * with a link to its page, framed to show them all. Tiles come from the configured URL; without one, markers only.
 */
export default function DealerMap({ tileUrl, attribution, label, centre, dealers }: DealerMapProps) {
  const frame = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!frame.current) return
    const map = L.map(frame.current, { scrollWheelZoom: false })
    map.attributionControl.setPrefix('Leaflet')
    if (tileUrl) L.tileLayer(tileUrl, { maxZoom: 18, attribution }).addTo(map)
    for (const dealer of dealers) {
      const link = document.createElement('a')
      link.href = dealer.href
      link.textContent = dealer.name
      L.circleMarker([dealer.lat, dealer.lng], { radius: 8, color: '#c2410c', weight: 2, fillOpacity: 0.7 }).bindPopup(link).addTo(map)
    }
    if (dealers.length > 0) map.fitBounds(L.latLngBounds(dealers.map((d) => [d.lat, d.lng] as [number, number])), { padding: [32, 32], maxZoom: 13 })
    else map.setView([centre.lat, centre.lng], 6)
    frame.current.dataset.ready = 'true'
    return () => {
      map.remove()
    }
  }, [tileUrl, attribution, centre, dealers])

  return <DealerMapFrame label={label} ref={frame} />
}
