import { dealerWords } from './dealers'
import { Hono } from 'hono'
import type { z } from 'zod'
import { toBase64Url } from '../bytes'
import { POSTAL_ADDRESS_FIELDS, type PostalAddress } from '../../contract/account-schemas'
import { type Cart, cartCode } from '../../contract/cart-schemas'
import {
  type AddressChoice,
  type Checkout,
  checkoutAnswer,
  checkoutChoicesInput,
  type DeliveryMethod,
  type PlacedOrder,
  placedOrderAnswer,
  placeOrderInput,
  recordPaymentInput,
} from '../../contract/checkout-schemas'
import { type ApiContext, type ApiEnv, jsonBody, notFound, parseJson, refuse, respond } from '../context'
import { MAX_ADDRESSES } from './addresses'
import { requireBearer } from './auth'
import { CART_COLUMNS, type CartRow, marketOf, pricedCart } from './cart'
import { amountsOf, regionRate, vatRuleIn } from '../pricing'
import type { DiscountRefusal } from '../../contract/discount-schemas'
import { COUNTED_USES, type DiscountRule, discountRuleOf } from '../discounts'
import { paymentMethodsOf } from '../../contract/schemas'

const ADDRESS_FIELDS = POSTAL_ADDRESS_FIELDS
type AddressField = (typeof ADDRESS_FIELDS)[number]

type CheckoutRow = {
  shipping_address: string | null
  billing_address: string | null
  delivery_method: DeliveryMethod | null
  delivery_dealer: string | null
  payment_method: string | null
  generation: number
}

type DealerRow = {
  slug: string
  name: string
  address: string
  city: string
  region: string | null
  translations: string | null
}

/** The columns of an order as placing and paying answer it (`placedOrderSchema`). */
const PLACED_COLUMNS =
  'id, code, status, payment_state, payment_attempt, payment_id, payment_method, currency, total, market, placed_at'
type PlacedRow = PlacedOrder & { id: number }

/** Crockford's base 32 (no I, L, O, U): order codes read out on the phone are never ambiguous. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A new order code: `AUR-` and 6 random Crockford characters (30 bits). */
const newOrderCode = () =>
  `AUR-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => CROCKFORD[byte & 31]).join('')}`

const nowIso = () => new Date().toISOString().replace(/\.[0-9]+Z$/, 'Z')

/** The SHA-256 of a text as base64url (43 characters). */
async function digest(text: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))))
}

/** An address reduced to its fields in their order, blanks as null: how checkout stores, compares and digests it. */
function canonicalAddress(address: Partial<Record<AddressField, string | null | undefined>>): PostalAddress {
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, address[field] ?? null])) as PostalAddress
}

/**
 * The contract's answer to a body that fails its schema: 422 with the message keys per field PATH
 * (`shipping_address.address.postal_code`), so a form puts each message beside its own field.
 */
function invalidAt(c: ApiContext, error: z.ZodError) {
  const errors: Record<string, string[]> = {}
  for (const { path, message } of issuesOf(error.issues, [])) {
    const field = path.length > 0 ? path.join('.') : 'form'
    const key = /^[a-z_]+$/.test(message) ? message : 'invalid'
    const keys = errors[field] ?? []
    errors[field] = keys
    if (!keys.includes(key)) keys.push(key)
  }
  return c.json({ message: 'The given data was invalid.', errors }, 422)
}

/**
 * The issues with their whole paths. A choice between a saved and a new address that fits neither reports the
 * issues of the branch the body meant: the one with the fewest missing keys of its own (`address` given: the new one).
 */
function issuesOf(
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[],
): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path]
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }]
    const missing = (branch: z.core.$ZodIssue[]) =>
      branch.filter((inner) => inner.code === 'invalid_type' && inner.path.length === 1).length
    const meant = issue.errors.reduce((best, branch) => (missing(branch) < missing(best) ? branch : best))
    return issuesOf(meant, path)
  })
}

