import { Fragment, type ReactNode } from 'react'
import { sizeName } from '../../catalogue/size-name'
import type { View } from '../../components/view'
import type { Order } from '../../../contract/account-schemas'

/**
 * A left-to-right run (an order code, a SKU, a phone number, a postcode, an e-mail address, an IBAN) isolated from
 * the text around it, so a right-to-left page never reorders its characters or pulls the punctuation beside it.
 */
export const Ltr = ({ children }: { children: ReactNode }) => <bdi dir="ltr">{children}</bdi>

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0001 marks a slot in a translated text, never typed by anyone
const SLOT = /\u0001([a-z_]+)\u0001/

/** A translated text whose `{{params}}` are elements (an isolated code, a link) rather than plain strings. */
export function translated(view: View, key: string, params: Record<string, ReactNode>): ReactNode {
  const marked = Object.fromEntries(Object.keys(params).map((name) => [name, `\u0001${name}\u0001`]))
  const parts = view.t(key, marked).split(SLOT)
  // split() with a capture group alternates text and slot names: text, name, text, name, text.
  return parts.map((part, index) => <Fragment key={index}>{index % 2 === 1 ? params[part] : part}</Fragment>)
}

/**
 * An order line's variant in the page's language: its size and its colour named by `colour.{key}` when the line
 * knows its SKU (every line placed through checkout), else the text stored when it was placed.
 */
export function variantName(
  view: View,
  item: Pick<Order['items'][number], 'variant' | 'size' | 'colour'>,
): string | null {
  if (item.size && item.colour) {
    const size = sizeName(view.t, item.size)
    return view.t('cart.variant', { size: `\u2068${size}\u2069`, colour: view.t(`colour.${item.colour}`) })
  }
  return item.variant ?? null
}
