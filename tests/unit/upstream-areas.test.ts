import { describe, expect, it } from 'vitest'
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
