import { Hono } from 'hono'
import { toBase64Url } from '../bytes'
import {
  addToCartInput,
  type Cart,
  type CartRefusal,
  cartAnswer,
  cartCode,
  changeQuantityInput,
  MAX_LINE_QUANTITY,
  mergeCartInput,
} from '../../contract/cart-schemas'
import { applyDiscountInput } from '../../contract/discount-schemas'
import { siteSettingsSchema } from '../../contract/schemas'
import { type ApiContext, type ApiEnv, invalid, jsonBody, notFound, parseJson, refuse, respond } from '../context'
import { bearerUser, requireBearer } from './auth'
import { amountsOf, homeDeliveryPrice } from '../pricing'
import { cartDiscountOf } from '../discounts'

export type CartRow = { id: number; code: string; site: string; user_id: number | null; discount_code: string | null }

/** A cart's columns as `CartRow` holds them. */
export const CART_COLUMNS = 'id, code, site, user_id, discount_code'
type LineRow = {
  sku: string
  quantity: number
  stock: number
  size: string
  colour: string
  colour_name: string | null
  unit_price: number | null
  name: string
  slug: string
  image: string | null
}

/** A new cart code: 24 random bytes, 32 characters of base64url. */
const newCode = () => toBase64Url(crypto.getRandomValues(new Uint8Array(24)))

/** The market the call speaks for (`X-Tenant`): carts belong to one, and there is no cart without one. */
const siteOf = (c: ApiContext) => c.var.tenant

/** The market's currency, settings, country (`IT`) and languages (in their order), or null for an unknown market. */
export async function marketOf(c: ApiContext, site: string) {
  const row = await c.env.DB.prepare(
    `SELECT s.currency, s.settings, s.country_code,
            (SELECT json_group_array(locale) FROM (SELECT locale FROM site_locales WHERE site_id = s.id ORDER BY position)) AS locales
       FROM sites s WHERE s.slug = ?`,
  )
    .bind(site)
    .first<{ currency: string; settings: string; country_code: string; locales: string }>()
  if (!row) return null
  const settings = siteSettingsSchema.safeParse(parseJson(row.settings, {}))
  return {
    currency: row.currency,
    settings: settings.success ? settings.data : siteSettingsSchema.parse({}),
    country: row.country_code.toUpperCase(),
    locales: parseJson<string[]>(row.locales, []),
  }
}

/** An anonymous cart of the market by its code (a customer's cart is never reachable by its code alone). */
const anonymousCart = (c: ApiContext, code: string, site: string) =>
  c.env.DB.prepare(`SELECT ${CART_COLUMNS} FROM carts WHERE code = ? AND site = ? AND user_id IS NULL`)
    .bind(code, site)
    .first<CartRow>()

/** The customer's cart of the market, if they have one. */
export const customerCart = (c: ApiContext, userId: number, site: string) =>
  c.env.DB.prepare(`SELECT ${CART_COLUMNS} FROM carts WHERE user_id = ? AND site = ?`)
    .bind(userId, site)
    .first<CartRow>()

/**
 * The SQL counting the items in a customer's cart of a market (`items`: 0 without a cart), as its answer's
 * `item_count` does, the user's id being `user` and the market's code `site` (placeholders, or columns of an
 * enclosing statement: the account overview reads the header's count with it).
 */
export const cartCountSql = (user: string, site: string) =>
  `SELECT COALESCE(SUM(i.quantity), 0) AS items
     FROM carts c JOIN cart_items i ON i.cart_id = c.id
    WHERE c.user_id = ${user} AND c.site = ${site}`