/** The caller's own cart of the caller's market whose code is in the path, in a market that sells online; else null. */
async function ownCart(c: ApiContext): Promise<CartRow | null> {
  const code = cartCode.safeParse(c.req.param('code'))
  const site = c.var.tenant
  if (!code.success || !site) return null
  const cart = await c.env.DB.prepare(`SELECT ${CART_COLUMNS} FROM carts WHERE code = ? AND site = ? AND user_id = ?`)
    .bind(code.data, site, c.var.user.id)
    .first<CartRow>()
  if (!cart) return null
  return (await marketOf(c, site))?.settings.sells_online ? cart : null
}

/** A dealer of the market that sells, by its slug, or null (unknown, another market's, or no longer selling). */
const sellingDealer = (c: ApiContext, site: string, slug: string) =>
  c.env.DB.prepare(
    'SELECT slug, name, address, city, region, translations FROM dealers WHERE slug = ? AND site = ? AND sales = 1',
  )
    .bind(slug, site)
    .first<DealerRow>()

/** The newest order placed from a cart, or null. */
const newestOrder = (c: ApiContext, cartId: number) =>
  c.env.DB.prepare(`SELECT ${PLACED_COLUMNS} FROM orders WHERE cart_id = ? AND user_id = ? ORDER BY id DESC LIMIT 1`)
    .bind(cartId, c.var.user.id)
    .first<PlacedRow>()

const placedOf = ({ id: _, ...order }: PlacedRow): PlacedOrder => order

/** Everything the review shows and placing checks, worked out now from the cart, the choices and the prices. */
type Review = {
  answer: Checkout
  cart: Cart
  /** Every choice made (a dealer chosen for pick-up, even one that no longer sells). */
  complete: boolean
  /** At least one line, and every line can be bought as it stands. */
  buyable: boolean
  /** The chosen pick-up dealer no longer sells (or is gone). */
  dealerGone: boolean
  shipping: PostalAddress | null
  billing: PostalAddress | null
  dealer: DealerRow | null
  previousKey: string | null
  /** The cart's discount code as the rules read it (null: none, or unknown). */
  discountRule: DiscountRule | null
}

/**
 * The checkout of a cart as it stands: the cart priced now, the stored choices, the amounts for the chosen delivery
 * (pick-up: no delivery price, VAT on the items alone), and the review key. The key is two digests of 22 characters:
 * of what was chosen (the generation, the lines' skus and quantities, the delivery, the addresses, the payment
 * method) and of all that with the prices and amounts. Placing compares the first halves to tell a changed price
 * (`prices_changed`) from a changed checkout (`checkout_changed`).
 */
