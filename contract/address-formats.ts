/**
 * How each country writes a postal address (docs/decisions/058): the fields a form asks for and their order, which
 * are required, the postcode's rule (none at all in the UAE), the province or state where the country uses one, the
 * phone's rule, and the lines a letter prints. One table for every market's country, read by the shared input
 * schemas (so the Worker's forms and the API refuse the same address), the forms and the one renderer
 * (`addressLines`). A country not in the table gets `FALLBACK_FORMAT`: the rules the contract had before.
 */

/** An address field a country may ask for, beside the names, the country and the phone that every form has. */
export type AddressPart = 'company' | 'line1' | 'line2' | 'postal_code' | 'city' | 'region'

/** What the country calls its province or state field (the `address.{label}` text), and whether it must be given. */
export type RegionRule = {
  label: 'province' | 'state' | 'emirate' | 'region'
  required: boolean
  /** The form of its code where the country writes one (`BG`, `CA`), and the message (`validation.*`) when it is not. */
  pattern?: RegExp
  message?: string
}

/** A printed line: the parts in order, each with the text before it; a part not given leaves out its text too. */
export type LineTemplate = ReadonlyArray<{ part: AddressPart; before?: string; after?: string }>

export type AddressFormat = {
  /** The form's fields after the names, in the country's order. */
  fields: readonly AddressPart[]
  /** The postcode's rule (on the value as written, spaces trimmed, letters upper-cased), or null: no postcode. */
  postcode: { pattern: RegExp; example: string } | null
  region: RegionRule | null
  /** The country's calling code and its national numbers' digits (without the trunk prefix, `0` or `1`). */
  phone: { code: string; digits: readonly [number, number]; trunk: '0' | '1' | null }
  /** The lines after the name and the company: the street lines, then the town's. */
  lines: readonly LineTemplate[]
}

const STREET: LineTemplate[] = [[{ part: 'line1' }], [{ part: 'line2' }]]
const EUROPEAN_FIELDS = ['company', 'line1', 'line2', 'postal_code', 'city'] as const
/** `24122 Bergamo`: the postcode before the town, as most of Europe writes it. */
const POSTCODE_TOWN: LineTemplate = [{ part: 'postal_code', after: ' ' }, { part: 'city' }]

const european = (
  pattern: RegExp,
  example: string,
  phone: AddressFormat['phone'],
  town: LineTemplate = POSTCODE_TOWN,
): AddressFormat => ({
  fields: EUROPEAN_FIELDS,
  postcode: { pattern, example },
  region: null,
  phone,
  lines: [...STREET, town],
})

