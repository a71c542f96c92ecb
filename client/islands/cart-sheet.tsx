import { useEffect, useRef } from 'react'

/** What the cart answered for an add, as the mini-cart shows it: texts and amounts in the market's language. */
export type AddedToCart = {
  line: { name: string; image: string | null; size: string; colour: string; quantity: number; price: string }
  /** The cart's subtotal after the add. */
  subtotal: string
  /** The checkout of this cart where the market has one, else the cart page. */
  checkoutUrl: string
}

export type CartSheetTexts = {
  title: string
  close: string
  quantity: string
  subtotal: string
  checkout: string
  continue: string
}

/**
 * The mini-cart after an add: a modal dialog (a sheet at the bottom of a phone, a panel at the side on wider screens)
 * with the line added, the cart's subtotal, "checkout" and "continue shopping". It takes the focus and closes with
 * Escape, its close button or "continue shopping" (`onClose`, which gives the focus back to the button that added).
 */
export function CartSheet({
  added,
  texts,
  onClose,
}: {
  added: AddedToCart
  texts: CartSheetTexts
  onClose: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (!element.open) element.showModal()
    element.querySelector<HTMLElement>('.cart-sheet-checkout')?.focus()
    element.addEventListener('close', onClose)
    return () => element.removeEventListener('close', onClose)
  }, [onClose])
  const { line } = added
  return (
    <dialog ref={dialog} className="cart-sheet" aria-labelledby="cart-sheet-title">
      <div className="cart-sheet-head">
        <h2 id="cart-sheet-title">{texts.title}</h2>
        <button type="button" className="cart-sheet-close" onClick={() => dialog.current?.close()}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">{texts.close}</span>
        </button>
      </div>
      <div className="cart-sheet-line">
        {line.image && <img src={line.image} alt="" width={96} height={64} decoding="async" />}
        <div>
          <p className="cart-sheet-name">{line.name}</p>
          <p className="meta">
            <bdi>{line.size}</bdi> · {line.colour} · {texts.quantity}: {line.quantity}
          </p>
          <p className="cart-sheet-price">{line.price}</p>
        </div>
      </div>
      <p className="cart-sheet-subtotal">
        <span>{texts.subtotal}</span> <strong>{added.subtotal}</strong>
      </p>
      <div className="cart-sheet-actions">
        <a className="button cart-sheet-checkout" href={added.checkoutUrl}>
          {texts.checkout}
        </a>
        <button type="button" className="button secondary" onClick={() => dialog.current?.close()}>
          {texts.continue}
        </button>
      </div>
    </dialog>
  )
}