async function reviewOf(c: ApiContext, cart: CartRow): Promise<Review | null> {
  const [priced, market, row, discounted] = await Promise.all([
    pricedCart(c, cart),
    marketOf(c, cart.site),
    c.env.DB.prepare(
      'SELECT shipping_address, billing_address, delivery_method, delivery_dealer, payment_method, generation FROM checkouts WHERE cart_id = ?',
    )
      .bind(cart.id)
      .first<CheckoutRow>(),
    cart.discount_code ? discountRuleOf(c, cart.site, cart.discount_code) : null,
  ])
  if (!priced || !market) return null
  const method = row?.delivery_method ?? null
  const dealerSlug = method === 'pickup' ? (row?.delivery_dealer ?? null) : null
  const [dealer, order] = await Promise.all([
    dealerSlug ? sellingDealer(c, cart.site, dealerSlug) : null,
    newestOrder(c, cart.id),
  ])
  const shipping = method === 'home' ? parseJson<PostalAddress | null>(row?.shipping_address, null) : null
  const storedBilling = parseJson<PostalAddress | null>(row?.billing_address, null)
  const billingSame = method !== 'pickup' && storedBilling === null
  const billing = billingSame ? shipping : storedBilling
  const methods = paymentMethodsOf(market.settings)
  const payment = methods.find((allowed) => allowed === row?.payment_method) ?? null

  const delivery = method === 'pickup' ? 0 : (priced.shipping?.price ?? 0)
  // A market taxed by region (US sales tax): the delivery address's region, or the pick-up dealer's.
  const amounts = amountsOf(
    priced.subtotal,
    delivery,
    vatRuleIn(market.settings.vat, method === 'pickup' ? dealer?.region : shipping?.region),
    priced.discount?.amount ?? 0,
  )

  const complete =
    method !== null &&
    (method === 'home' ? shipping !== null : dealerSlug !== null) &&
    billing !== null &&
    payment !== null
  const buyable = priced.lines.length > 0 && priced.lines.every((line) => line.available) && amounts.total > 0
  const dealerGone = dealerSlug !== null && dealer === null
  const generation = row?.generation ?? 0
  const keyAt = async (at: number) => {
    const chosen = JSON.stringify([
      at,
      priced.currency,
      priced.lines.map((line) => [line.sku, line.quantity]),
      method,
      dealerSlug,
      shipping,
      billing,
      billingSame,
      payment,
      priced.discount?.code ?? null,
    ])
    const priceList = JSON.stringify([chosen, priced.lines.map((line) => line.unit_price), amounts])
    return (await digest(chosen)).slice(0, 22) + (await digest(priceList)).slice(0, 22)
  }
  const reviewKey = await keyAt(generation)
  // The same review one generation earlier: the key of an order whose placement set another aside (and so raised it).
  const previousKey = generation > 0 ? await keyAt(generation - 1) : null

  const answer: Checkout = {
    code: cart.code,
    cart: priced,
    choices: {
      delivery: method
        ? {
            method,
            dealer: dealer
              ? // The pick-up dealer's address in the caller's language, as the locator writes it (its region stays the
                // row's: US sales tax reads it).
                {
                  slug: dealer.slug,
                  name: dealer.name,
                  address: dealerWords(dealer.translations, c.var.locale).address || dealer.address,
                  city: dealerWords(dealer.translations, c.var.locale).city || dealer.city,
                }
              : null,
          }
        : null,
      shipping_address: shipping,
      billing_address: billing,
      billing_same: billingSame,
      payment_method: payment,
    },
    payment_methods: methods,
    amounts,
    ready: complete && buyable && !dealerGone,
    review_key: reviewKey,
    order: order ? placedOf(order) : null,
  }
  return {
    answer,
    cart: priced,
    complete,
    buyable,
    dealerGone,
    shipping,
    billing,
    dealer,
    previousKey,
    discountRule: discounted,
  }
}

async function answerCheckout(c: ApiContext, cart: CartRow) {
  const review = await reviewOf(c, cart)
  return review ? respond(c, checkoutAnswer, { data: review.answer }) : notFound(c)
}

/** An address chosen at checkout as stored: a saved one of the caller's copied, or the new one; null when not theirs. */
async function addressOf(c: ApiContext, choice: AddressChoice): Promise<PostalAddress | null> {
  if ('address' in choice) return canonicalAddress(choice.address)
  const row = await c.env.DB.prepare(`SELECT ${ADDRESS_FIELDS.join(', ')} FROM addresses WHERE id = ? AND user_id = ?`)
    .bind(choice.saved, c.var.user.id)
    .first<Record<AddressField, string | null>>()
  return row ? canonicalAddress(row) : null
}

/**
 * Saves a new address into the caller's address book, unless the same address is already there (so choosing it
 * again, or resending the form, saves it once); the first address becomes the default. False when the book is full.
 */