/** The table: every country of the demo's markets, and the United Kingdom. */
export const ADDRESS_FORMATS: Readonly<Record<string, AddressFormat>> = {
  IT: {
    fields: ['company', 'line1', 'line2', 'postal_code', 'city', 'region'],
    postcode: { pattern: /^\d{5}$/, example: '24122' },
    // The CAP already names the province: its code is asked for, not required, and checked when given.
    region: { label: 'province', required: false, pattern: /^[A-Z]{2}$/, message: 'region_province' },
    phone: { code: '39', digits: [6, 11], trunk: null },
    // `24122 Bergamo (BG)`: the province's code after the town.
    lines: [
      ...STREET,
      [{ part: 'postal_code', after: ' ' }, { part: 'city' }, { part: 'region', before: ' (', after: ')' }],
    ],
  },
  ES: {
    fields: ['company', 'line1', 'line2', 'postal_code', 'city', 'region'],
    postcode: { pattern: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/, example: '28001' },
    region: { label: 'province', required: false },
    phone: { code: '34', digits: [9, 9], trunk: null },
    lines: [...STREET, POSTCODE_TOWN, [{ part: 'region' }]],
  },
  GR: european(/^\d{3} ?\d{2}$/, '105 57', { code: '30', digits: [10, 10], trunk: null }),
  PT: european(/^\d{4}-\d{3}$/, '1100-148', { code: '351', digits: [9, 9], trunk: null }),
  DE: european(/^\d{5}$/, '10115', { code: '49', digits: [6, 13], trunk: '0' }),
  FR: european(/^\d{5}$/, '75001', { code: '33', digits: [9, 9], trunk: '0' }),
  CH: european(/^[1-9]\d{3}$/, '6900', { code: '41', digits: [9, 9], trunk: '0' }),
  SI: european(/^[1-9]\d{3}$/, '1000', { code: '386', digits: [8, 8], trunk: '0' }),
  HR: european(/^[1-5]\d{4}$/, '10000', { code: '385', digits: [8, 9], trunk: '0' }),
  // `1012 AB Amsterdam` (never SA, SD or SS).
  NL: european(/^[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}$/, '1012 AB', { code: '31', digits: [9, 9], trunk: '0' }, [
    { part: 'postal_code', after: '  ' },
    { part: 'city' },
  ]),
  GB: {
    fields: ['company', 'line1', 'line2', 'city', 'postal_code'],
    postcode: { pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/, example: 'SW1A 1AA' },
    region: null,
    phone: { code: '44', digits: [9, 10], trunk: '0' },
    // The town, then the postcode on a line of its own.
    lines: [...STREET, [{ part: 'city' }], [{ part: 'postal_code' }]],
  },
  US: {
    fields: ['company', 'line1', 'line2', 'city', 'region', 'postal_code'],
    postcode: { pattern: /^\d{5}(-\d{4})?$/, example: '94103' },
    region: { label: 'state', required: true, pattern: /^[A-Z]{2}$/, message: 'region' },
    phone: { code: '1', digits: [10, 10], trunk: '1' },
    // `San Francisco, CA 94103`.
    lines: [...STREET, [{ part: 'city' }, { part: 'region', before: ', ' }, { part: 'postal_code', before: ' ' }]],
  },
  MX: {
    fields: ['company', 'line1', 'line2', 'postal_code', 'city', 'region'],
    postcode: { pattern: /^\d{5}$/, example: '06600' },
    region: { label: 'state', required: true },
    phone: { code: '52', digits: [10, 10], trunk: null },
    // `06600 Ciudad de México, CDMX`.
    lines: [...STREET, [{ part: 'postal_code', after: ' ' }, { part: 'city' }, { part: 'region', before: ', ' }]],
  },
  IL: {
    fields: ['company', 'line1', 'line2', 'city', 'postal_code'],
    postcode: { pattern: /^\d{7}$/, example: '6100000' },
    region: null,
    phone: { code: '972', digits: [8, 9], trunk: '0' },
    // `Tel Aviv 6100000`: the town before its postcode.
    lines: [...STREET, [{ part: 'city', after: ' ' }, { part: 'postal_code' }]],
  },
  AE: {
    // No postcode at all: the emirate and the town say where.
    fields: ['company', 'line1', 'line2', 'city', 'region'],
    postcode: null,
    region: { label: 'emirate', required: true },
    phone: { code: '971', digits: [8, 9], trunk: '0' },
    lines: [...STREET, [{ part: 'city' }, { part: 'region', before: ', ' }]],
  },
  AU: {
    fields: ['company', 'line1', 'line2', 'city', 'region', 'postal_code'],
    postcode: { pattern: /^\d{4}$/, example: '2000' },
    region: { label: 'state', required: true, pattern: /^(ACT|NSW|NT|QLD|SA|TAS|VIC|WA)$/, message: 'region_state' },
    phone: { code: '61', digits: [9, 9], trunk: '0' },
    // `SYDNEY NSW 2000`.
    lines: [...STREET, [{ part: 'city' }, { part: 'region', before: ' ' }, { part: 'postal_code', before: ' ' }]],
  },
  ZA: {
    fields: ['company', 'line1', 'line2', 'city', 'postal_code'],
    postcode: { pattern: /^\d{4}$/, example: '8001' },
    region: null,
    phone: { code: '27', digits: [9, 9], trunk: '0' },
    lines: [...STREET, [{ part: 'city' }], [{ part: 'postal_code' }]],
  },
}

/** The rules the contract had for every country before the table: a postcode of letters and digits, a province optional. */
export const FALLBACK_FORMAT: AddressFormat = {
  fields: ['company', 'line1', 'line2', 'postal_code', 'city', 'region'],
  postcode: { pattern: /^[\p{L}\p{N}][\p{L}\p{N} -]{1,10}$/u, example: '' },
  region: { label: 'region', required: false },
  phone: { code: '', digits: [6, 15], trunk: null },
  lines: [
    ...STREET,
    [{ part: 'postal_code', after: ' ' }, { part: 'city' }, { part: 'region', before: ' (', after: ')' }],
  ],
}

