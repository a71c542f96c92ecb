import { assets, type CssRule } from './assets'
import { hiddenRanges } from './first-screen'
import { inlineScriptHashes } from './inline-scripts'
import { holdsValue, type KeptPlace } from './kept'
import { islandPreloads } from './page-modules'

/**
 * The script that applies the stylesheets a page loaded without blocking its first paint (`media="print"` until
 * then): the last thing in its body, allowed by its hash or the answer's nonce like the page's other inline scripts.
 */
export const STYLESHEET_SWAP = "document.querySelectorAll('link[data-swap]').forEach(function(l){l.media='all'})"

/**
 * A page whose first paint needs no stylesheet request: its HTML, the CSS inlined in its head, and that CSS's
 * `style-src` hash source (computed once per distinct CSS, kept with it).
 */
export type FirstPaint = { html: string; css: string; cssHash: Promise<string> }

/**
 * Makes a page whole in one string paint without a blocking request (docs/decisions/065-first-paint.md): the rules
 * of the site's stylesheet that its HTML can match (every class and id a selector names is in the page, or named by
 * the code of an island it has) inlined in a `<style>` before the stylesheet's link, which — and Leaflet's on the dealer pages — then loads as `print` and is
 * applied by STYLESHEET_SWAP at the end of the body (a `<noscript>` copy for browsers without script). The inlined
 * rules are the page's own in the stylesheet's order, so the swap changes nothing on screen (no layout shift).
 * Its islands' modules are preloaded after it (src/render/page-modules.ts). Answers null for HTML without the
 * stylesheet's link (a streamed page keeps its blocking link and loads its islands' chunks when its entry asks).
 * The HTML is read once for its tokens and islands, but for its `kept` parts (src/render/kept.tsx), whose marks are
 * read once per isolate (decision 073); the CSS and its hash are kept per isolate by the page's tokens (decision 066).
 *
 * `shared`: the page is the same for every visitor who asks for it (by default, one allowed by hashes): the HTML between
 * its kept parts is then remembered by its text; a visitor's own page (a session's header, an order) is read now and
 * never kept.
 *
 * @example
 * const first = firstPaint(html, undefined, placed) // then await first.cssHash ('sha256-…') in style-src
 */
export function firstPaint(
  html: string,
  nonce: string | undefined,
  kept: readonly KeptPlace[] = [],
  shared = nonce === undefined,
): FirstPaint | null {
  const siteLink = linkOf(assets.css)
  const at = html.indexOf(siteLink)
  const bodyEnd = html.lastIndexOf('</body>')
  if (at < 0 || bodyEnd < at) return null
  const {
    style: { css, hash },
    islands,
  } = paintOf(html, kept, shared)
  const headEnd = html.indexOf('</head>', at)
  const end = headEnd < 0 ? bodyEnd : headEnd
  // The stylesheets' links are in the head: only it is searched and rebuilt, the body is joined as it is.
  const head = `${html.slice(0, at)}<style>${css}</style>${deferredLink(assets.css)}${islandPreloads(islands)}${html
    .slice(at + siteLink.length, end)
    .replace(linkOf(assets.mapCss), () => deferredLink(assets.mapCss))}`
  const swap = `<script${nonce ? ` nonce="${nonce}"` : ''}>${STYLESHEET_SWAP}</script>`
  return { html: `${head}${html.slice(end, bodyEnd)}${swap}${html.slice(bodyEnd)}`, css, cssHash: hash }
}

/** A stylesheet's link as the Document renders it. */
const linkOf = (href: string) => `<link rel="stylesheet" href="${href}"/>`
/** The same stylesheet, loaded without blocking the first paint, and as it was for browsers without script. */
const deferredLink = (href: string) =>
  `<link rel="stylesheet" href="${href}" media="print" data-swap=""/><noscript>${linkOf(href)}</noscript>`

const CSS_LIMIT = 100
/** A page's CSS and its `style-src` hash source. */
type PageStyle = { css: string; hash: Promise<string> }
/**
 * Each distinct set of a page's tokens' CSS with its hash, built once per isolate (a market's pages of one kind share
 * most), keyed by the tokens in the order the page names them: the same kind of page names them in the same order.
 */
const built = new Map<string, PageStyle>()

