import type { SiteSettings } from '../contract/schemas'

/**
 * The reference API's money arithmetic, apart from its SQL: home delivery's price, VAT included or added (by region
 * where the market is taxed so) and the totals a cart and a checkout answer. Amounts are in the currency's minor unit;
 * rates in hundredths of a percent (2200 is 22 %).
 */

/** A market's VAT as its site record states it (`vatSchema`). */
export type VatSettings = SiteSettings['vat']

/** The VAT that applies to an amount: a rate (null when unknown) and whether prices include it. */
export type VatRule = { rate: number | null; included: boolean }

/** Items, their discount and delivery with their VAT, as the contract's cart and checkout amounts state them. */
export type Amounts = {
  items: number
  discount: number
  delivery: number
  vat: VatRule & { amount: number | null }
  total: number
}

/**
 * The VAT of `taxed` (items and delivery) at a market's rate: included, the part inside the prices; added, the amount
 * on top (rounded to the minor unit); null when the rate is not known (US sales tax).
 */
export function vatAmountOf(taxed: number, vat: VatRule): number | null {
  if (vat.rate === null) return null
  return vat.included ? Math.round((taxed * vat.rate) / (10_000 + vat.rate)) : Math.round((taxed * vat.rate) / 10_000)
}

/** The VAT rate of a market whose rate depends on the region (`vat.by_region`): the region's, or null when unknown. */
export const regionRate = (vat: VatSettings, region: string | null | undefined): number | null =>
  vat.rate === null && vat.by_region && region ? (vat.by_region[region.trim().toUpperCase()] ?? null) : null

/** The VAT of a delivery to (or a pick-up in) `region`: the market's rate, else the region's (US sales tax). */
export const vatRuleIn = (vat: VatSettings, region: string | null | undefined): VatRule => ({
  rate: vat.rate ?? regionRate(vat, region),
  included: vat.included,
})

/** Home delivery's price for a subtotal: none for an empty cart, a market without delivery, or from `free_from` on. */
export function homeDeliveryPrice(subtotal: number, delivery: SiteSettings['shipping']): number {
  return !delivery || subtotal === 0 || (delivery.free_from !== null && subtotal >= delivery.free_from)
    ? 0
    : delivery.price
}

/**
 * The amounts of items, a discount off them and a delivery: the VAT of what is paid (items less the discount, plus
 * delivery), and the total with VAT added where prices exclude it. Where prices include VAT the discount takes its
 * VAT off in proportion; where tax is added (US sales tax) it is worked out after the discount (docs/decisions/051).
 */
export function amountsOf(items: number, delivery: number, vat: VatRule, discount = 0): Amounts {
  const taxed = items - discount + delivery
  const amount = vatAmountOf(taxed, vat)
  return {
    items,
    discount,
    delivery,
    vat: { rate: vat.rate, included: vat.included, amount },
    total: taxed + (!vat.included && amount !== null ? amount : 0),
  }
}