async function saveAddress(c: ApiContext, address: PostalAddress): Promise<boolean> {
  const userId = c.var.user.id
  const same = ADDRESS_FIELDS.map((field, i) => `${field} IS ?${i + 2}`).join(' AND ')
  const values = ADDRESS_FIELDS.map((field) => address[field] ?? null)
  const inserted = await c.env.DB.prepare(
    `INSERT INTO addresses (user_id, ${ADDRESS_FIELDS.join(', ')}, is_default)
     SELECT ?1, ${ADDRESS_FIELDS.map((_, i) => `?${i + 2}`).join(', ')}, NOT EXISTS (SELECT 1 FROM addresses WHERE user_id = ?1 AND is_default = 1)
      WHERE NOT EXISTS (SELECT 1 FROM addresses WHERE user_id = ?1 AND ${same})
        AND (SELECT COUNT(*) FROM addresses WHERE user_id = ?1) < ${MAX_ADDRESSES}`,
  )
    .bind(userId, ...values)
    .run()
  if (inserted.meta.changes === 1) return true
  return (
    (await c.env.DB.prepare(`SELECT 1 AS found FROM addresses WHERE user_id = ?1 AND ${same}`)
      .bind(userId, ...values)
      .first('found')) !== null
  )
}

/** `PUT api/account/checkout/{code}`: every choice at once, checked, new addresses saved when asked, then stored. */
async function choose(c: ApiContext, cart: CartRow) {
  const input = checkoutChoicesInput.safeParse(await jsonBody(c))
  if (!input.success) return invalidAt(c, input.error)
  const choices = input.data
  const market = await marketOf(c, cart.site)
  if (!market) return notFound(c)
  const errors: Record<string, string[]> = {}
  if (!paymentMethodsOf(market.settings).includes(choices.payment_method)) errors.payment_method = ['invalid']
  const pickup = choices.delivery.method === 'pickup'
  if (choices.delivery.method === 'pickup' && !(await sellingDealer(c, cart.site, choices.delivery.dealer)))
    errors['delivery.dealer'] = ['dealer']
  // Pick-up needs no delivery address: one sent along is not kept.
  const picked = [
    ['shipping_address', pickup ? null : choices.shipping_address],
    ['billing_address', choices.billing_address],
  ] as const
  const resolved: Partial<Record<(typeof picked)[number][0], PostalAddress>> = {}
  for (const [field, choice] of picked) {
    if (!choice) continue
    const address = await addressOf(c, choice)
    if (address) resolved[field] = address
    else errors[`${field}.saved`] = ['invalid']
  }
  // Home delivery goes only to the market's country (its price, days and VAT are that country's); billing may be any.
  const shippingChoice = pickup ? null : choices.shipping_address
  const delivery = resolved.shipping_address
  if (shippingChoice && delivery && delivery.country_code?.toUpperCase() !== market.country) {
    errors['address' in shippingChoice ? 'shipping_address.address.country_code' : 'shipping_address.saved'] = [
      'country',
    ]
  } else if (shippingChoice && delivery && !delivery.phone) {
    // A saved address without a phone number: the courier of a bike calls first.
    errors['address' in shippingChoice ? 'shipping_address.address.phone' : 'shipping_address.saved'] = [
      'phone_delivery',
    ]
  } else if (
    shippingChoice &&
    delivery &&
    market.settings.vat.rate === null &&
    market.settings.vat.by_region &&
    regionRate(market.settings.vat, delivery.region) === null
  ) {
    // Taxed by region: the delivery address names its region by its code (US: the state's two letters).
    errors['address' in shippingChoice ? 'shipping_address.address.region' : 'shipping_address.saved'] = ['region']
  }
  if (Object.keys(errors).length > 0) return c.json({ message: 'The given data was invalid.', errors }, 422)
  // Room for every address to save is checked before any is saved: a full book never keeps half a form.
  const toSave = picked.flatMap(([field, choice]) => {
    const address = resolved[field]
    return choice && 'address' in choice && choice.save && address ? [{ field, address }] : []
  })
  if (toSave.length > 0) {
    const same = ADDRESS_FIELDS.map((field, i) => `${field} IS ?${i + 2}`).join(' AND ')
    const known = await Promise.all(
      toSave.map(({ address }) =>
        c.env.DB.prepare(`SELECT 1 AS found FROM addresses WHERE user_id = ?1 AND ${same}`)
          .bind(c.var.user.id, ...ADDRESS_FIELDS.map((field) => address[field] ?? null))
          .first('found'),
      ),
    )
    const count =
      (await c.env.DB.prepare('SELECT COUNT(*) AS n FROM addresses WHERE user_id = ?')
        .bind(c.var.user.id)
        .first<number>('n')) ?? 0
    const fresh = toSave.filter((_, i) => known[i] === null)
    const distinct = fresh.filter(
      ({ address }, i) => fresh.findIndex((other) => JSON.stringify(other.address) === JSON.stringify(address)) === i,
    )
    const full = distinct.filter((_, i) => count + i + 1 > MAX_ADDRESSES)
    if (full.length > 0) {
      return c.json(
        {
          message: 'The given data was invalid.',
          errors: Object.fromEntries(full.map(({ field }) => [`${field}.save`, ['too_many_addresses']])),
        },
        422,
      )
    }
  }
  for (const { field, address } of toSave) {
    if (!(await saveAddress(c, address))) {
      return c.json(
        { message: 'The given data was invalid.', errors: { [`${field}.save`]: ['too_many_addresses'] } },
        422,
      )
    }
  }
  await c.env.DB.prepare(
    `INSERT INTO checkouts (cart_id, shipping_address, billing_address, delivery_method, delivery_dealer, payment_method, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (cart_id) DO UPDATE SET shipping_address = excluded.shipping_address, billing_address = excluded.billing_address,
       delivery_method = excluded.delivery_method, delivery_dealer = excluded.delivery_dealer,
       payment_method = excluded.payment_method, updated_at = excluded.updated_at`,
  )
    .bind(
      cart.id,
      resolved.shipping_address ? JSON.stringify(resolved.shipping_address) : null,
      resolved.billing_address ? JSON.stringify(resolved.billing_address) : null,
      choices.delivery.method,
      choices.delivery.method === 'pickup' ? choices.delivery.dealer : null,
      choices.payment_method,
      nowIso(),
    )
    .run()
  return answerCheckout(c, cart)
}

