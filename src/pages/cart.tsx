import type { Context } from 'hono'
import { Caching } from '../cache/answer-caching'
import { DiscountForm, DiscountLine, discountRefusalOf } from '../cart/cart-discount'
import { addedToCart } from '../cart/added-line'
import { addKeyOf, cartHolderOf, keepChangedCartCount, setCartCookie, visitorCart } from '../cart/visitor-cart'
import { DefaultLayout } from '../components/layouts'
import type { HeadProps } from '../components/page-head'
import { type Notice, noticeText, withNotice } from '../components/toast'
import type { Chrome, MarketView } from '../components/view'
import type { MarketEnv } from '../env'
import { ErrorMessages, PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { formatMoney } from '../i18n/formats'
import type { Market } from '../market/market'
import { sendPage, sendRedirect, viewOf } from '../render/respond'
import { type Cart, MAX_LINE_QUANTITY } from '../../contract/cart-schemas'
import type { DiscountRefusal } from '../../contract/discount-schemas'
import { type CartCalls, cartCalls } from '../upstream/contract/cart'
import { randomToken } from '../crypto/digest'
import { isRejection } from '../upstream/errors'
import { sizeName } from '../catalogue/size-name'
import { loadChrome } from './chrome'

const SKU = /^[A-Za-z0-9_-]{1,40}$/
const COLOUR = /^[a-z]{1,20}$/
const SLUG = /^[a-z0-9-]{1,120}$/
const FORM_KEY = /^[A-Za-z0-9_-]{16,64}$/

/** A posted quantity, 1 to MAX_LINE_QUANTITY, or null. */
const quantityOf = (value: string | undefined) =>
  value && /^[0-9]{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LINE_QUANTITY ? Number(value) : null

/** The notice a refusal of the cart's API shows. */
const refusalNotice = (error: unknown): Notice | null => {
  if (!isRejection(error)) return null
  const code = error.rejection.code
  return code === 'not_enough_stock' || code === 'too_many'
    ? 'cart_not_enough'
    : code === 'variant_not_sold' || code === 'out_of_stock'
      ? 'cart_unavailable'
      : null
}

/** A VAT rate in basis points as the market writes a percentage (`22 %`, `8,1 %`). */
const percent = (rate: number, market: Market) =>
  new Intl.NumberFormat(market.tag, { style: 'percent', maximumFractionDigits: 2 }).format(rate / 10_000)

/** The cart page: its lines (change, remove), the summary with delivery and VAT as the market says, and checkout. */
export function CartPage({
  view,
  chrome,
  head,
  cart,
  discountRefusal = null,
}: {
  view: MarketView
  chrome: Chrome
  head: HeadProps
  cart: Cart | null
  /** Why the code just sent was refused (the cart's `?discount=`), shown beside its field. */
  discountRefusal?: DiscountRefusal | null
}) {
  const { t } = view
  const market = view.market
  const base = `/${market.segment}`
  const money = (minor: number) => formatMoney(minor, market.site.currency, market)
  const lines = cart?.lines ?? []
  return (
    <DefaultLayout view={view} head={head} chrome={chrome}>
      <div className="cart-page">
        <h1>{t('cart.title')}</h1>
        {!cart || lines.length === 0 ? (
          <div className="cart-empty">
            <p>{t('cart.empty')}</p>
            <a className="button" href={`${base}/products`}>
              {t('cart.continue')}
            </a>
          </div>
        ) : (
          <div className="cart-layout">
            <section aria-labelledby="cart-lines-title">
              <h2 id="cart-lines-title" className="visually-hidden">
                {t('cart.lines')}
              </h2>
              <ul className="cart-lines">
                {lines.map((line) => {
                  const name = line.product.name
                  // The size is a left-to-right run (`XL`, `54`): isolated, it keeps its place in a right-to-left line.
                  const variant = t('cart.variant', {
                    size: `\u2068${sizeName(t, line.variant.size)}\u2069`,
                    colour: line.variant.colour_name,
                  })
                  const most = Math.max(1, Math.min(MAX_LINE_QUANTITY, Math.max(line.stock, line.quantity)))
                  return (
                    <li key={line.sku} className={`cart-line${line.available ? '' : ' unavailable'}`}>
                      {line.product.image ? (
                        <img src={line.product.image} alt="" width={160} height={107} loading="lazy" decoding="async" />
                      ) : (
                        <span className="cart-line-noimage" aria-hidden="true" />
                      )}
                      <div className="cart-line-text">
                        <h3>
                          <a href={`${base}/products/${line.product.slug}`}>{name}</a>
                        </h3>
                        <p className="cart-line-variant">
                          <span className={`swatch swatch-${line.variant.colour}`} aria-hidden="true" /> {variant}
                        </p>
                        <p className="cart-line-unit">
                          {line.unit_price === null
                            ? t('cart.unavailable_line')
                            : t('cart.unit_price', { price: money(line.unit_price) })}
                        </p>
                        {line.unit_price !== null && !line.available && (
                          <p className="cart-line-warning">
                            {t('cart.not_enough_line', { count: String(line.stock) })}
                          </p>
                        )}
                      </div>
                      <div className="cart-line-actions">
                        <form
                          method="post"
                          action={`${base}/cart/items/${encodeURIComponent(line.sku)}`}
                          className="cart-quantity"
                        >
                          <label htmlFor={`quantity-${line.sku}`}>{t('cart.quantity')}</label>
                          <select
                            id={`quantity-${line.sku}`}
                            name="quantity"
                            defaultValue={String(line.quantity)}
                            aria-describedby={`name-${line.sku}`}
                          >
                            {Array.from({ length: most }, (_, index) => index + 1).map((n) => (
                              <option key={n} value={n}>
                                {n}
                              </option>
                            ))}
                          </select>
                          <button type="submit" className="button secondary small">
                            {t('cart.update')}
                          </button>
                        </form>
                        <form method="post" action={`${base}/cart/items/${encodeURIComponent(line.sku)}/remove`}>
                          <button type="submit" className="link-button cart-remove">
                            {t('cart.remove')}
                            <span className="visually-hidden" id={`name-${line.sku}`}>
                              {' '}
                              {name}, {variant}
                            </span>
                          </button>
                        </form>
                      </div>
                      <p className="cart-line-total">
                        <span className="visually-hidden">{t('cart.line_total')}: </span>
                        {money(line.line_total)}
                      </p>
                    </li>
                  )
                })}
              </ul>
            </section>
            <aside className="cart-summary" aria-labelledby="cart-summary-title">
              <h2 id="cart-summary-title">{t('cart.summary')}</h2>
              <dl>
                <div>
                  <dt>{t('cart.subtotal')}</dt>
                  <dd>{money(cart.subtotal)}</dd>
                </div>
                <DiscountLine view={view} cart={cart} amount={cart.discount?.amount ?? 0} />
                {cart.shipping && (
                  <div>
                    <dt>{t('cart.delivery')}</dt>
                    <dd>{cart.shipping.price === 0 ? t('cart.delivery_free') : money(cart.shipping.price)}</dd>
                  </div>
                )}
                {!cart.vat.included && (
                  <div>
                    <dt>
                      {cart.vat.rate === null
                        ? t('cart.tax')
                        : t('cart.vat_added', { rate: percent(cart.vat.rate, market) })}
                    </dt>
                    <dd>{cart.vat.amount === null ? t('cart.calculated_at_checkout') : money(cart.vat.amount)}</dd>
                  </div>
                )}
                <div className="cart-total">
                  <dt>{t('cart.total')}</dt>
                  <dd>{money(cart.total)}</dd>
                </div>
              </dl>
              {cart.vat.included && cart.vat.amount !== null && cart.vat.rate !== null && (
                <p className="cart-note">
                  {t('cart.vat_included', { rate: percent(cart.vat.rate, market), amount: money(cart.vat.amount) })}
                </p>
              )}
              {cart.vat.included && cart.vat.rate === null && (
                <p className="cart-note">{t('cart.vat_included_plain')}</p>
              )}
              {cart.shipping && (
                <div className="cart-delivery">
                  <p>
                    {t('cart.delivery_days', {
                      min: String(cart.shipping.days[0]),
                      max: String(cart.shipping.days[1]),
                    })}
                  </p>
                  {cart.shipping.free_from !== null && cart.shipping.price > 0 && (
                    <p className="cart-note">{t('cart.free_from', { price: money(cart.shipping.free_from) })}</p>
                  )}
                </div>
              )}
              <DiscountForm view={view} cart={cart} refusal={discountRefusal} />
              {chrome.available.has('checkout') && (
                <a className="button cart-checkout" href={`${base}/checkout/${cart.code}`}>
                  {t('cart.checkout')}
                </a>
              )}
              <a className="cart-continue" href={`${base}/products`}>
                {t('cart.continue')}
              </a>
            </aside>
          </div>
        )}
      </div>
    </DefaultLayout>
  )
}

/**
 * `GET /{m}/cart`: the visitor's cart in the market (a customer's own, else the cookie's code's; none: the empty
 * state). Private and `no-store`, never indexed; opening it never sets a cookie.
 */
export async function cartPage(c: Context<MarketEnv>): Promise<Response> {
  const { market, t } = c.var
  const [cart, chrome] = await Promise.all([visitorCart(c).calls.read(), loadChrome(c)])
  const view = viewOf(c, t, market)
  const head: HeadProps = { title: `${t('cart.title')} · ${t('brand.name')}`, robots: 'noindex' }
  const refusal = discountRefusalOf(c.req.query('discount'))
  return sendPage(c, <CartPage view={view} chrome={chrome} head={head} cart={cart} discountRefusal={refusal} />, {
    caching: Caching.private,
  })
}

/** Whether the posting page asked for JSON (the "add to cart" island) rather than a page. */
const wantsJson = (c: Context<MarketEnv>) => (c.req.header('Accept') ?? '').includes('application/json')

/** A posted value when it has the expected form, else null. */
const matching = (pattern: RegExp, value: string | undefined): string | null =>
  value !== undefined && pattern.test(value) ? value : null

/**
 * `POST /{m}/cart/items` (`sku`, `quantity`, `key`, `product`): adds a variant the market sells to the visitor's cart
 * once per form key, line and browser (`addKeyOf`), creating an anonymous visitor's cart and setting its cookie (the
 * only way it is ever set), then `303` back to the product with a notice. The island asks for JSON instead:
 * `{ ok, count, message, added }` (`added`: the mini-cart's line and subtotal, src/cart/added-line.ts). Amounts are never read from the form: the API prices the line.
 */
export async function addToCart(c: Context<MarketEnv>): Promise<Response> {
  const { market, t } = c.var
  const form = await readForm(c)
  // The variant: `sku`, or the product page's size chosen in the colour chosen (`colour=red`, `sku-red=…`).
  const colour = matching(COLOUR, form.colour)
  const picked = form.sku ?? (colour ? form[`sku-${colour}`] : undefined)
  const sku = matching(SKU, picked)
  const quantity = quantityOf(form.quantity)
  const formKey = matching(FORM_KEY, form.key)
  const product = matching(SLUG, form.product)
  const back = (notice: Notice) =>
    withNotice(product ? `/${market.segment}/products/${product}` : `/${market.segment}/cart`, notice)
  const answer = (notice: Notice, status: 200 | 409 | 422, cart?: Cart) => {
    if (!wantsJson(c)) return sendRedirect(c, back(notice), 303)
    c.var.caching.allow(Caching.private)
    const added = cart && sku ? addedToCart(cart, sku, t, market, c.var.available.has('checkout')) : null
    return c.json(
      { ok: status === 200, count: cart?.item_count ?? null, message: t(noticeText(notice)), added },
      status,
    )
  }
  // A product's form sent with a colour but no size: back to the product, asking for one.
  if (product && colour && picked === undefined && quantity && formKey) return answer('cart_choose_size', 422)
  if (!sku || !quantity || !formKey) throw new PageError(400, ErrorMessages.badRequest)
  const cart = visitorCart(c)
  const line = { sku, quantity }
  try {
    let added = await addOnce(cart.calls, { ...line, key: await addKeyOf(formKey, line, cartHolderOf(c)) })
    // The cookie's cart is gone (expired, or merged at a login elsewhere): the add makes a new one, as a browser
    // without a cart does.
    if (!added && !cart.customer) {
      added = await addOnce(cartCalls(c.var.upstream.forMarket(market), { code: null }), {
        ...line,
        key: await addKeyOf(formKey, line, null),
      })
    }
    if (!added) throw new PageError(400, ErrorMessages.badRequest)
    if (!cart.customer) setCartCookie(c, market.country, added.code)
    keepChangedCartCount(c, added)
    return answer('cart_added', 200, added)
  } catch (error) {
    const notice = refusalNotice(error)
    if (notice) return answer(notice, notice === 'cart_unavailable' ? 422 : 409)
    throw error
  }
}

/**
 * Adds once per key. A key the API already tied to another cart (this visitor's earlier cart, replaced since) is not
 * a double click: the add goes through under a fresh key.
 */
async function addOnce(calls: CartCalls, line: { sku: string; quantity: number; key: string }): Promise<Cart | null> {
  try {
    return await calls.add(line)
  } catch (error) {
    if (isRejection(error, 409) && error.rejection.code === 'key_reused')
      return calls.add({ ...line, key: randomToken() })
    throw error
  }
}

/** The line a change or removal names: its SKU from the path, or 404. */
function skuOf(c: Context<MarketEnv>): string {
  const sku = c.req.param('sku') ?? ''
  if (!SKU.test(sku)) throw PageError.pageNotFound(c.req.url)
  return sku
}

/**
 * `POST /{m}/cart/items/{sku}` (`quantity`): changes a line's quantity, checked against the stock; `303` back to the
 * cart with a notice. A line (or cart) that is not the visitor's is 404.
 */
export async function changeCartLine(c: Context<MarketEnv>): Promise<Response> {
  const sku = skuOf(c)
  const quantity = quantityOf((await readForm(c)).quantity)
  if (!quantity) throw new PageError(400, ErrorMessages.badRequest)
  const back = (notice: Notice) => sendRedirect(c, withNotice(`/${c.var.market.segment}/cart`, notice), 303)
  try {
    const changed = await visitorCart(c).calls.change(sku, quantity)
    if (!changed) throw PageError.pageNotFound(c.req.url)
    keepChangedCartCount(c, changed)
    return back('cart_updated')
  } catch (error) {
    const notice = refusalNotice(error)
    if (notice) return back(notice)
    throw error
  }
}

/** `POST /{m}/cart/items/{sku}/remove`: removes a line; `303` back to the cart. Another's line is 404. */
export async function removeCartLine(c: Context<MarketEnv>): Promise<Response> {
  const sku = skuOf(c)
  const removed = await visitorCart(c).calls.remove(sku)
  if (!removed) throw PageError.pageNotFound(c.req.url)
  keepChangedCartCount(c, removed)
  return sendRedirect(c, withNotice(`/${c.var.market.segment}/cart`, 'cart_removed'), 303)
}
