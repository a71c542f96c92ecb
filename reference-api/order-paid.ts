import { addressText } from '../contract/address-formats'
import type { PostalAddress } from '../contract/account-schemas'
import { withoutDirectionControls } from '../contract/direction-controls'
import { type LetterTable, letterHtml, letterOf, partMarker } from './letter'
import { type MailedOrder, orderMailLocale, orderMailParams, orderMoney } from './order-mails'
import { parseJson } from './context'
import { mailTexts, queueMail } from './outbox'

type PaidOrder = MailedOrder & {
  id: number
  /** 1 while the customer's address waits for its confirmation: the mail asks for it (docs/decisions/057). */
  unconfirmed: number
  subtotal: number
  discount: number
  discount_code: string | null
  shipping: number
  tax: number
  total: number
  shipping_address: string | null
  delivery_method: 'home' | 'pickup'
  delivery_dealer: string | null
  payment_method: string
}

type Item = { name: string; variant: string | null; quantity: number; unit_price: number }

/** A sku the order holds more of than the stock has now (sold twice, or stock corrected since placing). */
export type Oversold = { sku: string; ordered: number; stock: number }

/**
 * The condition every statement of paying runs under, in the batch that makes the order paid: the order is paid now,
 * by this event (`orders.paid_event`), so a second paid event of the order, a retry or a closed order does nothing.
 */
const PAID_NOW = `EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND paid_event = ?2 AND status = 'paid')`

/** The ordered quantity of a sku in the order (the order's lines are one per sku). */
const ORDERED = (sku: string) => `(SELECT SUM(quantity) FROM order_items WHERE order_id = ?1 AND sku = ${sku})`
const CART = '(SELECT cart_id FROM orders WHERE id = ?1)'

/**
 * What paying an order means (issue 11, docs/api.md "Checkout"), as statements for the batch of `settlePayment`
 * (src/api/settle-payment.ts) that makes the order paid, each running only when that batch made it paid by `eventId`:
 * the ordered quantities leave the stock (never below 0); the paid skus and quantities leave the cart it was placed
 * from (lines added since stay); the cart's checkout generation is raised (the same lines placed again are a new
 * order); the confirmation mail (`order_confirmation`) goes to the outbox in the order's language, with its code,
 * lines, amounts, delivery, payment and a link to the order in the account (`linkTemplate`, its `{market}` and
 * `{code}` filled in). Reads what the mail needs first, and the skus ordered beyond their stock (`oversold`: the stock
 * stops at 0, staff must know).
 *
 * @example
 * const statements = await orderPaidStatements(db, order.id, event.id, 'https://www.brand.example/{market}/my-account/orders/{code}')
 */
export async function orderPaidStatements(
  db: D1Database,
  orderId: number,
  eventId: string,
  linkTemplate: string,
): Promise<{ statements: D1PreparedStatement[]; oversold: Oversold[] }> {
  const [orders, items, short] = await db.batch<PaidOrder | Item | Oversold>([
    db
      .prepare(
        `SELECT o.id, o.code, o.market, o.locale, o.currency, o.subtotal, o.discount, o.discount_code, o.shipping, o.tax, o.total, o.shipping_address, o.delivery_method,
              o.delivery_dealer, o.payment_method, COALESCE(b.email, u.email) AS email, u.first_name, u.locale AS user_locale,
              u.email_confirmed_at IS NULL AS unconfirmed, s.currency_token, s.currency_place, s.currency AS site_currency
         FROM orders o JOIN users u ON u.id = o.user_id LEFT JOIN backend_customers b ON b.user_id = u.id
         LEFT JOIN sites s ON s.slug = substr(o.market, 1, instr(o.market, '-') - 1)
        WHERE o.id = ?`,
      )
      .bind(orderId),
    db
      .prepare('SELECT name, variant, quantity, unit_price FROM order_items WHERE order_id = ? ORDER BY position')
      .bind(orderId),
    db
      .prepare(
        `SELECT i.sku, SUM(i.quantity) AS ordered, v.stock FROM order_items i JOIN product_variants v ON v.sku = i.sku
        WHERE i.order_id = ? GROUP BY i.sku, v.stock HAVING SUM(i.quantity) > v.stock ORDER BY i.sku`,
      )
      .bind(orderId),
  ])
  const order = orders?.results[0] as PaidOrder | undefined
  if (!order) return { statements: [], oversold: [] }
  const statements = [
    db
      .prepare(
        `UPDATE product_variants SET stock = MAX(0, stock - ${ORDERED('product_variants.sku')})
        WHERE sku IN (SELECT sku FROM order_items WHERE order_id = ?1) AND ${PAID_NOW}`,
      )
      .bind(orderId, eventId),
    // Lines bought whole leave the cart; a line whose quantity was raised after placing keeps the rest.
    db
      .prepare(
        `DELETE FROM cart_items WHERE cart_id = ${CART} AND quantity <= ${ORDERED('cart_items.sku')} AND ${PAID_NOW}`,
      )
      .bind(orderId, eventId),
    db
      .prepare(
        `UPDATE cart_items SET quantity = quantity - ${ORDERED('cart_items.sku')}
        WHERE cart_id = ${CART} AND sku IN (SELECT sku FROM order_items WHERE order_id = ?1) AND ${PAID_NOW}`,
      )
      .bind(orderId, eventId),
    db
      .prepare(
        `INSERT INTO checkouts (cart_id, generation) SELECT cart_id, 1 FROM orders WHERE id = ?1 AND cart_id IS NOT NULL AND ${PAID_NOW}
       ON CONFLICT (cart_id) DO UPDATE SET generation = generation + 1`,
      )
      .bind(orderId, eventId),
    // The discount code was used by this order: the cart no longer carries it.
    db.prepare(`UPDATE carts SET discount_code = NULL WHERE id = ${CART} AND ${PAID_NOW}`).bind(orderId, eventId),
  ]
  const mail = await confirmationOf(db, order, (items?.results ?? []) as Item[], linkTemplate)
  statements.push(
    queueMail(db, mail, { when: PAID_NOW.replace('?1', '?7').replace('?2', '?8'), params: [orderId, eventId] }),
  )
  return { statements, oversold: (short?.results ?? []) as Oversold[] }
}

