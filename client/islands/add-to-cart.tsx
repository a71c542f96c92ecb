import { type FormEvent, useEffect, useState } from 'react'

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
  /** Only a few left: marked with a dot the note below explains. */
  low: boolean
}

export type AddToCartProps = {
  action: string
  product: string
  /** The form's key: the same form sent twice adds once. */
  formKey: string
  options: BuyOption[]
  maxQuantity: number
  texts: { choose: string; quantity: string; add: string; adding: string; failed: string; viewCart: string; soldOut: string; low: string }
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
  // Marked once hydrated: until then the form is the plain one, and its post a page load.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])

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
    <form method="post" action={action} className="buy-box" onSubmit={submit} data-hydrated={hydrated ? '' : undefined}>
      <input type="hidden" name="product" value={product} />
      <input type="hidden" name="key" value={formKey} />
      <fieldset className="buy-options">
        <legend>{texts.choose}</legend>
        {byColour(options).map((group) => {
          const samePrice = group.every((option) => option.price === group[0]!.price)
          return (
            <div key={group[0]!.colour} className="buy-colour">
              <p className="buy-colour-name" aria-hidden="true">
                <span className={`swatch swatch-${group[0]!.colour}`} /> {group[0]!.colourName}
                {samePrice && <span className="buy-colour-price">{group[0]!.price}</span>}
              </p>
              <div className="buy-sizes">
                {group.map((option) => (
                  <label key={option.sku} className={`buy-size${option.disabled ? ' disabled' : ''}${option.low ? ' low' : ''}`}>
                    <input type="radio" name="sku" value={option.sku} defaultChecked={option.sku === first?.sku} disabled={option.disabled} required />
                    <span className="buy-size-label">
                      <span aria-hidden="true">{option.size}</span>
                      {!samePrice && <span className="buy-size-price" aria-hidden="true">{option.price}</span>}
                      <span className="visually-hidden">
                        {`${option.size}, ${option.colourName}, ${option.price}, ${option.disabled ? texts.soldOut : option.availability}`}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </div>
          )
        })}
        {options.some((option) => option.low) && (
          <p className="buy-low-note">
            <span className="buy-low-dot" aria-hidden="true" /> {texts.low}
          </p>
        )}
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

/** The options grouped by colour, in their order: one row of sizes per colour. */
function byColour(options: BuyOption[]): BuyOption[][] {
  const groups = new Map<string, BuyOption[]>()
  for (const option of options) groups.set(option.colour, [...(groups.get(option.colour) ?? []), option])
  return [...groups.values()]
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
