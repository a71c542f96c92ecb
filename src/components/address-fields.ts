import { addressFormatOf } from '../../contract/address-formats'

/** One text field of an address form: its name, its label's text key, whether it may stay empty, its length, its autocomplete token. */
export type AddressFieldSpec = {
  name: 'first_name' | 'last_name' | 'company' | 'line1' | 'line2' | 'postal_code' | 'city' | 'region'
  label: string
  optional: boolean
  maxLength: number
  autoComplete: string
  /** The postcode's example in the country's form (`24122`, `1012 AB`), shown under its field. */
  example?: string
}

const PART_FIELDS: Record<Exclude<AddressFieldSpec['name'], 'region'>, Omit<AddressFieldSpec, 'name'>> = {
  first_name: { label: 'address.first_name', optional: false, maxLength: 80, autoComplete: 'given-name' },
  last_name: { label: 'address.last_name', optional: false, maxLength: 80, autoComplete: 'family-name' },
  company: { label: 'address.company', optional: true, maxLength: 120, autoComplete: 'organization' },
  line1: { label: 'address.line1', optional: false, maxLength: 120, autoComplete: 'address-line1' },
  line2: { label: 'address.line2', optional: true, maxLength: 120, autoComplete: 'address-line2' },
  postal_code: { label: 'address.postal_code', optional: false, maxLength: 12, autoComplete: 'postal-code' },
  city: { label: 'address.city', optional: false, maxLength: 80, autoComplete: 'address-level2' },
}

/**
 * The text fields of an address in a country, in the country's order (contract/address-formats.ts): the names, then
 * its parts; no postcode where the country has none (the UAE), the province, state or emirate where it asks for one,
 * labelled as the country calls it. The account's address book and checkout both build their forms from it.
 *
 * @example addressFieldsOf('US').map((field) => field.name) // first_name, last_name, company, line1, line2, city, region, postal_code
 */
export function addressFieldsOf(country: string): AddressFieldSpec[] {
  const format = addressFormatOf(country)
  const parts = format.fields.flatMap((part): AddressFieldSpec[] => {
    if (part === 'region')
      return format.region
        ? [
            {
              name: 'region',
              label: `address.${format.region.label}`,
              optional: !format.region.required,
              maxLength: 80,
              autoComplete: 'address-level1',
            },
          ]
        : []
    if (part === 'postal_code')
      return format.postcode
        ? [{ name: part, ...PART_FIELDS[part], example: format.postcode.example || undefined }]
        : []
    return [{ name: part, ...PART_FIELDS[part] }]
  })
  return [{ name: 'first_name', ...PART_FIELDS.first_name }, { name: 'last_name', ...PART_FIELDS.last_name }, ...parts]
}