/**
 * The rules of the site's stylesheet the page's HTML can match, or the code of its `islands` renders, in order,
 * inside their at-rules.
 */
export function pageCss(html: string, islands: readonly string[]): string {
  return pageStyle(pageMarks(html, []).tokens, islands).css
}

/** The CSS of a page's tokens and its islands', with its hash: built and hashed once per isolate per token set. */
function pageStyle(pageTokens: ReadonlySet<string>, islands: readonly string[]): PageStyle {
  const tokens = new Set(pageTokens)
  for (const name of islands) for (const token of assets.islands[name]?.tokens ?? []) tokens.add(token)
  const key = [...tokens].join(' ')
  const known = built.get(key)
  if (known !== undefined) return known
  const css = rulesFor(tokens, assets.cssRules)
  const style = { css, hash: inlineScriptHashes([css]).then(([hash]) => hash ?? '') }
  if (built.size >= CSS_LIMIT) built.delete(built.keys().next().value as string)
  built.set(key, style)
  return style
}

const ATTRIBUTE_LIMIT = 5000
/** Each distinct `class`/`id` attribute's tokens (`.a .b`, `#x`): a site's pages repeat the same few hundred. */
const attributeTokens = new Map<string, readonly string[]>()

/** A page's (or a kept part's) class and id tokens and its islands, in the order it names them. */
type Marks = { tokens: Set<string>; islands: string[] }

/**
 * The class (`.x`) and id (`#x`) tokens of a page's HTML in the order it names them, and the islands it marks
 * (`data-island="…"`, src/components/island.tsx) that the client build knows, in the order they first appear.
 */
function pageMarks(html: string, kept: readonly KeptPlace[]): Marks {
  return merged(piecesOf(html, kept, false))
}

/** A page's CSS with its hash, and its islands in order. */
type Paint = { style: PageStyle; islands: readonly string[] }

/** As many as the CSS kept (`CSS_LIMIT`): a paint holds its CSS, so at most twice as many CSS texts are held. */
const PAINT_LIMIT = CSS_LIMIT
/** Each distinct sequence of a page's pieces' marks (their ids) with its paint, built once per isolate. */
const paints = new Map<string, Paint>()
/** The ids of the pieces' marks: an id is never given twice, so a sequence of ids stands for one page's marks. */
const marksIds = new WeakMap<Marks, number>()
let marksCount = 0
const idOf = (marks: Marks): number => {
  let id = marksIds.get(marks)
  if (id === undefined) {
    id = ++marksCount
    marksIds.set(marks, id)
  }
  return id
}

/**
 * A page's paint by its pieces: the HTML between its kept parts and its kept parts, each piece's marks read once per
 * isolate and text (`same`: a page allowed by hashes, the same for each visitor of it; an answer with its nonce has
 * pieces of its own and is read as it is). A page of the same pieces as one before has the same tokens and islands in
 * the same order: its paint is found by the pieces' ids, their marks not merged again (decision 087).
 */
function paintOf(html: string, kept: readonly KeptPlace[], same: boolean): Paint {
  const pieces = piecesOf(html, kept, same)
  const key = pieces.every((marks) => remembered.has(marks)) ? pieces.map(idOf).join(' ') : null
  const known = key === null ? undefined : paints.get(key)
  if (known !== undefined) return known
  const { tokens, islands } = merged(pieces)
  const paint = { style: pageStyle(tokens, islands), islands }
  if (key !== null) {
    if (paints.size >= PAINT_LIMIT) paints.delete(paints.keys().next().value as string)
    paints.set(key, paint)
  }
  return paint
}

/**
 * The marks of a page's pieces in order: the HTML between its kept parts (read once per isolate and text when `same`,
 * else read now) and its kept parts (read once per isolate, or now when a visitor's value is written into a mark).
 */
function piecesOf(html: string, kept: readonly KeptPlace[], same: boolean): Marks[] {
  const text = (slice: string) => (same ? sliceMarks(slice) : marksOf(slice))
  const pieces: Marks[] = []
  let from = 0
  for (const { at, length, bytes } of kept) {
    if (at < from) continue
    pieces.push(text(html.slice(from, at)), partMarks(bytes) ?? marksOf(html.slice(at, at + length)))
    from = at + length
  }
  pieces.push(text(from === 0 ? html : html.slice(from)))
  return pieces
}