/**
 * A placement's use of a discount code, taken only while the code is on, valid at `at` and not used up (in all, and
 * by this customer): the check and the use in one statement of the placement's batch.
 */
const redeem = (c: ApiContext, codeId: number, cart: CartRow, checkoutKey: string, at: string) =>
  c.env.DB.prepare(
    `INSERT INTO discount_redemptions (checkout_key, code_id, user_id, cart_id)
     SELECT ?4, d.id, ?2, ?3 FROM discount_codes d
      WHERE d.id = ?1 AND d.active = 1 AND (d.valid_from IS NULL OR d.valid_from <= ?5)
        AND (d.valid_until IS NULL OR ?5 < d.valid_until)
        AND (d.usage_limit IS NULL OR (SELECT COUNT(*) ${COUNTED_USES}) < d.usage_limit)
        AND (d.per_customer_limit IS NULL OR (SELECT COUNT(*) ${COUNTED_USES} AND r.user_id = ?2) < d.per_customer_limit)
     ON CONFLICT DO NOTHING`,
  ).bind(codeId, c.var.user.id, cart.id, checkoutKey, at)

/** 409 `discount_unavailable`, its reason (the discount refusal) under `errors.discount`. */
const discountUnavailable = (c: ApiContext, reason: DiscountRefusal) =>
  c.json({ message: 'discount unavailable', code: 'discount_unavailable', errors: { discount: [reason] } }, 409)

/** Whether a placement took its discount code's use. */
const redeemed = async (c: ApiContext, checkoutKey: string) =>
  (await c.env.DB.prepare('SELECT 1 AS found FROM discount_redemptions WHERE checkout_key = ?')
    .bind(checkoutKey)
    .first('found')) !== null

const orderByKey = (c: ApiContext, checkoutKey: string) =>
  c.env.DB.prepare(`SELECT ${PLACED_COLUMNS} FROM orders WHERE checkout_key = ?`).bind(checkoutKey).first<PlacedRow>()

