import { renderToStaticMarkup } from 'react-dom/server'
import { isolateMemo } from '../cache/memo'
import { AccountMenu } from '../components/header'
import type { MarketView } from '../components/view'
import { answerOf, type PageEntry } from './store'

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
const templates = isolateMemo<PersonalTemplates>({ limit: 200 })
const templatesKey = (segment: string, version: string) => `${segment}|${version}`

/** The personal templates of a view's market, rendered the first time they are asked for (the app's page cache). */
export function personalTemplates(view: MarketView, home: string, version: string): PersonalTemplates {
  const key = templatesKey(view.market.segment, version)
  return templates.remember(key, () => ({
    menu: renderToStaticMarkup(<AccountMenu view={{ ...view, viewer: { name: SLOT } }} home={home} />),
    cartText: view.t('cart.header_count', { count: SLOT }),
  }))
}

/** The personal templates of a market as this isolate already has them (the early answer), else undefined. */
export const keptPersonalTemplates = (segment: string, version: string) => templates.get(templatesKey(segment, version))

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string)

/**
 * Puts a visitor's parts into a cached page as it streams through `HTMLRewriter` (no second render): the header's
 * login link (`[data-account]`) becomes their account menu, the cart count (`[data-cart-count]`, out of sight when empty)
 * shows their number and its spoken text (`[data-cart-count-text]`).
 *
 * @example
 * stitch(cachedAnswer, { name: 'Giulia', count: 2 }, personalTemplates(view, home, version))
 */
export function stitch(
  response: Response,
  { name, count }: PersonalParts,
  { menu, cartText }: PersonalTemplates,
): Response {
  let rewriter = new HTMLRewriter()
  if (name !== null) {
    const html = menu.replace(SLOT, () => escapeHtml(name))
    rewriter = rewriter.on('[data-account]', { element: (element) => void element.replace(html, { html: true }) })
  }
  if (count) {
    rewriter = rewriter
      .on('[data-cart-count]', {
        element: (element) => void element.setInnerContent(String(count)),
      })
      .on('[data-cart-count-text]', {
        element: (element) => void element.setInnerContent(cartText.replace(SLOT, String(count))),
      })
  }
  return rewriter.transform(response)
}

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))
const MARKERS = ['data-account', 'data-cart-count'].map(ascii)
const HEADER_END = ascii('</header>')

/** Where a byte pattern starts in a page, searching from `from` (or backwards from the end), or -1. */
function indexOfBytes(bytes: Uint8Array, pattern: Uint8Array, from = 0, backwards = false): number {
  const last = bytes.length - pattern.length
  for (let i = backwards ? last : from; backwards ? i >= 0 : i <= last; backwards ? i-- : i++) {
    let j = 0
    while (j < pattern.length && bytes[i + j] === pattern[j]) j++
    if (j === pattern.length) return i
  }
  return -1
}

/**
 * Where a page's personal parts end: just after the `</header>` that follows the last of them (the header holds them
 * all), or the page's length when there is none or one lies beyond. Computed once, when the page is kept.
 */
export function personalEndOf(body: ArrayBuffer): number {
  const bytes = new Uint8Array(body)
  const last = Math.max(...MARKERS.map((marker) => indexOfBytes(bytes, marker, 0, true)))
  const end = last < 0 ? -1 : indexOfBytes(bytes, HEADER_END, last)
  return end < 0 ? bytes.length : end + HEADER_END.length
}

/**
 * A kept page's answer with a visitor's parts: only its start, up to `personalEnd`, goes through `HTMLRewriter`; the
 * rest is joined to it as it is kept (a long page costs no more to stitch than a short one). No `ETag`: the answer is
 * theirs.
 */
export async function stitchEntry(
  entry: PageEntry,
  method: string,
  parts: PersonalParts,
  templates: PersonalTemplates,
): Promise<Response> {
  const answer = answerOf(entry, method)
  answer.headers.delete('ETag')
  const end = entry.personalEnd ?? entry.body.byteLength
  if (method === 'HEAD' || end >= entry.body.byteLength) return stitch(answer, parts, templates)
  const start = new Uint8Array(
    await stitch(new Response(new Uint8Array(entry.body, 0, end)), parts, templates).arrayBuffer(),
  )
  const bytes = new Uint8Array(start.byteLength + entry.body.byteLength - end)
  bytes.set(start)
  bytes.set(new Uint8Array(entry.body, end), start.byteLength)
  return new Response(bytes, { status: answer.status, headers: answer.headers })
}