/** The marks of some HTML, read now. */
function marksOf(html: string): Marks {
  const marks: Marks = { tokens: new Set<string>(), islands: [] }
  readMarks(html, marks)
  return marks
}

/** The pieces' marks as one: the same as reading the whole page at once (the same tokens and islands in order). */
function merged(pieces: readonly Marks[]): Marks {
  const marks: Marks = { tokens: new Set<string>(), islands: [] }
  for (const piece of pieces) {
    for (const token of piece.tokens) marks.tokens.add(token)
    for (const name of piece.islands) if (!marks.islands.includes(name)) marks.islands.push(name)
  }
  return marks
}

/**
 * Values kept by a text, at most `limit` of them and `chars` characters of their texts: the one kept longest ago
 * goes first.
 */
function byText<V>(limit: number, chars: number) {
  const entries = new Map<string, V>()
  let used = 0
  return {
    /** How many texts are kept (for the tests of what a page leaves in the isolate). */
    size: (): number => entries.size,
    get: (text: string): V | undefined => entries.get(text),
    set(text: string, value: V): V {
      while (entries.size > 0 && (entries.size >= limit || used + text.length > chars)) {
        const oldest = entries.keys().next().value as string
        entries.delete(oldest)
        used -= oldest.length
      }
      entries.set(text, value)
      used += text.length
      return value
    },
  }
}

/** The marks of the HTML between a page's kept parts, by its text (a page's wrappers, its head's scripts). */
const slices = byText<Marks>(1000, 1024 * 1024)
/** The marks kept by their text (a kept part's, a slice's): those a page's paint may be keyed by. */
const remembered = new WeakSet<Marks>()

/** How many texts between kept parts the isolate remembers the marks of: a visitor's own page adds none. */
export const rememberedTexts = (): number => slices.size()

/** The marks of some HTML between kept parts, read once per isolate and text. */
function sliceMarks(html: string): Marks {
  const known = slices.get(html)
  if (known !== undefined) return known
  const marks = slices.set(html, marksOf(html))
  remembered.add(marks)
  return marks
}

/**
 * Adds the marks of some HTML to `marks`: its islands wherever they are, the class and id tokens of what can be on
 * its first screen (src/render/first-screen.ts).
 */
function readMarks(html: string, { tokens, islands }: Marks): void {
  const hidden = hiddenRanges(html)
  let next = 0
  for (const match of html.matchAll(/\s(?:class|id|data-island)="[^"]*"/g)) {
    const [attribute] = match
    if (attribute.charCodeAt(1) === 100 /* d */) {
      const name = attribute.slice(14, -1)
      if (/^[\w-]+$/.test(name) && name in assets.islands && !islands.includes(name)) islands.push(name)
      continue
    }
    while (next < hidden.length && (hidden[next]?.[1] ?? 0) <= match.index) next++
    const range = hidden[next]
    if (range !== undefined && match.index >= range[0]) continue
    for (const token of tokensOf(attribute)) tokens.add(token)
  }
}

/**
 * Each kept part's marks by its kept bytes (null: a visitor's value is written into one of its marks), at most 500
 * parts and 4 MiB of their characters (a page's kept body is one per product).
 */
const keptPartMarks = byText<Marks | null>(500, 4 * 1024 * 1024)

/** A kept part's marks, read once per isolate; null when they hold a value written in per page (read each time). */
function partMarks(bytes: string): Marks | null {
  const known = keptPartMarks.get(bytes)
  if (known !== undefined) return known
  const marks = marksOf(bytes)
  const found = [...marks.tokens].some(holdsValue) ? null : marks
  if (found) remembered.add(found)
  return keptPartMarks.set(bytes, found)
}

/** The tokens of one ` class="…"` or ` id="…"` attribute, as written (kept per isolate). */
function tokensOf(attribute: string): readonly string[] {
  const known = attributeTokens.get(attribute)
  if (known !== undefined) return known
  const isClass = attribute.charCodeAt(1) === 99 /* c */
  const prefix = isClass ? '.' : '#'
  const value = attribute.slice(isClass ? 8 : 5, -1)
  const found = value
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => prefix + name)
  if (attributeTokens.size >= ATTRIBUTE_LIMIT) attributeTokens.clear()
  attributeTokens.set(attribute, found)
  return found
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