/**
 * `POST api/account/checkout/{code}/orders`: places the reviewed checkout, once. The placement key is the digest of
 * the cart (its id and code) and the review key (which holds the cart's generation): the same review placed again answers its order
 * (200), whatever the requests and however concurrent (the key is unique; the order, its lines and its timeline go
 * in one batch that does nothing when another request took the key). A review whose order was set aside by a later
 * placement cannot be placed again: that placement raised the generation (in its batch), so it is `checkout_changed`.
 */
async function place(c: ApiContext, cart: CartRow) {
  // An unconfirmed address buys too: the confirmation follows the order, which asks for it (docs/decisions/057).
  const input = placeOrderInput.safeParse(await jsonBody(c))
  if (!input.success) return invalidAt(c, input.error)
  const reviewKey = input.data.review_key
  // The cart's code as well as its id: an id may be used again after a cart is deleted, a random code is not.
  const checkoutKey = await digest(`checkout|${cart.id}|${cart.code}|${reviewKey}`)
  const placed = await orderByKey(c, checkoutKey)
  if (placed && placed.status !== 'cancelled') return respond(c, placedOrderAnswer, { data: placedOf(placed) })

  const review = await reviewOf(c, cart)
  if (!review) return notFound(c)
  if (!review.complete || review.cart.lines.length === 0) return refuse(c, 422, 'incomplete')
  if (!review.buyable) return refuse(c, 409, 'unavailable')
  if (review.dealerGone) return refuse(c, 409, 'dealer_unavailable')
  // The cart's code expired, was disabled or ran out since the review: never placed at the review's stale price.
  const discountRefusal = review.cart.discount?.refusal
  if (discountRefusal) return discountUnavailable(c, discountRefusal)
  const current = review.answer.review_key
  if (current !== reviewKey)
    return refuse(c, 409, current.slice(0, 22) === reviewKey.slice(0, 22) ? 'prices_changed' : 'checkout_changed')
  // The review of an order whose placement set an older one aside, read again after it (the generation it raised is
  // in the key now): the same checkout, the same order, while it waits for its payment.
  if (review.previousKey) {
    const same = await orderByKey(c, await digest(`checkout|${cart.id}|${cart.code}|${review.previousKey}`))
    const setAside = same
      ? await c.env.DB.prepare('SELECT 1 AS found FROM orders WHERE set_aside_by = ?').bind(same.code).first('found')
      : null
    if (same && same.status === 'pending_payment' && setAside !== null)
      return respond(c, placedOrderAnswer, { data: placedOf(same) })
  }

  // An older order of the cart whose payment is under way (recorded, not failed) is not set aside: its late payment
  // would pay a closed order. The buyer pays or abandons it first (the provider then reports it failed).
  const paying = await c.env.DB.prepare(
    `SELECT 1 AS found FROM orders WHERE cart_id = ? AND user_id = ? AND checkout_key <> ? AND status = 'pending_payment'
        AND payment_state = 'pending' AND payment_id IS NOT NULL`,
  )
    .bind(cart.id, c.var.user.id, checkoutKey)
    .first('found')
  if (paying !== null) return refuse(c, 409, 'payment_in_progress')

  const { answer, shipping, billing, dealer } = review
  const lines = review.cart.lines
  const skus = lines.map((line) => line.sku)
  const { results: products } = await c.env.DB.prepare(
    `SELECT sku, product_id FROM product_variants WHERE sku IN (${skus.map(() => '?').join(', ')})`,
  )
    .bind(...skus)
    .all<{ sku: string; product_id: number }>()
  const productOf = new Map(products.map((row) => [row.sku, row.product_id]))
  const method = answer.choices.delivery?.method as DeliveryMethod
  // The order's language is one of the market's (its mail, its link), never an unchecked header's.
  const markets = await marketOf(c, cart.site)
  const locale = markets?.locales.includes(c.var.locale) ? c.var.locale : (markets?.locales[0] ?? c.var.locale)
  const market = `${cart.site}-${locale}`
  const at = nowIso()
  const discountCodeId = review.discountRule && (answer.amounts.discount ?? 0) > 0 ? review.discountRule.id : null
  // A new code on the rare collision with another order's: the insert then does nothing, and every statement after it
  // is guarded by the code AND the key, so none touches the other order; no order has the key, so it tries again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const code = newOrderCode()
    const older = `cart_id = ?1 AND user_id = ?2 AND code <> ?3 AND status = 'pending_payment'
                   AND (payment_state = 'failed' OR (payment_state = 'pending' AND payment_id IS NULL))
                   AND EXISTS (SELECT 1 FROM orders WHERE code = ?3 AND checkout_key = ?5)`
    await c.env.DB.batch([
      // The code's use first, only while it is still there to take: of two placements for its last use, the second
      // batch finds it taken and places nothing (the order below needs this placement's use).
      ...(discountCodeId === null ? [] : [redeem(c, discountCodeId, cart, checkoutKey, at)]),
      c.env.DB.prepare(
        `INSERT INTO orders (code, user_id, market, status, currency, subtotal, shipping, tax, total, billing_address, shipping_address,
                             delivery_method, delivery_dealer, delivery_dealer_slug, payment_method, payment_state, placed_at, cart_id,
                             checkout_key, payment_attempt, locale, discount_code, discount)
         SELECT ?, ?, ?, 'pending_payment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, 1, ?, ?, ?
          WHERE ? = 0 OR EXISTS (SELECT 1 FROM discount_redemptions WHERE checkout_key = ?)
         ON CONFLICT DO NOTHING`,
      ).bind(
        code,
        c.var.user.id,
        market,
        answer.cart.currency,
        answer.amounts.items,
        answer.amounts.delivery,
        answer.amounts.vat.amount ?? 0,
        answer.amounts.total,
        JSON.stringify(billing),
        method === 'home' ? JSON.stringify(shipping) : null,
        method,
        dealer?.name ?? null,
        dealer?.slug ?? null,
        answer.choices.payment_method,
        at,
        cart.id,
        checkoutKey,
        locale,
        discountCodeId === null ? null : (answer.cart.discount?.code ?? null),
        answer.amounts.discount,
        discountCodeId === null ? 0 : 1,
        checkoutKey,
      ),
      ...lines.map((line, position) =>
        c.env.DB.prepare(
          `INSERT INTO order_items (order_id, position, product_id, name, variant, quantity, unit_price, sku)
           SELECT id, ?, ?, ?, ?, ?, ?, ? FROM orders WHERE code = ? AND checkout_key = ?`,
        ).bind(
          position,
          productOf.get(line.sku) ?? null,
          line.product.name,
          `${line.variant.size} · ${line.variant.colour_name}`,
          line.quantity,
          line.unit_price,
          line.sku,
          code,
          checkoutKey,
        ),
      ),
      c.env.DB.prepare(
        `INSERT INTO order_events (order_id, status, at) SELECT id, 'pending_payment', ? FROM orders WHERE code = ? AND checkout_key = ?`,
      ).bind(at, code, checkoutKey),
      // An older unpaid order of the cart (another review) is set aside: one order waits for payment per cart.
      c.env.DB.prepare(
        `INSERT OR IGNORE INTO order_events (order_id, status, at) SELECT id, 'cancelled', ?4 FROM orders WHERE ${older}`,
      ).bind(cart.id, c.var.user.id, code, at, checkoutKey),
      c.env.DB.prepare(`UPDATE orders SET status = 'cancelled', set_aside_by = ?3 WHERE ${older}`).bind(
        cart.id,
        c.var.user.id,
        code,
        null,
        checkoutKey,
      ),
      // Setting an order aside raises the generation, in this batch: its review placed again is a changed checkout.
      c.env.DB.prepare(
        `UPDATE checkouts SET generation = generation + 1
          WHERE cart_id = ? AND EXISTS (SELECT 1 FROM orders o JOIN orders n ON n.code = o.set_aside_by WHERE o.set_aside_by = ? AND n.checkout_key = ?)`,
      ).bind(cart.id, code, checkoutKey),
    ])
    const order = await orderByKey(c, checkoutKey)
    if (order) return respond(c, placedOrderAnswer, { data: placedOf(order) }, order.code === code ? 201 : 200)
    if (discountCodeId !== null && !(await redeemed(c, checkoutKey))) return discountUnavailable(c, 'discount_used_up')
  }
  throw new Error('no order code left after 3 tries')
}

