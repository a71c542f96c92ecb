import { renderToStaticMarkup } from 'react-dom/server'
import { AccountMenu } from '../components/header'
import type { View } from '../components/view'

/** A visitor's own parts of a cached page: the account menu (logged in) and the cart count (with a cart). */
export type PersonalParts = {
  /** The logged-in visitor's name, or null. */
  name: string | null
  /** The header's cart count, or null (no cart). */
  count: number | null
}

/**
 * What a market's personal parts are made of, once per isolate and page version: the logged-in account menu with a
 * slot for the name, and the cart count's spoken text with a slot for the number.
 */
export type PersonalTemplates = { readonly menu: string; readonly cartText: string }

const SLOT = '\u0000page-cache-slot\u0000'
const templates = new Map<string, PersonalTemplates>()
const TEMPLATES_LIMIT = 200
const templatesKey = (segment: string, version: string) => `${segment}|${version}`

/** The personal templates of a view's market, rendered the first time they are asked for (the app's page cache). */
export function personalTemplates(view: View, home: string, version: string): PersonalTemplates {
  const key = templatesKey(view.market?.segment ?? '', version)
  let known = templates.get(key)
  if (known === undefined) {
    if (templates.size >= TEMPLATES_LIMIT) templates.clear()
    known = {
      menu: renderToStaticMarkup(<AccountMenu view={{ ...view, viewer: { name: SLOT } }} home={home} />),
      cartText: view.t('cart.header_count', { count: SLOT }),
    }
    templates.set(key, known)
  }
  return known
}

/** The personal templates of a market as this isolate already has them (the early answer), else undefined. */
export const keptPersonalTemplates = (segment: string, version: string) => templates.get(templatesKey(segment, version))

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string)

/**
 * Puts a visitor's parts into a cached page as it streams through `HTMLRewriter` (no second render): the header's
 * login link (`[data-account]`) becomes their account menu, the cart count (`[data-cart-count]`, hidden when empty)
 * shows their number and its spoken text (`[data-cart-count-text]`).
 *
 * @example
 * stitch(cachedAnswer, { name: 'Giulia', count: 2 }, personalTemplates(view, home, version))
 */
export function stitch(response: Response, { name, count }: PersonalParts, { menu, cartText }: PersonalTemplates): Response {
  let rewriter = new HTMLRewriter()
  if (name !== null) {
    const html = menu.replace(SLOT, () => escapeHtml(name))
    rewriter = rewriter.on('[data-account]', { element: (element) => void element.replace(html, { html: true }) })
  }
  if (count) {
    rewriter = rewriter
      .on('[data-cart-count]', {
        element: (element) => {
          element.removeAttribute('hidden')
          element.setInnerContent(String(count))
        },
      })
      .on('[data-cart-count-text]', { element: (element) => void element.setInnerContent(cartText.replace(SLOT, String(count))) })
  }
  return rewriter.transform(response)
}
