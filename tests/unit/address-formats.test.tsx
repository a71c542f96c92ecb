import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import markets from '../../demo/markets.json'
import { addressInput, postalAddressInput } from '../../contract/account-schemas'
import { ADDRESS_FORMATS, addressText, isPhoneOf } from '../../contract/address-formats'
import { checkoutChoicesInput } from '../../contract/checkout-schemas'
import { fieldErrors } from '../../contract/fields'
import { addressFieldsOf } from '../../src/components/address-fields'
import { AddressLines } from '../../src/components/address-lines'

const address = (country: string, parts: Record<string, string | null> = {}) => ({
  first_name: 'Giulia',
  last_name: 'Rossi',
  line1: 'Via Tasso 8',
  postal_code: '24121',
  city: 'Bergamo',
  country_code: country,
  phone: '+39 035 555 0199',
  ...parts,
})
const errorsOf = (input: unknown) => {
  const parsed = postalAddressInput.safeParse(input)
  return parsed.success ? {} : fieldErrors(parsed.error)
}

describe('the table of address formats (docs/decisions/058)', () => {
  it("has a row for every demo market's country", () => {
    const countries = markets.map((market) => market.country_code).filter((code) => /^[A-Z]{2}$/.test(code))
    expect(countries.length).toBeGreaterThan(10)
    for (const country of countries) expect(ADDRESS_FORMATS[country], country).toBeDefined()
  })

  it('asks each country for its own fields, in its order: no postcode in the UAE, the state before the ZIP in the US', () => {
    const names = (country: string) => addressFieldsOf(country).map((field) => field.name)
    expect(names('AE')).not.toContain('postal_code')
    expect(names('AE')).toContain('region')
    expect(names('US')).toEqual([
      'first_name',
      'last_name',
      'company',
      'line1',
      'line2',
      'city',
      'region',
      'postal_code',
    ])
    expect(names('IT')).toEqual([
      'first_name',
      'last_name',
      'company',
      'line1',
      'line2',
      'postal_code',
      'city',
      'region',
    ])
    expect(names('DE')).not.toContain('region')
    expect(addressFieldsOf('IT').find((field) => field.name === 'region')?.label).toBe('address.province')
    expect(addressFieldsOf('US').find((field) => field.name === 'region')?.label).toBe('address.state')
  })
})

