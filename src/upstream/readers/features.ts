import { z } from 'zod'
import type { Feature } from '../../../contract/schemas'

/**
 * The one table of the brand's features: each name the backend may send (the contract's key, or the original's name
 * for it) → the site's switch it sets (src/market/availability.ts's `BRAND_FEATURES`). A feature not listed here is
 * ignored. docs/backend.md "The minimum backend" lists it.
 */
export const FEATURE_NAMES: Readonly<Record<string, string>> = {
  dealer_locator: 'dealer_locator',
  dealers: 'dealer_locator',
  search: 'search',
  customer_login: 'customer_login',
  login: 'customer_login',
  my_account: 'customer_login',
  checkout: 'checkout',
  ecommerce: 'checkout',
  shop: 'checkout',
}

/** Whether a value says "on": true, 1, '1', 'active', 'enabled', 'on'. */
const isOn = (value: unknown) =>
  value === true ||
  value === 1 ||
  (typeof value === 'string' && ['1', 'true', 'active', 'enabled', 'on'].includes(value))

/**
 * One feature in whatever shape the backend sends it: its name from `key`, `slug` or `name`, whether it is on from
 * `enabled`, `status`, `active` or `is_active` (on when none is given), mapped through `FEATURE_NAMES`; null when
 * unknown.
 */
function featureOf(item: unknown): Feature | null {
  if (typeof item !== 'object' || item === null) return null
  const record = item as Record<string, unknown>
  const name = [record.key, record.slug, record.name].find(
    (value): value is string => typeof value === 'string' && value in FEATURE_NAMES,
  )
  if (!name) return null
  const key = FEATURE_NAMES[name] ?? name
  const flag = [record.enabled, record.status, record.active, record.is_active].find((value) => value !== undefined)
  return { key, name: typeof record.name === 'string' ? record.name : key, enabled: flag === undefined || isOn(flag) }
}

/** `GET api/get-features`, read tolerantly: the features the site knows, by its own keys. */
export const featureListAnswer = z.object({ data: z.array(z.unknown()) }).transform(({ data }) => ({
  data: data.flatMap((item) => {
    const feature = featureOf(item)
    return feature ? [feature] : []
  }),
}))