/** The caller's order by the path's code, if checkout placed it (an older order has no payment attempts). */
async function ownOrder(c: ApiContext): Promise<PlacedRow | null> {
  const code = c.req.param('code') ?? ''
  if (!/^[A-Za-z0-9-]{3,40}$/.test(code)) return null
  return c.env.DB.prepare(
    `SELECT ${PLACED_COLUMNS} FROM orders WHERE code = ? AND user_id = ? AND payment_attempt >= 1`,
  )
    .bind(code, c.var.user.id)
    .first<PlacedRow>()
}

/** Why an order cannot be paid now: paid already, or closed (set aside, refunded…); null when it can. */
function unpayable(order: PlacedRow): 'already_paid' | 'order_closed' | null {
  if (order.payment_state === 'paid') return 'already_paid'
  return order.status === 'pending_payment' ? null : 'order_closed'
}

async function answerOrder(c: ApiContext, id: number) {
  const order = await c.env.DB.prepare(`SELECT ${PLACED_COLUMNS} FROM orders WHERE id = ?`).bind(id).first<PlacedRow>()
  return order ? respond(c, placedOrderAnswer, { data: placedOf(order) }) : notFound(c)
}

/**
 * Checkout (docs/api.md "Checkout"): `GET/PUT api/account/checkout/{code}` (the caller's cart of the market by its
 * code: another customer's, an anonymous cart's or a malformed code is a 404), `POST api/account/checkout/{code}/orders`,
 * `POST api/account/orders/{code}/payment-attempts` and `PUT api/account/orders/{code}/payment`.
 */
