import type { Dealer } from '../../contract/catalogue-schemas'

/**
 * Directions to a dealer: Google Maps' cross-platform URL with the dealer's coordinates as the destination, which
 * phones open in their maps app and desktops in the browser (docs/decisions/059). A link only: the page requests
 * nothing from it.
 */
export const directionsUrl = ({ lat, lng }: Pick<Dealer, 'lat' | 'lng'>): string =>
  `https://www.google.com/maps/dir/?api=1&destination=${lat}%2C${lng}`

/** A dealer's phone number as a `tel:` link: digits and the leading plus only. */
export const telUrl = (phone: string): string => `tel:${phone.replace(/[^+0-9]/g, '')}`
