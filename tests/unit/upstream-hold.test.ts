import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { configOf } from '../../src/config'
import { areasOf } from '../../src/upstream/areas'

afterEach(() => vi.restoreAllMocks())

const BACKEND = 'https://api.brand.example'

/** The configuration of a fresh environment with the backend's areas and the areas held, and the errors it logged. */
function holdWith(UPSTREAM_AREAS: string, UPSTREAM_HOLD: string, UPSTREAM_URL = BACKEND) {
  const errors: string[] = []
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
  const config = configOf({ ...env, UPSTREAM_URL, UPSTREAM_AREAS, UPSTREAM_HOLD } as typeof env)
  return { config, hold: [...config.upstreamHold], logged: errors.map((line) => JSON.parse(line) as object) }
}

describe('UPSTREAM_HOLD (docs/decisions/043)', () => {
  it('holds the catalogue and the shop on request, and nothing with the embedded API or every area served', () => {
    expect(holdWith('none', 'catalogue, cart-checkout').hold).toEqual(['catalogue', 'cart-checkout'])
    expect(holdWith('none', 'catalogue,cart-checkout', '').hold).toEqual([])
    expect(holdWith('', 'catalogue,cart-checkout').hold).toEqual([])
  })

  it('leaves any other name out, logged config_invalid', () => {
    const { hold, logged } = holdWith('none', 'catalogue,news')
    expect(hold).toEqual(['catalogue'])
    expect(logged).toEqual([{ level: 'error', event: 'config_invalid', variable: 'UPSTREAM_HOLD' }])
  })

  it('refuses the shop without the catalogue (config_invalid), and takes it with the backend serving the catalogue', () => {
    const { hold, logged } = holdWith('none', 'cart-checkout')
    expect(hold).toEqual([])
    expect(logged).toEqual([
      {
        level: 'error',
        event: 'config_invalid',
        variable: 'UPSTREAM_HOLD',
        reason: 'cart-checkout without the catalogue',
      },
    ])
    expect(holdWith('catalogue', 'cart-checkout')).toMatchObject({ hold: ['cart-checkout'], logged: [] })
  })

  it('keeps the caches of another hold apart (the upstream fingerprint)', () => {
    const none = holdWith('none', '').config.upstream.fingerprint
    expect(holdWith('none', 'catalogue').config.upstream.fingerprint).not.toBe(none)
  })
})

describe('areasOf with held areas', () => {
  it("routes a held area's calls to D1, its pages on, and the customer's orders with the shop", () => {
    const areas = areasOf(new Set(['content']), true, new Set(['catalogue', 'cart-checkout'] as const))
    for (const call of ['front/products/aurora-strada-9', 'carts/items', 'account/checkout/ABC', 'payments/events'])
      expect(areas.heldCall(call), call).toBe(true)
    for (const call of ['account/orders?page=1', 'account/orders/A7K2', 'account/orders/A7K2/payment'])
      expect(areas.heldCall(call), call).toBe(true)
    expect(areas.heldCall('account/profile')).toBe(false)
    expect(areas.heldCall('auth/user')).toBe(false)
    expect(areas.offPages()).not.toContain('cart')
    expect(areas.offPages()).not.toContain('products')
  })

  it('holds nothing on request without an embedded API, and leaves the orders with their area without the shop', () => {
    expect(areasOf(new Set(), false, new Set(['cart-checkout'] as const)).heldCall('carts/items')).toBe(false)
    expect(areasOf(new Set(), true).heldCall('account/orders')).toBe(false)
  })
})
