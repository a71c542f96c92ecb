import { renderToStaticMarkup } from 'react-dom/server'
import { AccountMenu } from '../components/header'
import type { View } from '../components/view'

/** A visitor's own parts of a cached page: the account menu (logged in) and the cart count (with a cart). */
export type PersonalParts = {
  /** The logged-in visitor's name, or null. */
  name: string | null
  /** The header's cart count and its spoken text, or null (no cart). */
  cart: { count: number; text: string } | null
}

const NAME_SLOT = 'page-cache-viewer-name'
/** The logged-in account menu of each market (and page version), rendered once per isolate with a slot for the name. */
const menus = new Map<string, string>()
const MENUS_LIMIT = 200

/** The account menu of a view's market, with the slot where each visitor's name goes. */
function menuTemplate(view: View, home: string, version: string): string {
  const key = `${view.market?.segment}|${view.locale}|${version}`
  let menu = menus.get(key)
  if (menu === undefined) {
    if (menus.size >= MENUS_LIMIT) menus.clear()
    menu = renderToStaticMarkup(<AccountMenu view={{ ...view, viewer: { name: NAME_SLOT } }} home={home} />)
    menus.set(key, menu)
  }
  return menu
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string)

/**
 * Puts a visitor's parts into a cached page as it streams through `HTMLRewriter` (no second render): the header's
 * login link (`[data-account]`) becomes their account menu, the cart count (`[data-cart-count]`, hidden when empty)
 * shows their number and its spoken text (`[data-cart-count-text]`).
 *
 * @example
 * stitch(cachedAnswer, { name: 'Giulia', cart: { count: 2, text: '2 articoli nel carrello' } }, { view, home, version })
 */
export function stitch(response: Response, parts: PersonalParts, menu: { view: View; home: string; version: string }): Response {
  let rewriter = new HTMLRewriter()
  const name = parts.name
  if (name !== null) {
    const html = menuTemplate(menu.view, menu.home, menu.version).replace(NAME_SLOT, () => escapeHtml(name))
    rewriter = rewriter.on('[data-account]', { element: (element) => void element.replace(html, { html: true }) })
  }
  const cart = parts.cart
  if (cart) {
    rewriter = rewriter
      .on('[data-cart-count]', {
        element: (element) => {
          element.removeAttribute('hidden')
          element.setInnerContent(String(cart.count))
        },
      })
      .on('[data-cart-count-text]', { element: (element) => void element.setInnerContent(cart.text) })
  }
  return rewriter.transform(response)
}
