import { z } from 'zod'
import { orderStatusSchema, paymentStateSchema, postalAddressInput, postalAddressSchema } from './account-schemas'
import { cartCode, cartSchema } from './cart-schemas'
import { currencyCode, envelope } from './schemas'

/**
 * The checkout half of the upstream contract (docs/api.md "Checkout"): a customer's choices for their cart of a
 * market, the review's amounts, placing the order (once per placed checkout) and its payment attempts. Shared by the
 * embedded API and the upstream client. Amounts are whole numbers of the currency's minor unit, computed by the
 * server; none ever comes from the browser.
 */

export const DELIVERY_METHODS = ['home', 'pickup'] as const
export const deliveryMethod = z.enum(DELIVERY_METHODS)
export type DeliveryMethod = z.infer<typeof deliveryMethod>

/**
 * The ways to pay: the provider's page takes `card` and `paypal` (Stripe Checkout: `payment_method_types`); a
 * `bank_transfer` order goes to no provider: it waits, pending, for the transfer to the market's account.
 */
export const PAYMENT_METHODS = ['card', 'paypal', 'bank_transfer'] as const
export const paymentMethod = z.enum(PAYMENT_METHODS)
export type PaymentMethod = z.infer<typeof paymentMethod>

/** An order's code (`AUR-7K3QX9`). */
export const orderCode = z.string().regex(/^[A-Za-z0-9-]{3,40}$/)

const dealerSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/)

/** An address chosen at checkout: one of the customer's saved addresses, or a new one (saved too when `save`). */
export const addressChoice = z.union([
  z.object({ saved: z.number().int().positive() }),
  z.object({ address: postalAddressInput, save: z.boolean().default(false) }),
])
export type AddressChoice = z.infer<typeof addressChoice>

/**
 * `PUT api/account/checkout/{code}`: the checkout's choices, all at once. Home delivery needs `shipping_address`
 * with a phone number (`phone_delivery`);
 * pick-up needs a dealer of the market that sells and a `billing_address`. A null `billing_address` with home
 * delivery is "the same as the delivery address".
 */
export const checkoutChoicesInput = z
  .object({
    delivery: z.discriminatedUnion('method', [
      z.object({ method: z.literal('home') }),
      z.object({ method: z.literal('pickup'), dealer: dealerSlug }),
    ]),
    shipping_address: addressChoice.nullish().transform((v) => v ?? null),
    billing_address: addressChoice.nullish().transform((v) => v ?? null),
    payment_method: paymentMethod,
  })
  .superRefine((choices, ctx) => {
    if (choices.delivery.method === 'home' && !choices.shipping_address)
      ctx.addIssue({ code: 'custom', path: ['shipping_address'], message: 'required' })
    // A bike delivered home is handed over in person: the courier calls first (a saved address is checked by the API).
    const shipping = choices.shipping_address
    if (choices.delivery.method === 'home' && shipping && 'address' in shipping && !shipping.address.phone)
      ctx.addIssue({ code: 'custom', path: ['shipping_address', 'address', 'phone'], message: 'phone_delivery' })
    if (choices.delivery.method === 'pickup' && !choices.billing_address)
      ctx.addIssue({ code: 'custom', path: ['billing_address'], message: 'required' })
  })
export type CheckoutChoices = z.infer<typeof checkoutChoicesInput>

/** A dealer an order can be picked up at, as the checkout names it. */
export const pickupDealerSchema = z.object({
  slug: z.string(),
  name: z.string(),
  address: z.string(),
  city: z.string(),
})

/** An order as placing and paying it answer: enough for the Worker to create the payment and for the result page. */
export const placedOrderSchema = z.object({
  code: orderCode,
  status: orderStatusSchema,
  payment_state: paymentStateSchema,
  /** The payment attempt the order is on (1 from placement; raised by a retry after a failure). */
  payment_attempt: z.number().int().min(1),
  /** The provider's payment of the current attempt, once the Worker has recorded it. */
  payment_id: z.string().nullable(),
  payment_method: paymentMethod,
  currency: currencyCode,
  total: z.number().int().positive(),
  market: z.string(),
  placed_at: z.string().min(10),
})
export type PlacedOrder = z.infer<typeof placedOrderSchema>

/** The amounts the review shows for the chosen delivery (pick-up costs nothing). */
export const checkoutAmountsSchema = z.object({
  items: z.number().int().min(0),
  /** What the cart's discount code takes off the items (0: none); VAT and sales tax are on what is left. */
  discount: z.number().int().min(0).default(0),
  delivery: z.number().int().min(0),
  /** As the cart's: `rate` in basis points, `included` in the prices or added, `amount` in `total`. */
  vat: z.object({
    rate: z.number().int().nullable(),
    included: z.boolean(),
    amount: z.number().int().min(0).nullable(),
  }),
  total: z.number().int().min(0),
})

/** `GET api/account/checkout/{code}` (and `PUT`'s answer): the cart, the choices made, the amounts, the last order. */
export const checkoutSchema = z.object({
  code: cartCode,
  /** The cart as the cart calls answer it (its `shipping` is home delivery's). */
  cart: cartSchema,
  choices: z.object({
    delivery: z.object({ method: deliveryMethod, dealer: pickupDealerSchema.nullable() }).nullable(),
    shipping_address: postalAddressSchema.nullable(),
    /** The billing address itself (the delivery address's copy when `billing_same`). */
    billing_address: postalAddressSchema.nullable(),
    billing_same: z.boolean(),
    payment_method: paymentMethod.nullable(),
  }),
  payment_methods: z.array(paymentMethod).min(1),
  amounts: checkoutAmountsSchema,
  /** Every choice made and every line can be bought as it stands: the review may place it. */
  ready: z.boolean(),
  /**
   * A digest of what the review shows (lines, quantities, unit prices, delivery, amounts). Placing sends it back;
   * anything changed since (a price, a line) refuses the placement, so the customer reviews again.
   */
  review_key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  /** The newest order placed from this cart (pending, failed, paid…), or null. */
  order: placedOrderSchema.nullable(),
})
export type Checkout = z.infer<typeof checkoutSchema>

/** `POST api/account/checkout/{code}/orders`: place the reviewed checkout. */
export const placeOrderInput = z.object({ review_key: checkoutSchema.shape.review_key })

/** `PUT api/account/orders/{code}/payment`: the provider's payment of an attempt, recorded once created. */
export const recordPaymentInput = z.object({
  attempt: z.number().int().min(1),
  payment_id: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/),
})

/**
 * Why placing or paying is refused (the API's `code`): 409 `prices_changed` (a unit price or an amount differs from
 * the review's), `checkout_changed` (the lines or choices changed, in another tab say), `unavailable` (a line cannot
 * be bought as it stands), `dealer_unavailable` (the pick-up dealer no longer sells), `already_paid`, `order_closed`
 * (cancelled), `stale_attempt`, `discount_unavailable` (the cart's code expired, was disabled or used up since the
 * review: the order is not placed at a stale price; `errors.discount` names the discount refusal); 422 `incomplete` (a choice
 * missing); 403 `email_unconfirmed`.
 */
export const CHECKOUT_REFUSALS = [
  'prices_changed',
  'checkout_changed',
  'unavailable',
  'dealer_unavailable',
  'already_paid',
  'order_closed',
  'stale_attempt',
  'incomplete',
  'email_unconfirmed',
  'payment_in_progress',
  'discount_unavailable',
] as const
export type CheckoutRefusal = (typeof CHECKOUT_REFUSALS)[number]

export const checkoutAnswer = envelope(checkoutSchema)
export const placedOrderAnswer = envelope(placedOrderSchema)
