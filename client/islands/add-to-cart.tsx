import { type FormEvent, useState } from 'react'

/** One variant as the buy box offers it: its texts come from the server in the market's language. */
export type BuyOption = {
  sku: string
  size: string
  colour: string
  colourName: string
  price: string
  availability: string
  /** Out of stock: shown, but cannot be chosen. */
  disabled: boolean
}

export type AddToCartProps = {
  action: string
  product: string
  /** The form's key: the same form sent twice adds once. */
  formKey: string
  options: BuyOption[]
  maxQuantity: number
  texts: { choose: string; quantity: string; add: string; adding: string; failed: string; viewCart: string; soldOut: string }
  cartUrl: string
}

/**
 * The product page's "add to cart" form. Without JavaScript it is a plain form: its POST comes back to the product
 * with a notice. Hydrated, it posts the same form with fetch (asking for JSON), says what happened in its own live
 * region and updates the header's cart count, without a reload.
 */
export default function AddToCart({ action, product, formKey, options, maxQuantity, texts, cartUrl }: AddToCartProps) {
  const [state, setState] = useState<{ busy: boolean; message: string; ok: boolean }>({ busy: false, message: '', ok: true })
  const first = options.find((option) => !option.disabled)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (state.busy) return
    const form = event.currentTarget
    setState({ busy: true, message: '', ok: true })
    try {
      const response = await fetch(action, {
        method: 'POST',
        body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      })
      const answer = (await response.json()) as { ok: boolean; count: number | null; message: string }
      if (answer.ok && answer.count !== null) showCount(answer.count)
      setState({ busy: false, message: answer.message, ok: answer.ok })
    } catch {
      setState({ busy: false, message: texts.failed, ok: false })
    }
  }

  return (
    <form method="post" action={action} className="buy-box" onSubmit={submit}>
      <input type="hidden" name="product" value={product} />
      <input type="hidden" name="key" value={formKey} />
      <fieldset className="buy-options">
        <legend>{texts.choose}</legend>
        {options.map((option) => (
          <label key={option.sku} className={`buy-option${option.disabled ? ' disabled' : ''}`}>
            <input type="radio" name="sku" value={option.sku} defaultChecked={option.sku === first?.sku} disabled={option.disabled} required />
            <span className="buy-option-body">
              <span className="buy-option-size">{option.size}</span>
              <span className="buy-option-colour">
                <span className={`swatch swatch-${option.colour}`} aria-hidden="true" /> {option.colourName}
              </span>
              <span className="buy-option-price">{option.price}</span>
              <span className="buy-option-availability">{option.disabled ? texts.soldOut : option.availability}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="buy-row">
        <label className="buy-quantity">
          <span>{texts.quantity}</span>
          <select name="quantity" defaultValue="1">
            {Array.from({ length: maxQuantity }, (_, index) => index + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button buy-submit" disabled={!first || state.busy} aria-disabled={state.busy || undefined}>
          {state.busy ? texts.adding : texts.add}
        </button>
      </div>
      <p className={`buy-message${state.ok ? '' : ' failed'}`} role="status">
        {state.message}
        {state.message && state.ok && (
          <>
            {' '}
            <a href={cartUrl}>{texts.viewCart}</a>
          </>
        )}
      </p>
    </form>
  )
}

/** The header's cart count, as the server would render it for this many items. */
function showCount(count: number) {
  for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-count]')) {
    badge.textContent = String(count)
    badge.hidden = count === 0
  }
  for (const text of document.querySelectorAll<HTMLElement>('[data-cart-count-text]')) {
    const template = text.closest('[data-cart-link]')?.getAttribute('data-count-template') ?? '{{count}}'
    text.textContent = template.replace('{{count}}', String(count))
  }
}
