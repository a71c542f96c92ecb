import type { CartDiscount, DiscountKind, DiscountRefusal } from '../contract/discount-schemas'
import type { ApiContext } from './context'

/**
 * Discount codes' rules (docs/decisions/051), apart from their routes: whether a code applies to a subtotal now, and
 * how much it takes off. A percentage is in basis points and rounded once to the currency's minor unit; an amount is
 * in minor units already; either never takes off more than the items' subtotal (delivery is never discounted, so a
 * total is never negative).
 */

/** A code's row as the rules read it. */
export type DiscountRule = {
  id: number
  code: string
  kind: DiscountKind
  value: number
  minimum_subtotal: number
  valid_from: string | null
  valid_until: string | null
  usage_limit: number | null
  per_customer_limit: number | null
  active: number
}

/** How often a code was used: by everyone, and by the customer asking (0 for an anonymous cart). */
export type DiscountUses = { total: number; customer: number }

const RULE_COLUMNS =
  'id, code, kind, value, minimum_subtotal, valid_from, valid_until, usage_limit, per_customer_limit, active'

/**
 * The uses that count (`?1` the code, `?2` the customer, `?3` the cart asking): redemptions of orders not cancelled,
 * but for the unpaid orders of the asking cart, which its next placement sets aside (a customer placing again after
 * a failed payment is not using the code twice).
 */
export const COUNTED_USES = `FROM discount_redemptions r JOIN orders o ON o.checkout_key = r.checkout_key
  WHERE r.code_id = ?1 AND o.status <> 'cancelled'
    AND NOT (r.cart_id = ?3 AND o.status = 'pending_payment' AND o.payment_state <> 'paid')`

/** Now as the codes' dates are written (`2026-11-27T10:00:00Z`): compared as text, UTC. */
export const discountNow = () => new Date().toISOString().replace(/\.[0-9]+Z$/, 'Z')

/** Why a code does not apply to `subtotal` at `now`, or null when it does. `valid_from` counts, `valid_until` not. */
export function discountRefusalOf(
  rule: DiscountRule | null,
  subtotal: number,
  now: string,
  uses: DiscountUses,
): DiscountRefusal | null {
  if (!rule?.active) return 'discount_unknown'
  if (rule.valid_from !== null && now < rule.valid_from) return 'discount_not_yet'
  if (rule.valid_until !== null && now >= rule.valid_until) return 'discount_expired'
  if (rule.usage_limit !== null && uses.total >= rule.usage_limit) return 'discount_used_up'
  if (rule.per_customer_limit !== null && uses.customer >= rule.per_customer_limit) return 'discount_used_by_you'
  if (subtotal < rule.minimum_subtotal) return 'discount_minimum'
  return null
}

/**
 * What a code takes off a subtotal, in minor units: a percentage of it rounded once (half up), or the amount; never
 * more than the subtotal.
 *
 * @example
 * discountAmountOf({ kind: 'percentage', value: 1500 }, 2990) // 449 (15 % of 29,90 is 4,485)
 */
export function discountAmountOf(rule: Pick<DiscountRule, 'kind' | 'value'>, subtotal: number): number {
  const off = rule.kind === 'percentage' ? Math.round((subtotal * rule.value) / 10_000) : rule.value
  return Math.min(Math.max(off, 0), subtotal)
}

/** A market's code by its text (upper case), active or not, or null. */
export const discountRuleOf = (c: ApiContext, site: string, code: string) =>
  c.env.DB.prepare(`SELECT ${RULE_COLUMNS} FROM discount_codes WHERE site = ? AND code = ?`)
    .bind(site, code.toUpperCase())
    .first<DiscountRule>()

/** How often a code was used, by everyone and by `userId`, as the asking cart counts them. */
export async function discountUsesOf(
  c: ApiContext,
  codeId: number,
  userId: number | null,
  cartId: number,
): Promise<DiscountUses> {
  const row = await c.env.DB.prepare(
    `SELECT COUNT(*) AS total, COALESCE(SUM(r.user_id = ?2), 0) AS customer ${COUNTED_USES}`,
  )
    .bind(codeId, userId ?? 0, cartId)
    .first<DiscountUses>()
  return { total: row?.total ?? 0, customer: row?.customer ?? 0 }
}

/**
 * The code a cart carries as the cart answers it: what it takes off the subtotal now, or 0 with why not; null when
 * the cart carries none. `rule` is answered too, for placing.
 */
export async function cartDiscountOf(
  c: ApiContext,
  cart: { id: number; site: string; user_id: number | null; discount_code: string | null },
  subtotal: number,
): Promise<{ discount: CartDiscount; rule: DiscountRule | null } | null> {
  if (!cart.discount_code) return null
  const rule = await discountRuleOf(c, cart.site, cart.discount_code)
  const uses = rule ? await discountUsesOf(c, rule.id, cart.user_id, cart.id) : { total: 0, customer: 0 }
  const refusal = discountRefusalOf(rule, subtotal, discountNow(), uses)
  return {
    rule,
    discount: {
      code: cart.discount_code,
      kind: rule?.kind ?? 'amount',
      value: rule?.value ?? 1,
      amount: rule && refusal === null ? discountAmountOf(rule, subtotal) : 0,
      minimum_subtotal: rule?.minimum_subtotal ?? 0,
      refusal,
    },
  }
}