/** The customer's cart of the market, created empty when they have none. */
async function ensureCustomerCart(c: ApiContext, userId: number, site: string): Promise<CartRow> {
  await c.env.DB.prepare('INSERT INTO carts (code, site, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
    .bind(newCode(), site, userId)
    .run()
  return (await customerCart(c, userId, site)) as CartRow
}

/** A variant as the market sells it: its price there (null: not sold there) and its stock; null when unknown. */
const variantOf = (c: ApiContext, sku: string, site: string) =>
  c.env.DB.prepare(
    `SELECT v.sku, v.stock, vp.amount AS price FROM product_variants v
       JOIN product_prices pr ON pr.product_id = v.product_id AND pr.site = ?2
       LEFT JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = ?2
      WHERE v.sku = ?1`,
  )
    .bind(sku, site)
    .first<{ sku: string; stock: number; price: number | null }>()

/** Why `quantity` of a variant cannot be in a cart, or null when it can. */
function refusalOf(variant: { stock: number; price: number | null } | null, quantity: number): CartRefusal | null {
  if (!variant || variant.price === null) return 'variant_not_sold'
  if (variant.stock <= 0) return 'out_of_stock'
  if (quantity > variant.stock) return 'not_enough_stock'
  return null
}

/**
 * The cart as the contract answers it (`cartSchema`): lines priced now, in the caller's language, with VAT and home
 * delivery; null for a cart of an unknown market. Checkout prices its review from this too.
 */
export async function pricedCart(c: ApiContext, cart: CartRow): Promise<Cart | null> {
  const market = await marketOf(c, cart.site)
  if (!market) return null
  const { results } = await c.env.DB.prepare(
    `SELECT i.sku, i.quantity, v.stock, v.size, v.colour, vp.amount AS unit_price, p.slug, p.image,
            COALESCE(tr.value, ten.value) AS colour_name,
            COALESCE(n.name, en.name, p.slug) AS name
       FROM cart_items i
       JOIN product_variants v ON v.sku = i.sku
       JOIN products p ON p.id = v.product_id
       LEFT JOIN product_prices pr ON pr.product_id = p.id AND pr.site = ?2
       LEFT JOIN product_variant_prices vp ON vp.sku = v.sku AND vp.site = ?2 AND pr.site IS NOT NULL
       LEFT JOIN product_names n ON n.product_id = p.id AND n.locale = ?3
       LEFT JOIN product_names en ON en.product_id = p.id AND en.locale = 'en'
       LEFT JOIN translations tr ON tr.scope = '*' AND tr.locale = ?3 AND tr.key = 'colour.' || v.colour
       LEFT JOIN translations ten ON ten.scope = '*' AND ten.locale = 'en' AND ten.key = 'colour.' || v.colour
      WHERE i.cart_id = ?1
      ORDER BY i.added_at, i.sku`,
  )
    .bind(cart.id, cart.site, c.var.locale)
    .all<LineRow>()
  const lines = results.map((row) => {
    const available = row.unit_price !== null && row.quantity <= row.stock
    return {
      sku: row.sku,
      product: { name: row.name, slug: row.slug, image: row.image },
      variant: { size: row.size, colour: row.colour, colour_name: row.colour_name ?? row.colour },
      quantity: row.quantity,
      unit_price: row.unit_price,
      line_total: (row.unit_price ?? 0) * row.quantity,
      stock: row.stock,
      available,
    }
  })
  const subtotal = lines.reduce((sum, line) => sum + (line.available ? line.line_total : 0), 0)
  const { vat, shipping: delivery } = market.settings
  const shippingPrice = homeDeliveryPrice(subtotal, delivery)
  const discount = (await cartDiscountOf(c, cart, subtotal))?.discount ?? null
  const amounts = amountsOf(subtotal, shippingPrice, vat, discount?.amount ?? 0)
  return {
    code: cart.code,
    currency: market.currency,
    lines,
    item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotal,
    shipping: delivery ? { price: shippingPrice, free_from: delivery.free_from, days: delivery.days } : null,
    vat: amounts.vat,
    discount,
    total: amounts.total,
  }
}

/** Answers the cart as the contract does. */
async function answerCart(c: ApiContext, cart: CartRow, status: 200 | 201 = 200) {
  const data = await pricedCart(c, cart)
  return data ? respond(c, cartAnswer, { data }, status) : notFound(c)
}

/** Whether the market sells online: carts exist only there. */
export async function sells(c: ApiContext, site: string | null): Promise<boolean> {
  if (!site) return false
  return (await marketOf(c, site))?.settings.sells_online ?? false
}

/**
 * Adds a variant to a cart: the cart given (or, with none, a new anonymous one, or the customer's) once per key. The
 * same key again with the same cart answers it, unchanged; a key already used for another cart, or sent without the
 * cart it went to, is 409 `key_reused`: a key never hands a cart to a caller who does not already hold it.
 */
async function add(c: ApiContext, userId: number | null) {
  const site = siteOf(c)
  const input = addToCartInput.safeParse(await jsonBody(c))
  if (!input.success) return invalid(c, input.error)
  if (!site || !(await sells(c, site))) return notFound(c)
  const { sku, quantity, key } = input.data
  let cart: CartRow | null = null
  if (userId !== null) cart = await ensureCustomerCart(c, userId, site)
  else if (input.data.cart) {
    cart = await anonymousCart(c, input.data.cart, site)
    if (!cart) return notFound(c)
  }
  const earlier = await c.env.DB.prepare('SELECT cart_id FROM cart_adds WHERE key = ?')
    .bind(key)
    .first<number>('cart_id')
  if (earlier !== null) return cart && earlier === cart.id ? answerCart(c, cart) : refuse(c, 409, 'key_reused')
  const variant = await variantOf(c, sku, site)
  const inCart = cart
    ? ((await c.env.DB.prepare('SELECT quantity FROM cart_items WHERE cart_id = ? AND sku = ?')
        .bind(cart.id, sku)
        .first<number>('quantity')) ?? 0)
    : 0
  const refusal = refusalOf(variant, inCart + quantity)
  if (refusal) return refuse(c, refusal === 'variant_not_sold' ? 422 : 409, refusal, 'sku')
  if (inCart + quantity > MAX_LINE_QUANTITY) return refuse(c, 422, 'too_many', 'quantity')
  const created = !cart
  if (!cart) {
    const code = newCode()
    await c.env.DB.prepare('INSERT INTO carts (code, site) VALUES (?, ?)').bind(code, site).run()
    cart = (await anonymousCart(c, code, site)) as CartRow
  }
  // One transaction: the key is taken first, and the line changes only when this very request took it (`changes()`
  // of the key's insert), so two requests with one key add once even when both reached this point.
  await c.env.DB.batch([
    c.env.DB.prepare('INSERT INTO cart_adds (key, cart_id) VALUES (?, ?) ON CONFLICT DO NOTHING').bind(key, cart.id),
    c.env.DB.prepare(
      `INSERT INTO cart_items (cart_id, sku, quantity) SELECT ?1, ?2, ?3 WHERE changes() = 1
       ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = MIN(quantity + excluded.quantity, ${MAX_LINE_QUANTITY})`,
    ).bind(cart.id, sku, quantity),
    c.env.DB.prepare("UPDATE carts SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?").bind(cart.id),
  ])
  const owner = await c.env.DB.prepare('SELECT cart_id FROM cart_adds WHERE key = ?').bind(key).first<number>('cart_id')
  if (owner === cart.id) return answerCart(c, cart, created ? 201 : 200)
  // Another request took the key for another cart first: that cart is never answered, and this one's new cart goes.
  if (created) await c.env.DB.prepare('DELETE FROM carts WHERE id = ?').bind(cart.id).run()
  return refuse(c, 409, 'key_reused')
}

/** Changes a line's quantity (checked against the stock) or removes it. */
async function change(c: ApiContext, cart: CartRow | null, remove: boolean) {
  if (!cart) return notFound(c)
  const sku = c.req.param('sku') ?? ''
  const line = await c.env.DB.prepare('SELECT quantity FROM cart_items WHERE cart_id = ? AND sku = ?')
    .bind(cart.id, sku)
    .first()
  if (!line) return notFound(c)
  if (remove) {
    await c.env.DB.prepare('DELETE FROM cart_items WHERE cart_id = ? AND sku = ?').bind(cart.id, sku).run()
    return answerCart(c, cart)
  }
  const input = changeQuantityInput.safeParse(await jsonBody(c))
  if (!input.success) return invalid(c, input.error)
  const refusal = refusalOf(await variantOf(c, sku, cart.site), input.data.quantity)
  if (refusal) return refuse(c, refusal === 'variant_not_sold' ? 422 : 409, refusal, 'quantity')
  await c.env.DB.prepare('UPDATE cart_items SET quantity = ? WHERE cart_id = ? AND sku = ?')
    .bind(input.data.quantity, cart.id, sku)
    .run()
  return answerCart(c, cart)
}

/**
 * Puts a discount code on a cart when it applies to the cart as it stands (422 with the refusal's code and the field
 * `code` when not: unknown, not yet valid, expired, used up, below its minimum subtotal); the cart keeps one code, the
 * last applied. Placing checks it again.
 */
async function applyDiscount(c: ApiContext, cart: CartRow | null) {
  if (!cart) return notFound(c)
  const input = applyDiscountInput.safeParse(await jsonBody(c))
  if (!input.success) return refuse(c, 422, 'discount_unknown', 'code')
  const priced = await pricedCart(c, { ...cart, discount_code: input.data.code })
  if (!priced) return notFound(c)
  const refusal = priced.discount?.refusal
  if (refusal) return refuse(c, 422, refusal, 'code')
  await c.env.DB.prepare(
    "UPDATE carts SET discount_code = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
  )
    .bind(input.data.code, cart.id)
    .run()
  return respond(c, cartAnswer, { data: priced })
}

/** Takes the discount code off a cart (none on it: the cart as it is). */
async function removeDiscount(c: ApiContext, cart: CartRow | null) {
  if (!cart) return notFound(c)
  await c.env.DB.prepare('UPDATE carts SET discount_code = NULL WHERE id = ?').bind(cart.id).run()
  return answerCart(c, { ...cart, discount_code: null })
}

/** The anonymous cart of the path's code in the caller's market, or null (a malformed code included). */
async function pathCart(c: ApiContext): Promise<CartRow | null> {
  const code = cartCode.safeParse(c.req.param('code'))
  const site = siteOf(c)
  return code.success && site ? anonymousCart(c, code.data, site) : null
}

/**
 * Carts: `POST api/carts/items` (anonymous; creates the cart when `cart` is null), `GET api/carts/{code}`,
 * `PUT/DELETE api/carts/{code}/items/{sku}`; the customer's cart of the market: `GET api/account/cart`,
 * `POST api/account/cart/items`, `PUT/DELETE api/account/cart/items/{sku}`, `POST api/account/cart/merge`; a discount
 * code on either: `PUT/DELETE api/carts/{code}/discount`, `PUT/DELETE api/account/cart/discount`. A code of another
 * market, or of a customer's cart, is a 404.
 */
export const carts = new Hono<ApiEnv>()
  .post('/carts/items', async (c) => {
    // A logged-in caller adds to their own cart, whatever the body says.
    const user = await bearerUser(c)
    return add(c, user?.id ?? null)
  })
  .get('/carts/:code', async (c) => {
    const cart = await pathCart(c)
    return cart ? answerCart(c, cart) : notFound(c)
  })
  .put('/carts/:code/items/:sku', async (c) => change(c, await pathCart(c), false))
  .delete('/carts/:code/items/:sku', async (c) => change(c, await pathCart(c), true))
  .use('/account/cart', requireBearer)
  .use('/account/cart/*', requireBearer)
  .get('/account/cart', async (c) => {
    const site = siteOf(c)
    const cart = site ? await customerCart(c, c.var.user.id, site) : null
    return cart ? answerCart(c, cart) : notFound(c)
  })
  .post('/account/cart/items', (c) => add(c, c.var.user.id))
  .put('/account/cart/items/:sku', async (c) => {
    const site = siteOf(c)
    return change(c, site ? await customerCart(c, c.var.user.id, site) : null, false)
  })
  .delete('/account/cart/items/:sku', async (c) => {
    const site = siteOf(c)
    return change(c, site ? await customerCart(c, c.var.user.id, site) : null, true)
  })
  .post('/account/cart/merge', async (c) => {
    const site = siteOf(c)
    const input = mergeCartInput.safeParse(await jsonBody(c))
    if (!input.success) return invalid(c, input.error)
    const anonymous = site ? await anonymousCart(c, input.data.cart, site) : null
    if (!site || !anonymous) return notFound(c)
    const cart = await ensureCustomerCart(c, c.var.user.id, site)
    // Quantities added up, capped by the stock and the line limit; the anonymous cart is then gone (its keys with it).
    // Lines of variants the market no longer sells are merged too: the cart shows them as unavailable.
    await c.env.DB.batch([
      c.env.DB.prepare(
        `INSERT INTO cart_items (cart_id, sku, quantity)
         SELECT ?1, i.sku, MIN(i.quantity, v.stock, ${MAX_LINE_QUANTITY}) FROM cart_items i JOIN product_variants v ON v.sku = i.sku
          WHERE i.cart_id = ?2 AND v.stock > 0
         ON CONFLICT (cart_id, sku) DO UPDATE SET quantity = MAX(quantity, MIN(quantity + excluded.quantity,
           (SELECT stock FROM product_variants WHERE sku = excluded.sku), ${MAX_LINE_QUANTITY}))`,
      ).bind(cart.id, anonymous.id),
      c.env.DB.prepare('DELETE FROM carts WHERE id = ?').bind(anonymous.id),
      // The customer's cart takes the merged cart's code: a checkout link made before the login still leads to it.
      // …and the anonymous cart's discount code when it carries none of its own.
      c.env.DB.prepare(
        "UPDATE carts SET code = ?, discount_code = COALESCE(discount_code, ?), updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
      ).bind(anonymous.code, anonymous.discount_code, cart.id),
    ])
    return answerCart(c, {
      ...cart,
      code: anonymous.code,
      discount_code: cart.discount_code ?? anonymous.discount_code,
    })
  })
  .put('/carts/:code/discount', async (c) => applyDiscount(c, await pathCart(c)))
  .delete('/carts/:code/discount', async (c) => removeDiscount(c, await pathCart(c)))
  .put('/account/cart/discount', async (c) => {
    const site = siteOf(c)
    return applyDiscount(c, site ? await customerCart(c, c.var.user.id, site) : null)
  })
  .delete('/account/cart/discount', async (c) => {
    const site = siteOf(c)
    return removeDiscount(c, site ? await customerCart(c, c.var.user.id, site) : null)
  })
