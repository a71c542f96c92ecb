import { CARRIER_NAMES, type Carrier, trackingUrl } from '../contract/carriers'
import { withoutDirectionControls } from '../contract/direction-controls'
import { mailMoney } from './money'
import { type Mail, mailTexts } from './outbox'

/** An order's customer and market as its mails need them (a paid order's confirmation reads more: order-paid.ts). */
export type MailedOrder = {
  code: string
  market: string
  locale: string | null
  currency: string
  email: string
  first_name: string
  user_locale: string | null
  currency_token: string | null
  currency_place: 'left' | 'right' | null
  site_currency: string | null
}

/** The order's customer and market, read for a mail about it. */
async function mailedOrder(db: D1Database, orderId: number): Promise<MailedOrder | null> {
  return db
    .prepare(
      `SELECT o.code, o.market, o.locale, o.currency, COALESCE(b.email, u.email) AS email, u.first_name,
              u.locale AS user_locale, s.currency_token, s.currency_place, s.currency AS site_currency
         FROM orders o JOIN users u ON u.id = o.user_id LEFT JOIN backend_customers b ON b.user_id = u.id
         LEFT JOIN sites s ON s.slug = substr(o.market, 1, instr(o.market, '-') - 1)
        WHERE o.id = ?`,
    )
    .bind(orderId)
    .first<MailedOrder>()
}

/** The language of an order's mails: the order's, else its customer's, else English. */
export const orderMailLocale = (order: MailedOrder): string => order.locale ?? order.user_locale ?? 'en'

/** An amount of the order's currency (minor units) as its market writes it in `locale`. */
export function orderMoney(order: MailedOrder, locale: string): (minor: number) => string {
  const country = order.market.split('-')[0] ?? ''
  const site = {
    currency: order.site_currency ?? order.currency,
    default_currency_token: order.currency_token ?? order.currency,
    default_currency_place: order.currency_place ?? 'left',
  }
  return (minor) => mailMoney(minor, order.currency, { country, locale, site })
}

/**
 * What every order mail says besides its own part: the greeting's name, the code and the link to the order.
 *
 * @example
 * t('mail.order_refunded_body', { ...orderMailParams(order, linkTemplate), amount })
 */
export function orderMailParams(order: MailedOrder, linkTemplate: string) {
  return {
    name: withoutDirectionControls(order.first_name),
    code: order.code,
    link: linkTemplate.replace('{market}', order.market).replace('{code}', order.code),
  }
}

/** An order's mail's common parts: the order, its texts, its money format and its common parameters. */
async function orderMailParts(db: D1Database, orderId: number, linkTemplate: string) {
  const order = await mailedOrder(db, orderId)
  if (!order) return null
  const locale = orderMailLocale(order)
  const t = await mailTexts(db, locale, ['mail.order_'])
  return { order, t, money: orderMoney(order, locale), params: orderMailParams(order, linkTemplate) }
}

/**
 * The "your order has shipped" mail (`order_shipped`), in the order's language: the carrier, the tracking number, the
 * carrier's tracking page where it has one, and the link to the order. Null when the order is gone.
 *
 * @example
 * const mail = await shippedMail(db, order.id, { carrier: 'ups', trackingCode: '1Z999AA1' }, linkTemplate)
 */
export async function shippedMail(
  db: D1Database,
  orderId: number,
  { carrier, trackingCode }: { carrier: Carrier; trackingCode: string },
  linkTemplate: string,
): Promise<Mail | null> {
  const parts = await orderMailParts(db, orderId, linkTemplate)
  if (!parts) return null
  const { order, t, params } = parts
  const page = trackingUrl(carrier, trackingCode)
  const all = {
    ...params,
    carrier: CARRIER_NAMES[carrier],
    tracking: page ? `${trackingCode}\n${page}` : trackingCode,
  }
  return {
    recipient: order.email,
    subject: t('mail.order_shipped_subject', all),
    body: t('mail.order_shipped_body', all),
    kind: 'order_shipped',
  }
}

/**
 * The "we have refunded" mail (`order_refunded`), in the order's language, with the amount refunded now in the
 * market's format. Null when the order is gone.
 */
export async function refundedMail(
  db: D1Database,
  orderId: number,
  amount: number,
  linkTemplate: string,
): Promise<Mail | null> {
  const parts = await orderMailParts(db, orderId, linkTemplate)
  if (!parts) return null
  const { order, t, money, params } = parts
  const all = { ...params, amount: money(amount) }
  return {
    recipient: order.email,
    subject: t('mail.order_refunded_subject', all),
    body: t('mail.order_refunded_body', all),
    kind: 'order_refunded',
  }
}
