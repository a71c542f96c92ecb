/**
 * The carriers staff ship with (the console's ship form) and where a customer follows a parcel: each known carrier's
 * public tracking page with the number in it. `other` has none: the customer's order shows the number alone.
 */
export const CARRIERS = ['dhl', 'ups', 'fedex', 'dpd', 'gls', 'poste_italiane', 'swiss_post', 'usps', 'other'] as const
export type Carrier = (typeof CARRIERS)[number]

/** How each carrier is named (its own brand name, the same in every language). */
export const CARRIER_NAMES: Record<Carrier, string> = {
  dhl: 'DHL',
  ups: 'UPS',
  fedex: 'FedEx',
  dpd: 'DPD',
  gls: 'GLS',
  poste_italiane: 'Poste Italiane',
  swiss_post: 'Swiss Post',
  usps: 'USPS',
  other: 'Other carrier',
}

const TRACKING_PAGES: Partial<Record<Carrier, string>> = {
  dhl: 'https://www.dhl.com/global-en/home/tracking.html?tracking-id={code}',
  ups: 'https://www.ups.com/track?tracknum={code}',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr={code}',
  dpd: 'https://tracking.dpd.de/status/en_US/parcel/{code}',
  gls: 'https://gls-group.com/track/{code}',
  poste_italiane: 'https://www.poste.it/cerca/index.html#/risultati-spedizioni/{code}',
  swiss_post: 'https://service.post.ch/ekp-web/ui/entry/search/{code}',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={code}',
}

/** What a tracking number may be: letters, digits, dashes (what carriers print), 4 to 40 of them. */
export const TRACKING_NUMBER = /^[A-Za-z0-9-]{4,40}$/

/**
 * The page where a parcel is followed, or null (an unknown carrier, `other`, or a number that is no tracking number).
 *
 * @example
 * trackingUrl('ups', '1Z999AA10123456784') // 'https://www.ups.com/track?tracknum=1Z999AA10123456784'
 */
export function trackingUrl(carrier: string | null | undefined, code: string | null | undefined): string | null {
  if (!carrier || !code || !TRACKING_NUMBER.test(code)) return null
  const page = TRACKING_PAGES[carrier as Carrier]
  return page ? page.replace('{code}', encodeURIComponent(code)) : null
}
