import { describe, expect, it } from 'vitest'
import { provesAreaMissing } from '../../src/upstream/area-missing'
import { areaOfCall, areasOf } from '../../src/upstream/areas'

describe("the contract's areas (src/upstream/areas.ts)", () => {
  it("names each call's area, and none for the original's eight calls", () => {
    expect(areaOfCall('forms/contact')).toBe('forms')
    expect(areaOfCall('jobs')).toBe('forms')
    expect(areaOfCall('whistleblower/reports')).toBe('whistleblower')
    expect(areaOfCall('front/news?per_page=3')).toBe('news')
    expect(areaOfCall('front/products/aurora-strada-9')).toBe('catalogue')
    expect(areaOfCall('cart')).toBe('cart-checkout')
    for (const call of [
      'sites',
      'sites/it',
      'get-features',
      'front/menu/products?type_id=1',
      'auth/login',
      'auth/user',
    ])
      expect(areaOfCall(call)).toBeNull()
  })

  it('holds the lead forms, the whistleblower channel, the newsletter and the staff console on D1, switches the rest off', () => {
    const areas = areasOf(new Set(), true)
    expect(areas.heldCall('forms/contact')).toBe(true)
    expect(areas.heldCall('staff/cases')).toBe(true)
    expect(areas.heldCall('front/news')).toBe(false)
    expect(areas.heldCall('sites/it')).toBe(false)
    expect(areas.offPages()).toEqual(expect.arrayContaining(['news', 'search', 'products', 'cart', 'dealer-pages']))
    expect(areas.offPages()).not.toContain('contact-us')
  })

  it('holds nothing without the embedded API, and switches nothing off when every area is served', () => {
    expect(areasOf(new Set(), false).offPages()).toEqual(expect.arrayContaining(['contact-us', 'whistleblower']))
    expect(areasOf(new Set(), false).heldCall('forms/contact')).toBe(false)
    expect(areasOf('all', true).offPages()).toEqual([])
  })
})

describe('an area the backend lacks, proven by an answer (src/upstream/area-missing.ts)', () => {
  it('takes 405 and 501 on any call of the area, and 404 only on a list the area always answers', () => {
    expect(provesAreaMissing('front/news/some-article', 405, 'news')).toBe(true)
    expect(provesAreaMissing('account/addresses/7', 501, 'account')).toBe(true)
    expect(provesAreaMissing('front/news?page=1&per_page=3', 404, 'news')).toBe(true)
    expect(provesAreaMissing('account/bikes', 404, 'account')).toBe(true)
    expect(provesAreaMissing('front/news/some-article', 404, 'news')).toBe(false)
    expect(provesAreaMissing('account/cart', 404, 'cart-checkout')).toBe(false)
    expect(provesAreaMissing('front/products', 500, 'catalogue')).toBe(false)
  })

  it("puts a customer's orders with the shop, and switches the account's own pages off without the account area", () => {
    expect(areaOfCall('account/orders?page=1&per_page=3')).toBe('cart-checkout')
    expect(areaOfCall('account/orders/AUR-1')).toBe('cart-checkout')
    expect(areaOfCall('account/bikes')).toBe('account')
    const off = areasOf(new Set(), true).offPages()
    for (const page of ['account-orders', 'account-bikes', 'account-addresses', 'password-reset', 'email-confirmation'])
      expect(off).toContain(page)
    expect(areasOf(new Set(['cart-checkout']), true).offPages()).not.toContain('account-orders')
  })
})
