import { assets, type CssRule } from './assets'
import { islandPreloads, islandsOf } from './page-modules'

/**
 * The script that applies the stylesheets a page loaded without blocking its first paint (`media="print"` until
 * then): the last thing in its body, allowed by its hash or the answer's nonce like the page's other inline scripts.
 */
export const STYLESHEET_SWAP = "document.querySelectorAll('link[data-swap]').forEach(function(l){l.media='all'})"

/** A page whose first paint needs no stylesheet request: its HTML, and the CSS inlined in its head (for its hash). */
export type FirstPaint = { html: string; css: string }

/**
 * Makes a page whole in one string paint without a blocking request (docs/decisions/065-first-paint.md): the rules
 * of the site's stylesheet that its HTML can match (every class and id a selector names is in the page, or named by
 * the code of an island it has) inlined in a `<style>` before the stylesheet's link, which — and Leaflet's on the dealer pages — then loads as `print` and is
 * applied by STYLESHEET_SWAP at the end of the body (a `<noscript>` copy for browsers without script). The inlined
 * rules are the page's own in the stylesheet's order, so the swap changes nothing on screen (no layout shift).
 * Its islands' modules are preloaded after it (src/render/page-modules.ts). Answers null for HTML without the
 * stylesheet's link (a streamed page keeps its blocking link and loads its islands' chunks when its entry asks).
 *
 * @example
 * const first = firstPaint(html, undefined) // then 'sha256-…' of first.css in style-src
 */
export function firstPaint(html: string, nonce: string | undefined): FirstPaint | null {
  const siteLink = linkOf(assets.css)
  const at = html.indexOf(siteLink)
  const bodyEnd = html.lastIndexOf('</body>')
  if (at < 0 || bodyEnd < at) return null
  const islands = islandsOf(html)
  const css = pageCss(html, islands)
  let head = html
    .slice(0, bodyEnd)
    .replace(siteLink, `<style>${css}</style>${deferredLink(assets.css)}${islandPreloads(islands)}`)
  head = head.replace(linkOf(assets.mapCss), deferredLink(assets.mapCss))
  const swap = `<script${nonce ? ` nonce="${nonce}"` : ''}>${STYLESHEET_SWAP}</script>`
  return { html: `${head}${swap}${html.slice(bodyEnd)}`, css }
}

/** A stylesheet's link as the Document renders it. */
const linkOf = (href: string) => `<link rel="stylesheet" href="${href}"/>`
/** The same stylesheet, loaded without blocking the first paint, and as it was for browsers without script. */
const deferredLink = (href: string) =>
  `<link rel="stylesheet" href="${href}" media="print" data-swap=""/><noscript>${linkOf(href)}</noscript>`

const CSS_LIMIT = 100
/** Each distinct set of a page's tokens' CSS, built once per isolate (a market's pages of one kind share most). */
const built = new Map<string, string>()

/**
 * The rules of the site's stylesheet the page's HTML can match, or the code of its `islands` renders, in order,
 * inside their at-rules.
 */
export function pageCss(html: string, islands: readonly string[]): string {
  const tokens = pageTokens(html)
  for (const name of islands) for (const token of assets.islands[name]?.tokens ?? []) tokens.add(token)
  const key = [...tokens].sort().join(' ')
  const known = built.get(key)
  if (known !== undefined) return known
  const css = rulesFor(tokens, assets.cssRules)
  if (built.size >= CSS_LIMIT) built.delete(built.keys().next().value as string)
  built.set(key, css)
  return css
}

/** The class (`.x`) and id (`#x`) tokens of a page's HTML. */
function pageTokens(html: string): Set<string> {
  const tokens = new Set<string>()
  for (const [, attribute, value] of html.matchAll(/\s(class|id)="([^"]*)"/g)) {
    const prefix = attribute === 'class' ? '.' : '#'
    for (const name of (value ?? '').split(/\s+/)) if (name) tokens.add(prefix + name)
  }
  return tokens
}

function rulesFor(tokens: Set<string>, rules: readonly CssRule[]): string {
  let css = ''
  let open = ''
  for (const rule of rules) {
    if (rule.n !== null && !rule.n.some((needs) => needs.every((token) => tokens.has(token)))) continue
    if (rule.w !== open) {
      css += '}'.repeat(depth(open)) + rule.w
      open = rule.w
    }
    css += rule.c
  }
  return css + '}'.repeat(depth(open))
}

/** How many at-rules a wrapper opened. */
const depth = (wrapper: string) => (wrapper.match(/\{/g) ?? []).length
