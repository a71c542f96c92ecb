import { z } from 'zod'
import { envelope } from './schemas'

/**
 * Discount codes in the upstream contract (docs/api.md "Discount codes"; docs/decisions/051): a code a cart carries,
 * applied by the server at every step and checked again at placement, and the staff calls that create and disable
 * codes. Amounts are whole numbers of the market currency's minor unit; a percentage is in basis points (1000 is 10 %).
 */

/** A code as a customer types it: letters, digits, `-` and `_`, 3 to 32; compared in upper case. */
export const discountCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,32}$/)
  .transform((code) => code.toUpperCase())

export const DISCOUNT_KINDS = ['percentage', 'amount'] as const
export const discountKind = z.enum(DISCOUNT_KINDS)
export type DiscountKind = z.infer<typeof discountKind>

/**
 * Why a code does not apply (the API's `code`, 422 when applied, 409 `discount_unavailable` at placement): unknown
 * (or disabled, or another market's), not valid yet, expired, the subtotal below its minimum, used up, or used up
 * by this customer.
 */
export const DISCOUNT_REFUSALS = [
  'discount_unknown',
  'discount_not_yet',
  'discount_expired',
  'discount_minimum',
  'discount_used_up',
  'discount_used_by_you',
] as const
export const discountRefusal = z.enum(DISCOUNT_REFUSALS)
export type DiscountRefusal = z.infer<typeof discountRefusal>

/** `PUT api/carts/{code}/discount` and `PUT api/account/cart/discount`. */
export const applyDiscountInput = z.object({ code: discountCode })

/**
 * The code a cart carries: its `amount` off the items now (0 when it does not apply as the cart stands, `refusal`
 * saying why: the subtotal fell below the minimum, it expired…), and its `minimum_subtotal`.
 */
export const cartDiscountSchema = z.object({
  code: z.string(),
  kind: discountKind,
  value: z.number().int().positive(),
  amount: z.number().int().min(0),
  minimum_subtotal: z.number().int().min(0),
  refusal: discountRefusal.nullable(),
})
export type CartDiscount = z.infer<typeof cartDiscountSchema>

const isoMinute = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/)

/** A code as staff see it (`GET api/staff/discount-codes`): its rules, how often it was used, and whether it is on. */
export const staffDiscountCodeSchema = z.object({
  id: z.number().int().positive(),
  market: z.string(),
  code: z.string(),
  kind: discountKind,
  value: z.number().int().positive(),
  minimum_subtotal: z.number().int().min(0),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  usage_limit: z.number().int().positive().nullable(),
  per_customer_limit: z.number().int().positive().nullable(),
  active: z.boolean(),
  uses: z.number().int().min(0),
  created_at: z.string(),
})
export type StaffDiscountCode = z.infer<typeof staffDiscountCodeSchema>

/**
 * `POST api/staff/discount-codes`: a new code of a market. A percentage is 1 to 10000 basis points; an amount is in the
 * market currency's minor units; `valid_until` (exclusive) after `valid_from` (inclusive), both UTC.
 */
export const discountCodeInput = z
  .object({
    market: z.string().regex(/^[a-z]{2,3}$/),
    code: discountCode,
    kind: discountKind,
    value: z.number().int().positive(),
    minimum_subtotal: z.number().int().min(0).default(0),
    valid_from: isoMinute.nullish().transform((v) => v ?? null),
    valid_until: isoMinute.nullish().transform((v) => v ?? null),
    usage_limit: z
      .number()
      .int()
      .positive()
      .nullish()
      .transform((v) => v ?? null),
    per_customer_limit: z
      .number()
      .int()
      .positive()
      .nullish()
      .transform((v) => v ?? null),
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'percentage' && input.value > 10_000)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'percentage' })
    if (input.valid_from && input.valid_until && input.valid_until <= input.valid_from)
      ctx.addIssue({ code: 'custom', path: ['valid_until'], message: 'after_from' })
  })
export type DiscountCodeInput = z.infer<typeof discountCodeInput>

export const staffDiscountCodeAnswer = envelope(staffDiscountCodeSchema)
export const staffDiscountCodeListAnswer = envelope(z.array(staffDiscountCodeSchema))