describe('the country rules, checked by the shared schemas (the Worker and the API alike)', () => {
  it('takes a UAE address without a postcode, and keeps none sent along', () => {
    const parsed = postalAddressInput.parse(address('AE', { postal_code: '', city: 'Dubai', region: 'Dubai' }))
    expect(parsed.postal_code).toBe('')
    expect(postalAddressInput.parse(address('AE', { postal_code: '00000', region: 'Dubai' })).postal_code).toBe('')
    expect(errorsOf(address('AE', { postal_code: '' }))).toEqual({ region: ['required'] })
  })

  it('refuses an Italian CAP that is not five digits ("9o100"), and takes 90100', () => {
    expect(errorsOf(address('IT', { postal_code: '9o100' }))).toEqual({ postal_code: ['postal_code'] })
    expect(errorsOf(address('IT', { postal_code: '2412' }))).toEqual({ postal_code: ['postal_code'] })
    expect(errorsOf(address('IT', { postal_code: '90100' }))).toEqual({})
    expect(errorsOf(address('IT', { postal_code: '' }))).toEqual({ postal_code: ['required'] })
  })

  it('takes a US ZIP of 5 or 5+4 digits and refuses any other; the state is required, as its code', () => {
    const us = (zip: string, region: string | null = 'CA') =>
      address('US', { postal_code: zip, region, city: 'San Francisco', phone: '(415) 555-0100' })
    expect(errorsOf(us('94103'))).toEqual({})
    expect(errorsOf(us('94103-1234'))).toEqual({})
    expect(errorsOf(us('9410'))).toEqual({ postal_code: ['postal_code'] })
    expect(errorsOf(us('94103-12'))).toEqual({ postal_code: ['postal_code'] })
    expect(errorsOf(us('94103', null))).toEqual({ region: ['required'] })
    expect(postalAddressInput.parse(us('94103', 'ca')).region).toBe('CA')
  })

  it('writes and checks the other postcodes their way: NL 1012 AB, the UK, Israel seven digits, Germany five', () => {
    expect(postalAddressInput.parse(address('NL', { postal_code: '1012ab', phone: null })).postal_code).toBe('1012 AB')
    expect(errorsOf(address('NL', { postal_code: '1012 SA', phone: null }))).toEqual({ postal_code: ['postal_code'] })
    expect(errorsOf(address('GB', { postal_code: 'sw1a 1aa', phone: null }))).toEqual({})
    expect(errorsOf(address('IL', { postal_code: '6100000', phone: null }))).toEqual({})
    expect(errorsOf(address('IL', { postal_code: '61000', phone: null }))).toEqual({ postal_code: ['postal_code'] })
    expect(errorsOf(address('DE', { postal_code: '1011', phone: null }))).toEqual({ postal_code: ['postal_code'] })
  })

  it("takes a phone of the address's country or in international form, and refuses a national number too short", () => {
    expect(isPhoneOf('IT', '+39 035 555 0101')).toBe(true)
    expect(isPhoneOf('IT', '035 555 0101')).toBe(true)
    expect(isPhoneOf('US', '(415) 555-0100')).toBe(true)
    expect(isPhoneOf('US', '1 415 555 0100')).toBe(true)
    expect(isPhoneOf('US', '555-0100')).toBe(false)
    expect(isPhoneOf('AE', '04 555 0123')).toBe(true)
    expect(isPhoneOf('IT', '+41 91 555 01 01')).toBe(true)
    expect(errorsOf(address('US', { postal_code: '94103', region: 'CA', phone: '555 0100' }))).toEqual({
      phone: ['phone'],
    })
  })

  it('gives every message at once: a wrong postcode is told beside an empty street', () => {
    expect(errorsOf(address('IT', { postal_code: '!!', line1: '' }))).toEqual({
      line1: ['required'],
      postal_code: ['postal_code'],
    })
    const book = addressInput.safeParse({ ...address('IT', { postal_code: 'x' }), label: 'Casa' })
    expect(book.success).toBe(false)
  })

  it('requires the phone for home delivery and not for pick-up', () => {
    const choices = (method: 'home' | 'pickup', phone: string | null) =>
      checkoutChoicesInput.safeParse({
        delivery: method === 'home' ? { method } : { method, dealer: 'cicli-bergamasca' },
        shipping_address: method === 'home' ? { address: address('IT', { phone }) } : null,
        billing_address: method === 'pickup' ? { address: address('IT', { phone }) } : null,
        payment_method: 'card',
      })
    const home = choices('home', null)
    expect(home.success).toBe(false)
    expect(home.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['shipping_address.address.phone', 'phone_delivery'],
    ])
    expect(choices('home', '+39 035 555 0199').success).toBe(true)
    expect(choices('pickup', null).success).toBe(true)
  })
})

describe('one renderer for every address', () => {
  it("prints each country in its order, the country in the reader's language", () => {
    const italian = { ...address('IT'), postal_code: '24122', region: 'BG', company: null, line2: null }
    expect(addressText(italian, 'Italia')).toEqual(['Giulia Rossi', 'Via Tasso 8', '24122 Bergamo (BG)', 'Italia'])
    const american = {
      ...address('US'),
      line1: '500 Market St',
      city: 'San Francisco',
      region: 'CA',
      postal_code: '94103',
    }
    expect(addressText(american, 'United States')).toEqual([
      'Giulia Rossi',
      '500 Market St',
      'San Francisco, CA 94103',
      'United States',
    ])
    const emirati = { ...address('AE'), line1: 'Al Wasl Road', city: 'Dubai', region: 'Dubai', postal_code: '' }
    expect(addressText(emirati, 'الإمارات العربية المتحدة')).toEqual([
      'Giulia Rossi',
      'Al Wasl Road',
      'Dubai, Dubai',
      'الإمارات العربية المتحدة',
    ])
  })

  it('renders the same lines on a page, the postcode and the phone isolated left to right', () => {
    const italian = { ...address('IT'), postal_code: '24122', region: 'BG' }
    const html = renderToStaticMarkup(<AddressLines address={italian} tag="he-IL" />)
    expect(html).toContain('<bdi dir="ltr">24122</bdi> Bergamo (BG)')
    expect(html).toContain('<bdi dir="ltr">+39 035 555 0199</bdi>')
    expect(html.indexOf('Via Tasso 8')).toBeLessThan(html.indexOf('24122'))
  })
})
