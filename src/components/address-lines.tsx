import { countryName } from '../i18n/formats'
import type { PostalAddress } from '../upstream/account-schemas'

/** A postal address as lines, the country named in the market's language (an order's, or one of the address book). */
export function AddressLines({ address, tag }: { address: PostalAddress; tag: string }) {
  const lines = [
    `${address.first_name} ${address.last_name}`,
    address.company,
    address.line1,
    address.line2,
    `${address.postal_code} ${address.city}${address.region ? ` (${address.region})` : ''}`,
    countryName(address.country_code, tag),
  ].filter(Boolean)
  return (
    <address>
      {lines.map((line, index) => (
        <span key={index} className="address-line" dir="auto">
          {line}
        </span>
      ))}
      {address.phone && (
        <span className="address-line" dir="ltr">
          {address.phone}
        </span>
      )}
    </address>
  )
}
