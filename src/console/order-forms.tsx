import { CARRIER_NAMES, CARRIERS } from '../../contract/carriers'
import type { StaffOrder } from '../../contract/staff-schemas'
import { ButtonForm } from './components'
import { majorUnits } from './money'

/** What an order's forms show after a refusal: its message, each field's error, and what was typed. */
export type OrderFormState = {
  refusal?: string
  errors?: Partial<Record<'amount' | 'refund_amount' | 'carrier' | 'tracking_code', string>>
  values?: Record<string, string>
}

/** Where an order may be refunded from (the API decides; the console offers the form there only). */
const REFUNDABLE = ['paid', 'processing', 'shipped', 'delivered']

/**
 * The actions an order's state allows, each a form (no script): mark a bank transfer paid (the amount received),
 * ship (carrier and tracking number), cancel an unpaid order, refund part or all of what is left. The API refuses an
 * action the state no longer allows (409), whatever the page showed.
 */
export function OrderActions({ order, state }: { order: StaffOrder; state: OrderFormState }) {
  const path = `/_console/orders/${order.code}`
  const unpaid = order.status === 'pending_payment' && order.payment.state !== 'paid'
  const pending = order.refunds.filter((refund) => refund.state === 'pending').reduce((sum, r) => sum + r.amount, 0)
  const left = order.total - order.refunded - pending
  const forms = [
    unpaid && order.payment.method === 'bank_transfer' && (
      <form key="paid" className="text-form" method="post" action={`${path}/paid`} aria-labelledby="paid-title">
        <h3 id="paid-title">Bank transfer received</h3>
        <AmountField
          name="amount"
          label={`Amount received (${order.currency})`}
          value={state.values?.amount ?? ''}
          error={state.errors?.amount}
        />
        <button type="submit" className="button primary">
          Mark as paid
        </button>
      </form>
    ),
    ['paid', 'processing'].includes(order.status) && order.delivery.method === 'home' && (
      <form key="ship" className="text-form" method="post" action={`${path}/ship`} aria-labelledby="ship-title">
        <h3 id="ship-title">Ship</h3>
        <div className="field">
          <label htmlFor="field-carrier">Carrier</label>
          <select id="field-carrier" name="carrier" defaultValue={state.values?.carrier ?? ''} required>
            <option value="">Choose the carrier</option>
            {CARRIERS.map((carrier) => (
              <option key={carrier} value={carrier}>
                {CARRIER_NAMES[carrier]}
              </option>
            ))}
          </select>
          {state.errors?.carrier && <p className="field-error">{state.errors.carrier}</p>}
        </div>
        <div className="field">
          <label htmlFor="field-tracking_code">Tracking number</label>
          {state.errors?.tracking_code && (
            <p className="field-error" id="error-tracking_code">
              {state.errors.tracking_code}
            </p>
          )}
          <input
            id="field-tracking_code"
            type="text"
            name="tracking_code"
            autoComplete="off"
            defaultValue={state.values?.tracking_code ?? ''}
            aria-invalid={state.errors?.tracking_code ? true : undefined}
            aria-describedby={state.errors?.tracking_code ? 'error-tracking_code' : undefined}
          />
        </div>
        <button type="submit" className="button primary">
          Mark as shipped
        </button>
      </form>
    ),
    REFUNDABLE.includes(order.status) && order.payment.state === 'paid' && order.payment_id && left > 0 && (
      <form key="refund" className="text-form" method="post" action={`${path}/refund`} aria-labelledby="refund-title">
        <h3 id="refund-title">Refund</h3>
        <p className="hint">{`At most ${majorUnits(left, order.currency)} ${order.currency}, through the payment provider.`}</p>
        <AmountField
          name="refund_amount"
          label={`Amount to refund (${order.currency})`}
          value={state.values?.refund_amount ?? majorUnits(left, order.currency)}
          error={state.errors?.refund_amount}
        />
        <button type="submit" className="button danger">
          Refund
        </button>
      </form>
    ),
    unpaid && <ButtonForm key="cancel" action={`${path}/cancel`} label="Cancel the order" tone="danger" />,
  ].filter(Boolean)
  if (!forms.length) return null
  return (
    <section aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {forms}
    </section>
  )
}

function AmountField({ name, label, value, error }: { name: string; label: string; value: string; error?: string }) {
  const id = `field-${name}`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {error && (
        <p className="field-error" id={`error-${name}`}>
          {error}
        </p>
      )}
      <input
        id={id}
        type="text"
        inputMode="decimal"
        name={name}
        autoComplete="off"
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `error-${name}` : undefined}
      />
    </div>
  )
}
