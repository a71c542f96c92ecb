import type { Context } from 'hono'
import type { AppEnv } from '../env'
import type { Point } from '../geo/distance'
import type { Place } from '../upstream/catalogue-schemas'

/** Where a list of dealers measures from: a place the visitor typed, their position at the edge, or the market's centre. */
export type Origin = { point: Point; from: 'place'; place: string } | { point: Point; from: 'visitor' } | { point: Point; from: 'centre'; unknownPlace?: string }

/** The town or postcode the visitor typed (`?near=`), trimmed; '' when none. */
export const nearOf = (c: Context<AppEnv>): string => (c.req.query('near') ?? '').trim().slice(0, 80)

/** The place a typed town or postcode names (`api.dealers.place`, the visitor's own words: never cached), or null. */
export const placeOf = (c: Context<AppEnv>, near: string): Promise<Place | null> =>
  near.length >= 2 ? c.var.api.dealers.place(near) : Promise.resolve(null)

/**
 * Where to measure from: the place typed, else the visitor's position at the edge when they are in the market's
 * country (or on the international site), else the market's centre (or, without one, the middle of its dealers).
 * The dealer locator and the test ride's dealer list share it.
 */
export function originOf(c: Context<AppEnv>, place: Place | null, near: string, dealers: Point[]): Origin {
  if (place) return { point: place, from: 'place', place: place.name }
  const { site } = c.var.market
  const cf = c.req.raw.cf as { latitude?: string; longitude?: string; country?: string } | undefined
  const visitor = { lat: Number(cf?.latitude), lng: Number(cf?.longitude) }
  const inMarket = site.slug === 'int' || cf?.country?.toUpperCase() === site.country.country_code.toUpperCase()
  if (!near && inMarket && cf?.latitude && cf.longitude && Number.isFinite(visitor.lat) && Number.isFinite(visitor.lng)) {
    return { point: visitor, from: 'visitor' }
  }
  return { point: site.centre ?? middleOf(dealers), from: 'centre', ...(near ? { unknownPlace: near } : {}) }
}

const middleOf = (points: Point[]): Point =>
  points.length === 0
    ? { lat: 0, lng: 0 }
    : { lat: points.reduce((sum, p) => sum + p.lat, 0) / points.length, lng: points.reduce((sum, p) => sum + p.lng, 0) / points.length }
