import { type FormEvent, type MouseEvent, useCallback, useEffect, useRef, useState } from 'react'
import { type AddedToCart, CartSheet, type CartSheetTexts } from './cart-sheet'

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

/**
 * One of the product's colours, in the variants' order: its key, translated name, whether it has pictures of its own,
 * and its price as the buy box shows it ("From …" where its sizes cost differently).
 */
export type PickerColour = { key: string; name: string; pictures: boolean; price: string }

export type AddToCartProps = {
  /** Where the form posts; null in a market that does not sell online: the colours only (to show their pictures). */
  action: string | null
  product: string
  /** The form's key: the same form sent twice adds once. */
  formKey: string
  colours: PickerColour[]
  options: BuyOption[]
  maxQuantity: number
  /** The product's price ("From …" where variants cost differently): the phone's buy bar before a size is chosen. */
  price: string
  /** "Price" before the buy box's price, for assistive technology. */
  priceLabel: string
  /** A link beside the sizes' title (the size guide), where the page has one. */
  sizeGuide?: { href: string; text: string }
  texts: {
    colour: string
    size: string
    chooseSize: string
    quantity: string
    add: string
    adding: string
    failed: string
    viewCart: string
    soldOut: string
    low: string
  }
  /** The mini-cart's texts (shown after an add that went through). */
  sheet: CartSheetTexts
  cartUrl: string
}

/**
 * The product page's price, colours, sizes and "add to cart". Without JavaScript it is a plain form: the colours are
 * radios (`colour`), each colour's sizes a radio group of its own (`sku-{colour}`, the variant's SKU as value, those
 * out of stock disabled), so the server adds the size chosen in the colour chosen; the page's styles show the chosen
 * colour's price, sizes and pictures. Stock notes speak of the chosen colour and size only. Hydrated, it posts the same
 * form with fetch (asking for JSON), updates the header's cart count without a reload and opens the mini-cart
 * (`cart-sheet.tsx`); on phones a bar with the price and the action stays in view while the form is scrolled away.
 * Where the market does not sell online it shows the colours alone, for their pictures.
 */
/** A new form key: 32 hexadecimal digits. */
const freshKey = () => crypto.randomUUID().replace(/-/g, '')