/** The format of a country (`IT`, `it`), or the fallback's. */
export const addressFormatOf = (country: string): AddressFormat =>
  ADDRESS_FORMATS[country.toUpperCase()] ?? FALLBACK_FORMAT

/** A postcode as the country writes it: trimmed, upper-cased, the Dutch `1012ab` as `1012 AB`. */
export function normalPostcode(country: string, value: string): string {
  const upper = value.trim().replace(/\s+/g, ' ').toUpperCase()
  if (country.toUpperCase() === 'NL') return upper.replace(/^(\d{4}) ?([A-Z]{2})$/, '$1 $2')
  return upper
}

/**
 * Whether a phone number is one of the country's: `+{code}` and the national digits, or the national digits with
 * or without the trunk prefix (`+39 035 555 0101`, `035 555 0101`; `+1 415 555 0100`, `(415) 555-0100`). A number
 * in another country's international form (`+41 …` in Italy) is taken as written: a customer may give their own.
 */
export function isPhoneOf(country: string, value: string): boolean {
  const { code, digits, trunk } = addressFormatOf(country).phone
  const written = value.trim()
  if (!/^\+?[0-9 ()./-]{6,30}$/.test(written)) return false
  const number = written.replace(/\D/g, '')
  const fits = (national: string) => national.length >= digits[0] && national.length <= digits[1]
  if (written.startsWith('+')) {
    if (!code || !number.startsWith(code)) return number.length >= 7 && number.length <= 15
    const national = number.slice(code.length)
    // Italy keeps the leading 0 after +39; a trunk prefix written after the code (`+49 (0)30…`) is dropped.
    return fits(national) || (trunk !== null && national.startsWith(trunk) && fits(national.slice(1)))
  }
  return fits(number) || (trunk !== null && number.startsWith(trunk) && fits(number.slice(1)))
}

/** An address's parts by name, as the renderer reads them (the stored address, or a form's values). */
export type AddressParts = Partial<Record<AddressPart, string | null | undefined>>

/** One printed line: its pieces, each a part's value (a field, the name or the country) or the text between them. */
export type AddressLinePiece = { part: AddressPart | 'name' | 'country' | null; text: string }

/**
 * The lines of an address after the name and company, as the country prints them: each a list of pieces, so a page
 * can isolate the postcode (a left-to-right run) and a letter can join them. Empty lines are left out.
 */
export function townLines(country: string, address: AddressParts): AddressLinePiece[][] {
  const lines: AddressLinePiece[][] = []
  for (const template of addressFormatOf(country).lines) {
    const pieces: AddressLinePiece[] = []
    for (const { part, before, after } of template) {
      const value = address[part]?.trim()
      if (!value) continue
      if (before && pieces.length > 0) pieces.push({ part: null, text: before })
      else if (before?.trim()) pieces.push({ part: null, text: before.trimStart() })
      pieces.push({ part, text: value })
      if (after) pieces.push({ part: null, text: after })
    }
    while (pieces.at(-1)?.part === null && !pieces.at(-1)?.text.trim()) pieces.pop()
    if (pieces.length > 0) lines.push(pieces)
  }
  return lines
}

/** A postal address as the one renderer reads it: the names, the country's parts, the country's code. */
export type PrintableAddress = AddressParts & { first_name: string; last_name: string; country_code: string }

/**
 * The one way an address is printed (checkout, account, mails, the console): the name, the company, then the lines
 * of `townLines` in the country's order, then the country as `countryName` names it in the reader's language (the
 * phone is the caller's: a page isolates it, a letter leaves it out).
 *
 * @example addressLines(address, 'Italia') // [[name], [Via…], [24122, ' ', Bergamo, ' (', BG, ')'], [Italia]]
 */
export function addressLines(address: PrintableAddress, countryName: string): AddressLinePiece[][] {
  const name = `${address.first_name} ${address.last_name}`.trim()
  const company = address.company?.trim()
  return [
    ...(name ? [[{ part: 'name' as const, text: name }]] : []),
    ...(company ? [[{ part: 'company' as const, text: company }]] : []),
    ...townLines(address.country_code, address),
    [{ part: 'country' as const, text: countryName }],
  ]
}

/** The lines of `addressLines` as plain text, one string a line (a letter's, a console's). */
export const addressText = (address: PrintableAddress, countryName: string): string[] =>
  addressLines(address, countryName).map((pieces) => pieces.map((piece) => piece.text).join(''))
