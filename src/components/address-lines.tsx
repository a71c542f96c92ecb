import type { ReactNode } from 'react'
import { countryName } from '../i18n/formats'
import type { PostalAddress } from '../../contract/account-schemas'

/**
 * A postal address as lines, the country named in the market's language (an order's, or one of the address book).
 * Each line is isolated and takes its own direction from its text, aligned as the page is; the postcode and the phone number are isolated left-to-right runs,
 * so "24122 Bergamo" or "+39 035 555 0101" never come out reordered on a right-to-left page.
 */
export function AddressLines({ address, tag }: { address: PostalAddress; tag: string }) {
  const town = `${address.city}${address.region ? ` (${address.region})` : ''}`
  const lines: ReactNode[] = [
    `${address.first_name} ${address.last_name}`,
    address.company,
    address.line1,
    address.line2,
    <>
      <bdi dir="ltr">{address.postal_code}</bdi>
      {` ${town}`}
    </>,
    countryName(address.country_code, tag),
  ].filter(Boolean)
  return (
    <address>
      {lines.map((line, index) => (
        <span key={index} className="address-line">
          <bdi>{line}</bdi>
        </span>
      ))}
      {address.phone && (
        <span className="address-line">
          <bdi dir="ltr">{address.phone}</bdi>
        </span>
      )}
    </address>
  )
}