export default function AddToCart({
  action,
  product,
  formKey,
  colours,
  options,
  maxQuantity,
  price,
  priceLabel,
  sizeGuide,
  texts,
  sheet,
  cartUrl,
}: AddToCartProps) {
  const [colour, setColour] = useState(colours[0]?.key ?? '')
  // The size chosen in each colour; a colour that comes in one size only has it chosen (an accessory's one size).
  const [chosen, setChosen] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      colours.map((c) => {
        const [only, ...others] = options.filter((option) => option.colour === c.key)
        return [c.key, only && others.length === 0 && !only.disabled ? only.sku : '']
      }),
    ),
  )
  const [state, setState] = useState<{ busy: boolean; message: string; ok: boolean }>({
    busy: false,
    message: '',
    ok: true,
  })
  // Marked once hydrated: until then the form is the plain one, and its post a page load.
  const [hydrated, setHydrated] = useState(false)
  const [rowInView, setRowInView] = useState(false)
  const [added, setAdded] = useState<AddedToCart | null>(null)
  // The button that added (the form's or the phone's bar's): the focus goes back there when the mini-cart closes.
  const adder = useRef<HTMLElement | null>(null)
  const closeSheet = useCallback(() => {
    setAdded(null)
    adder.current?.focus({ preventScroll: true })
  }, [])
  const row = useRef<HTMLDivElement>(null)
  // The page (and its key) may come from the page cache, the same for every visit: each page view and each add that
  // went through takes a key of its own, so only a double click or a resubmission is taken for the same add.
  const key = useRef(formKey)
  useEffect(() => {
    key.current = freshKey()
    setHydrated(true)
  }, [])
  useEffect(() => {
    if (!row.current || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(([entry]) => setRowInView(entry?.isIntersecting ?? false))
    observer.observe(row.current)
    return () => observer.disconnect()
  }, [])
  const option = options.find((candidate) => candidate.sku === chosen[colour])
  const sells = action !== null

  function chooseColour(key: string) {
    setColour(key)
    // The gallery starts again at the colour's first picture.
    document.querySelector('.gallery-list')?.scrollTo({ left: 0 })
  }

  /** Brings the chosen colour's sizes into view and focuses the first that can be chosen. */
  function showSizes(event?: MouseEvent) {
    event?.preventDefault()
    const group = document.getElementById(`sizes-${colour}`)
    group?.scrollIntoView({ block: 'center', behavior: 'smooth' })
    group?.querySelector<HTMLInputElement>('input:not(:disabled)')?.focus({ preventScroll: true })
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (state.busy) return
    if (!option) {
      setState({ busy: false, message: texts.chooseSize, ok: false })
      showSizes()
      return
    }
    const form = event.currentTarget
    adder.current = (event.nativeEvent as SubmitEvent).submitter ?? form.querySelector('.buy-submit')
    setState({ busy: true, message: '', ok: true })
    try {
      const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>)
      body.set('key', key.current)
      const response = await fetch(form.action, {
        method: 'POST',
        body,
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      })
      const answer = (await response.json()) as {
        ok: boolean
        count: number | null
        message: string
        added?: AddedToCart | null
      }
      if (answer.ok) key.current = freshKey()
      if (answer.ok && answer.count !== null) showCount(answer.count)
      setState({ busy: false, message: answer.message, ok: answer.ok })
      if (answer.ok && answer.added) setAdded(answer.added)
    } catch {
      setState({ busy: false, message: texts.failed, ok: false })
    }
  }

  // The price once: the chosen colour's (the page's styles show the checked colour's line without JavaScript too).
  const samePrice = colours.every((c) => c.price === colours[0]?.price)
  const priceLines = samePrice ? (
    <p className="price buy-price">
      <span className="visually-hidden">{priceLabel}: </span>
      {colours[0]?.price}
    </p>
  ) : (
    colours.map((c) => (
      <p key={c.key} className="price buy-price" data-colour={c.key}>
        <span className="visually-hidden">{priceLabel}: </span>
        {c.price}
      </p>
    ))
  )

  const colourPicker = (
    <fieldset className="pick-colours">
      <legend className="pick-title">{texts.colour}</legend>
      <div className="swatches">
        {colours.map((c) => (
          <label key={c.key} className="swatch-option">
            <input
              type="radio"
              name="colour"
              value={c.key}
              className="colour-input"
              data-pictures={c.pictures ? '' : undefined}
              checked={colour === c.key}
              onChange={() => chooseColour(c.key)}
            />
            <span className={`swatch swatch-${c.key}`} aria-hidden="true" />
            <span className="swatch-name">{c.name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  )

  const picker = (
    <>
      {priceLines}
      {colourPicker}
      <div className="pick-sizes" id="sizes">
        {colours.map((c) => {
          const group = options.filter((candidate) => candidate.colour === c.key)
          const sizesCostTheSame = group.every((candidate) => candidate.price === group[0]?.price)
          return (
            <fieldset key={c.key} className="size-group" data-colour={c.key} id={`sizes-${c.key}`}>
              <legend className="pick-title">
                {texts.size}
                <span className="visually-hidden"> ({c.name})</span>
              </legend>
              {sizeGuide && (
                <a className="size-guide-link" href={sizeGuide.href} onClick={() => openSizeGuide(sizeGuide.href)}>
                  {sizeGuide.text}
                </a>
              )}
              <div className="sizes">
                {group.map((variant) => {
                  const name = `${variant.size}, ${variant.colourName}, ${variant.price}, ${variant.disabled ? texts.soldOut : variant.availability}`
                  const className = `buy-size${variant.disabled ? ' disabled' : ''}${variant.low ? ' low' : ''}`
                  return (
                    <label key={variant.sku} className={className}>
                      <input
                        type="radio"
                        name={`sku-${c.key}`}
                        value={variant.sku}
                        disabled={variant.disabled}
                        checked={chosen[c.key] === variant.sku}
                        onChange={() => setChosen((current) => ({ ...current, [c.key]: variant.sku }))}
                      />
                      <span className="buy-size-label">
                        <span aria-hidden="true">{variant.size}</span>
                        {!sizesCostTheSame && (
                          <span className="buy-size-price" aria-hidden="true">
                            {variant.price}
                          </span>
                        )}
                        <span className="visually-hidden">{name}</span>
                      </span>
                    </label>
                  )
                })}
              </div>
              {group.some((candidate) => candidate.low) && !chosen[c.key] && (
                <p className="buy-low-note">
                  <span className="buy-low-dot" aria-hidden="true" /> {texts.low}
                </p>
              )}
            </fieldset>
          )
        })}
        <p className={`buy-stock${option?.low ? ' low' : ''}`} aria-live="polite">
          {option && (
            <>
              {option.low && <span className="buy-low-dot" aria-hidden="true" />}
              <bdi>{option.size}</bdi> · {option.availability}
            </>
          )}
        </p>
      </div>
    </>
  )

  if (!sells) return <div className="buy-box buy-box-info">{colourPicker}</div>

  return (
    <form method="post" action={action} className="buy-box" onSubmit={submit} data-hydrated={hydrated ? '' : undefined}>
      <input type="hidden" name="product" value={product} />
      <input type="hidden" name="key" value={formKey} />
      {picker}
      <div className="buy-row" ref={row}>
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
        <button
          type="submit"
          className="button buy-submit"
          disabled={state.busy}
          aria-disabled={state.busy || undefined}
        >
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
      <div className="buy-bar" data-away={rowInView ? undefined : ''}>
        <p className="buy-bar-price">
          {option ? (
            <>
              <bdi>{option.size}</bdi> · {option.colourName} · {option.price}
            </>
          ) : (
            price
          )}
        </p>
        {option ? (
          <button type="submit" className="button buy-bar-action" disabled={state.busy}>
            {state.busy ? texts.adding : texts.add}
          </button>
        ) : (
          // biome-ignore lint/a11y/useValidAnchor: a link to the sizes that works without JavaScript; with it, it also opens them
          <a className="button buy-bar-action" href="#sizes" onClick={showSizes}>
            {texts.chooseSize}
          </a>
        )}
      </div>
      {added && <CartSheet added={added} texts={sheet} onClose={closeSheet} />}
    </form>
  )
}

/** The header's cart count, as the server would render it for this many items. */
function showCount(count: number) {
  for (const badge of document.querySelectorAll<HTMLElement>('[data-cart-count]')) {
    // An empty badge is out of sight (client/styles/s38a.css): no number for an empty cart.
    badge.textContent = count ? String(count) : ''
  }
  for (const text of document.querySelectorAll<HTMLElement>('[data-cart-count-text]')) {
    const template = text.closest('[data-cart-link]')?.getAttribute('data-count-template') ?? '{{count}}'
    text.textContent = template.replace('{{count}}', String(count))
  }
}

/** The size guide is a `<details>`: following the link to it opens it too (a link alone only scrolls there). */
function openSizeGuide(href: string): void {
  const guide = document.getElementById(href.slice(1))
  if (guide instanceof HTMLDetailsElement) guide.open = true
}