export const checkouts = new Hono<ApiEnv>()
  .use('/account/checkout/*', requireBearer)
  .use('/account/orders/:code/payment-attempts', requireBearer)
  .use('/account/orders/:code/payment', requireBearer)
  .get('/account/checkout/:code', async (c) => {
    const cart = await ownCart(c)
    return cart ? answerCheckout(c, cart) : notFound(c)
  })
  .put('/account/checkout/:code', async (c) => {
    const cart = await ownCart(c)
    return cart ? choose(c, cart) : notFound(c)
  })
  .post('/account/checkout/:code/orders', async (c) => {
    const cart = await ownCart(c)
    return cart ? place(c, cart) : notFound(c)
  })
  .post('/account/orders/:code/payment-attempts', async (c) => {
    const order = await ownOrder(c)
    if (!order) return notFound(c)
    const refusal = unpayable(order)
    if (refusal) return refuse(c, 409, refusal)
    // A failed payment: a new attempt (its own payment key); a pending one stays as it is (a double click pays once).
    await c.env.DB.prepare(
      `UPDATE orders SET payment_attempt = payment_attempt + 1, payment_state = 'pending', payment_id = NULL
        WHERE id = ? AND payment_state = 'failed' AND status = 'pending_payment'`,
    )
      .bind(order.id)
      .run()
    return answerOrder(c, order.id)
  })
  .put('/account/orders/:code/payment', async (c) => {
    const order = await ownOrder(c)
    if (!order) return notFound(c)
    const input = recordPaymentInput.safeParse(await jsonBody(c))
    if (!input.success) return invalidAt(c, input.error)
    const refusal = unpayable(order)
    if (refusal) return refuse(c, 409, refusal)
    const updated = await c.env.DB.prepare(
      `UPDATE orders SET payment_id = ? WHERE id = ? AND payment_attempt = ? AND payment_state <> 'paid' AND status = 'pending_payment'`,
    )
      .bind(input.data.payment_id, order.id, input.data.attempt)
      .run()
    if (updated.meta.changes !== 1) return refuse(c, 409, 'stale_attempt')
    return answerOrder(c, order.id)
  })
