import type { Context } from 'hono'
import type { MarketEnv } from '../env'
import type { Point } from '../../contract/distance'
import type { Place } from '../../contract/catalogue-schemas'
import { closestTerm, foldWord, vocabularyOf } from '../search/typo-tolerance'

/**
 * Where a list of dealers measures from: a place the visitor typed, the position their browser gave ("use my
 * position"), their position at the edge, or the market's centre.
 */
export type Origin =
  | { point: Point; from: 'place'; place: string; corrected?: boolean }
  | { point: Point; from: 'position' }
  | { point: Point; from: 'visitor' }
  | { point: Point; from: 'centre'; unknownPlace?: string }

/** A coordinate as the locator takes it from a URL: degrees, at most eight decimals. */
const DEGREES = /^-?\d{1,3}(\.\d{1,8})?$/

/**
 * The position the visitor's browser gave (`?lat=&lng=`, "use my position"): null when the URL has neither,
 * 'invalid' when either is missing, malformed or out of range.
 */
export function positionOf(c: Context<MarketEnv>): Point | 'invalid' | null {
  const lat = c.req.query('lat')
  const lng = c.req.query('lng')
  if (lat === undefined && lng === undefined) return null
  if (!DEGREES.test(lat ?? '') || !DEGREES.test(lng ?? '')) return 'invalid'
  const point = { lat: Number(lat), lng: Number(lng) }
  return Math.abs(point.lat) <= 90 && Math.abs(point.lng) <= 180 ? point : 'invalid'
}

/** The town or postcode the visitor typed (`?near=`), trimmed; '' when none. */
export const nearOf = (c: Context<MarketEnv>): string => (c.req.query('near') ?? '').trim().slice(0, 80)

/** The place a typed town or postcode names (`api.dealers.place`, the visitor's own words: never cached), or null. */
export const placeOf = (c: Context<MarketEnv>, near: string): Promise<Place | null> =>
  near.length >= 2 ? c.var.api.dealers.place(near) : Promise.resolve(null)

/**
 * The place a typed town names when the visitor's words name none as typed: the nearest town of the market's dealers
 * within a few edits ("Mlano" → Milano, src/search/typo-tolerance.ts), marked `corrected` so the page says so; null
 * when no town is near.
 */
export async function correctedPlaceOf(
  c: Context<MarketEnv>,
  near: string,
  dealers: Array<{ city: string }>,
): Promise<(Place & { corrected: true }) | null> {
  const town = near.length >= 2 ? closestTerm(near, vocabularyOf(dealers.map((dealer) => dealer.city))) : null
  if (!town || foldWord(town) === foldWord(near)) return null
  const place = await placeOf(c, town)
  return place && { ...place, corrected: true }
}

/**
 * Where to measure from: the place typed, else the position the visitor's browser gave, else the visitor's position
 * at the edge when they are in the market's country (or on the international site), else the market's centre (or,
 * without one, the middle of its dealers). The dealer locator and the test ride's dealer list share it.
 */
export function originOf(
  c: Context<MarketEnv>,
  place: (Place & { corrected?: boolean }) | null,
  near: string,
  dealers: Point[],
  position: Point | null = null,
): Origin {
  if (place) return { point: place, from: 'place', place: place.name, ...(place.corrected ? { corrected: true } : {}) }
  if (position) return { point: position, from: 'position' }
  const { site } = c.var.market
  const cf = c.req.raw.cf as { latitude?: string; longitude?: string; country?: string } | undefined
  const visitor = { lat: Number(cf?.latitude), lng: Number(cf?.longitude) }
  const inMarket = site.slug === 'int' || cf?.country?.toUpperCase() === site.country.country_code.toUpperCase()
  if (
    !near &&
    inMarket &&
    cf?.latitude &&
    cf.longitude &&
    Number.isFinite(visitor.lat) &&
    Number.isFinite(visitor.lng)
  ) {
    return { point: visitor, from: 'visitor' }
  }
  return { point: site.centre ?? middleOf(dealers), from: 'centre', ...(near ? { unknownPlace: near } : {}) }
}

const middleOf = (points: Point[]): Point =>
  points.length === 0
    ? { lat: 0, lng: 0 }
    : {
        lat: points.reduce((sum, p) => sum + p.lat, 0) / points.length,
        lng: points.reduce((sum, p) => sum + p.lng, 0) / points.length,
      }
