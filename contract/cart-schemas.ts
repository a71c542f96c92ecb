import { z } from 'zod'
import { cartDiscountSchema } from './discount-schemas'
import { currencyCode, envelope, sitePath } from './schemas'

/**
 * The cart half of the upstream contract (docs/api.md "Cart"): an anonymous visitor's cart under a random code, a
 * customer's cart per market, its lines priced by the server. Shared by the embedded API and the upstream client.
 * Amounts are whole numbers of the market currency's minor unit; none ever comes from the browser.
 */

/** A cart's code: random, unguessable, 32 characters of base64url. */
export const cartCode = z.string().regex(/^[A-Za-z0-9_-]{32}$/)

/** An "add to cart" idempotency key: the add form's token (the same key adds once). */
export const idempotencyKey = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/)

/** The most of one variant a cart may hold. */
export const MAX_LINE_QUANTITY = 10

const sku = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/)
const quantity = z.number().int().min(1).max(MAX_LINE_QUANTITY)

/** `POST api/carts/items` (anonymous; `cart` null creates one) and `POST api/account/cart/items`. */
export const addToCartInput = z.object({ cart: cartCode.nullish(), sku, quantity, key: idempotencyKey })
/** `PUT …/items/{sku}`. */
export const changeQuantityInput = z.object({ quantity })
/** `POST api/account/cart/merge`: the anonymous cart to fold into the customer's. */
export const mergeCartInput = z.object({ cart: cartCode })

/** Why a variant cannot be added: not sold in the market, none left, or not that many left. */
export const CART_REFUSALS = ['variant_not_sold', 'out_of_stock', 'not_enough_stock'] as const
export type CartRefusal = (typeof CART_REFUSALS)[number]

export const cartLineSchema = z.object({
  sku,
  product: z.object({ name: z.string(), slug: z.string(), image: sitePath.nullish().transform((v) => v ?? null) }),
  /** The variant in the caller's language: its size, its colour key and the colour's name. */
  variant: z.object({ size: z.string(), colour: z.string(), colour_name: z.string() }),
  quantity: z.number().int().min(1),
  /** The variant's price in the market now (the server's); null when it is no longer sold there. */
  unit_price: z.number().int().min(0).nullable(),
  line_total: z.number().int().min(0),
  /** How many are left; `available` is false when the line cannot be bought as it stands (not sold, too few left). */
  stock: z.number().int().min(0),
  available: z.boolean(),
})

export const cartSchema = z.object({
  code: cartCode,
  currency: currencyCode,
  lines: z.array(cartLineSchema),
  /** The number of items (quantities added up): the header's count. */
  item_count: z.number().int().min(0),
  /** The available lines' totals, added up. */
  subtotal: z.number().int().min(0),
  /** Home delivery for this subtotal (0 when free or the cart is empty), its free-from threshold and days; null: none. */
  shipping: z
    .object({
      price: z.number().int().min(0),
      free_from: z.number().int().nullable(),
      days: z.tuple([z.number().int(), z.number().int()]),
    })
    .nullable(),
  /**
   * VAT at the market's `rate` (basis points; null: worked out at checkout from the address), `included` in the
   * prices or added on top; `amount` is the VAT in `total` (null when not known yet).
   */
  vat: z.object({
    rate: z.number().int().nullable(),
    included: z.boolean(),
    amount: z.number().int().min(0).nullable(),
  }),
  /** The discount code the cart carries and what it takes off the subtotal now, or null (docs/decisions/051). */
  discount: cartDiscountSchema.nullish().transform((v) => v ?? null),
  /** Subtotal less the discount, and delivery, plus VAT where it is added and known. */
  total: z.number().int().min(0),
})

export const cartAnswer = envelope(cartSchema)

export type Cart = z.infer<typeof cartSchema>
export type CartLine = z.infer<typeof cartLineSchema>
export type AddToCart = z.infer<typeof addToCartInput>