/** The confirmation mail of a paid order, in its language (the customer's, else English where a text is missing). */
async function confirmationOf(db: D1Database, order: PaidOrder, items: Item[], linkTemplate: string) {
  const locale = orderMailLocale(order)
  const t = await mailTexts(db, locale, ['mail.order_', 'mail.open_link', 'order.', 'payment_method.'])
  const money = orderMoney(order, locale)
  const lineRows = items.map(
    (item) =>
      [
        `${item.quantity} × ${item.variant ? `${item.name}, ${item.variant}` : item.name}`,
        money(item.quantity * item.unit_price),
      ] as const,
  )
  const lines = items
    .map((item) =>
      t('mail.order_line', {
        quantity: String(item.quantity),
        name: item.variant ? `${item.name}, ${item.variant}` : item.name,
        total: money(item.quantity * item.unit_price),
      }),
    )
    .join('\n')
  // VAT included in the prices when the total is items and delivery; added on top (US sales tax) otherwise.
  const included = order.total === order.subtotal - order.discount + order.shipping
  const amountRows: (readonly [string, string])[] = [
    [t('order.subtotal'), money(order.subtotal)],
    ...(order.discount > 0
      ? [[t('order.discount', { code: order.discount_code ?? '' }), money(-order.discount)] as const]
      : []),
    [t('order.shipping'), money(order.shipping)],
    ...(order.tax > 0 ? [[included ? t('order.tax') : t('mail.order_tax_added'), money(order.tax)] as const] : []),
    [t('order.total'), money(order.total)],
  ]
  const amounts = amountRows.map(([label, amount]) => t('mail.order_amount', { label, amount })).join('\n')
  const address = parseJson<PostalAddress | null>(order.shipping_address, null)
  const delivery =
    order.delivery_method === 'pickup'
      ? t('order.delivery_pickup', { dealer: order.delivery_dealer ?? '' })
      : [t('order.delivery_home'), ...(address ? letterAddress(address, locale) : [])].join('\n')
  const params = {
    ...orderMailParams(order, linkTemplate),
    lines,
    amounts,
    delivery,
    // Bought before confirming the address: the confirmation is asked for after the payment's line.
    payment: [
      t(`payment_method.${order.payment_method}`),
      ...(order.unconfirmed ? [t('mail.order_confirm_email', { email: order.email })] : []),
    ].join('\n\n'),
  }
  const subject = t('mail.order_confirmation_subject', params)
  // The HTML part: the same text, its lines and amounts as tables.
  const parts: Record<string, LetterTable> = {
    lines: { kind: 'table', rows: lineRows },
    amounts: { kind: 'table', rows: amountRows, total: true },
  }
  const marked = t('mail.order_confirmation_body', {
    ...params,
    lines: partMarker('lines'),
    amounts: partMarker('amounts'),
  })
  return {
    recipient: order.email,
    subject,
    body: t('mail.order_confirmation_body', params),
    kind: 'order_confirmation',
    html: letterHtml(letterOf(locale, subject, marked, { linkLabel: t('mail.open_link'), parts })),
  }
}

/** A postal address as the lines of a letter: the one renderer's (contract/address-formats.ts), the country in the mail's language. */
function letterAddress(address: PostalAddress, locale: string): string[] {
  return addressText(address, regionName(address.country_code, locale)).map(withoutDirectionControls)
}

/** A country's name in the mail's language (`Italia`, `איטליה`), else its code. */
function regionName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code
  } catch {
    return code
  }
}
