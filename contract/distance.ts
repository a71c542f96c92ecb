/** A point on the map. */
export type Point = { lat: number; lng: number }

/** Great-circle distance between two points (haversine), in kilometres. */
export function distanceKm(a: Point, b: Point): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Things with a position, each with its distance from `origin` (km), nearest first. */
export function byDistance<T extends Point>(things: T[], origin: Point): Array<T & { distance_km: number }> {
  return things
    .map((thing) => ({ ...thing, distance_km: distanceKm(origin, thing) }))
    .sort((a, b) => a.distance_km - b.distance_km)
}
