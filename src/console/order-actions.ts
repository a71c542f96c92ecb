import type { Context } from 'hono'
import { configOf } from '../config'
import type { AppEnv } from '../env'
import { PageError } from '../errors/page-error'
import { readForm } from '../forms/read-form'
import { errorName, logEvent } from '../ops/log'
import { paymentProviderOf } from '../payments/providers'
import { sendRedirect } from '../render/respond'
import { staffOrderCalls } from '../upstream/contract/staff-orders'
import { type Outcome, unlessRefused } from '../upstream/errors'
import { CARRIERS, type Carrier, TRACKING_NUMBER } from '../../contract/carriers'
import type { StaffOrder } from '../../contract/staff-schemas'
import { minorUnitsOf } from './money'
import { ORDERS_PATH, consoleOrderCode, sendOrderPage } from './orders'

/**
 * The order actions of the console (docs/decisions/049), each a form posted from the order's page: what was typed is
 * checked here (422, the page again with the field's error), the action is the API's (recorded with who and when; a
 * state that does not allow it: 409, the page with the API's message), then 303 back to the order with `?done=`.
 */

/** The order, or the console's 404. */
async function orderOr404(c: Context<AppEnv>, code: string): Promise<StaffOrder> {
  const order = await staffOrderCalls(c.var.staffApi).order(code)
  if (!order) throw PageError.notFound('')
  return order
}

/** Where the customer's mails about an order link to: their account's order, on the site's public origin. */
function orderLinkTemplate(c: Context<AppEnv>): string {
  const origin = configOf(c.env).publicOrigin
  if (!origin) throw PageError.unavailable()
  return `${origin}/{market}/my-account/orders/{code}`
}

/** An action's answer: back to the order with what was done, or its refusal on the order's page (409). */
async function afterAction(
  c: Context<AppEnv>,
  order: StaffOrder,
  outcome: Outcome<unknown>,
  done: string,
  values: Record<string, string>,
): Promise<Response> {
  if (outcome.refused)
    return sendOrderPage(c, order, { status: 409, refusal: outcome.refused.rejection.message, values })
  if (outcome.answer === null) throw PageError.notFound('')
  return sendRedirect(c, `${ORDERS_PATH}/${order.code}?done=${done}`, 303)
}

/** `POST /_console/orders/{code}/paid`: a bank transfer received; `amount` must be the total due. */
export async function markOrderPaid(c: Context<AppEnv>): Promise<Response> {
  const order = await orderOr404(c, consoleOrderCode(c))
  const form = await readForm(c)
  const amount = minorUnitsOf(form.amount, order.currency)
  if (amount === null)
    return sendOrderPage(c, order, {
      status: 422,
      errors: { amount: `Type the amount received in ${order.currency}, such as 1749.00.` },
      values: form,
    })
  const call = staffOrderCalls(c.var.staffApi).markPaid(order.code, amount, orderLinkTemplate(c))
  return afterAction(c, order, await unlessRefused(call, [409]), 'paid', form)
}

/** `POST /_console/orders/{code}/ship`: a carrier and its tracking number; the customer is mailed. */
export async function shipOrder(c: Context<AppEnv>): Promise<Response> {
  const order = await orderOr404(c, consoleOrderCode(c))
  const form = await readForm(c)
  const carrier = (CARRIERS as readonly string[]).includes(form.carrier ?? '') ? (form.carrier as Carrier) : null
  const trackingCode = (form.tracking_code ?? '').trim().replace(/\s+/g, '')
  if (!carrier || !TRACKING_NUMBER.test(trackingCode))
    return sendOrderPage(c, order, {
      status: 422,
      errors: {
        ...(carrier ? {} : { carrier: 'Choose the carrier.' }),
        ...(TRACKING_NUMBER.test(trackingCode)
          ? {}
          : { tracking_code: 'Type the tracking number: 4 to 40 letters, digits or dashes.' }),
      },
      values: form,
    })
  const call = staffOrderCalls(c.var.staffApi).ship(order.code, { carrier, trackingCode }, orderLinkTemplate(c))
  return afterAction(c, order, await unlessRefused(call, [409]), 'shipped', form)
}

/**
 * `POST /_console/orders/{code}/cancel`: an unpaid order; its payment still open at the provider is closed, so the
 * buyer can no longer pay it (a provider that cannot be reached is logged: the order stays cancelled).
 */
export async function cancelOrder(c: Context<AppEnv>): Promise<Response> {
  const order = await orderOr404(c, consoleOrderCode(c))
  const outcome = await unlessRefused(staffOrderCalls(c.var.staffApi).cancel(order.code), [409])
  const paymentId = outcome.answer?.payment_id
  const choice = paymentId ? paymentProviderOf(c.env) : null
  if (paymentId && choice?.kind === 'ready')
    await choice.provider
      .cancelPayment(paymentId)
      .catch((error: unknown) => logEvent('error', 'payment_not_cancelled', { error: errorName(error) }))
  return afterAction(c, order, outcome, 'cancelled', {})
}

/**
 * `POST /_console/orders/{code}/refund`: the API records the refund as pending (never more than is left), then the
 * provider is asked for it with the refund's own idempotency key; its webhook confirms it. A provider that cannot be
 * reached leaves the refund pending and says so (503).
 */
export async function refundOrder(c: Context<AppEnv>): Promise<Response> {
  const order = await orderOr404(c, consoleOrderCode(c))
  const form = await readForm(c)
  const amount = minorUnitsOf(form.refund_amount, order.currency)
  if (amount === null)
    return sendOrderPage(c, order, {
      status: 422,
      errors: { refund_amount: `Type the amount to refund in ${order.currency}, such as 250.00.` },
      values: form,
    })
  const outcome = await unlessRefused(staffOrderCalls(c.var.staffApi).refund(order.code, amount), [409])
  const refund = outcome.answer
  if (!refund) return afterAction(c, order, outcome, 'refund', form)
  const choice = paymentProviderOf(c.env, { ctx: c.executionCtx })
  try {
    if (choice.kind !== 'ready') throw new Error(`payment provider ${choice.kind}`)
    await choice.provider.refund(refund.payment_id, refund.amount, refund.idempotency_key)
  } catch (error) {
    logEvent('error', 'refund_not_sent', { error: errorName(error) })
    return sendOrderPage(c, await orderOr404(c, order.code), {
      status: 503,
      refusal: 'The payment provider could not take the refund. It is recorded as pending and was not sent.',
    })
  }
  return sendRedirect(c, `${ORDERS_PATH}/${order.code}?done=refund`, 303)
}
