import { assets, type CssRule } from './assets'

/**
 * What of a page cannot be on its first screen, for its first paint's CSS (src/render/critical-css.ts,
 * docs/decisions/088-product-first-paint-bytes.md): the content of a `<details>` rendered closed (the header's menus,
 * the market picker, the search panel, the size guide: the browser draws its summary alone until a person opens it),
 * unless the stylesheet shows that content closed (`::details-content`, the listing's filters on a wide screen). Their
 * rules come with the stylesheet, applied just after the first paint, before anyone can open one.
 */

/** The class tokens of `<details>` whose content the stylesheet shows while closed, read once per isolate and rules. */
const shownClosed = new WeakMap<readonly CssRule[], ReadonlySet<string>>()

function detailsShownClosed(rules: readonly CssRule[]): ReadonlySet<string> {
  let shown = shownClosed.get(rules)
  if (shown === undefined) {
    shown = new Set(
      rules
        .filter((rule) => rule.c.includes('::details-content') && rule.n !== null)
        .flatMap((rule) => rule.n?.flat() ?? []),
    )
    shownClosed.set(rules, shown)
  }
  return shown
}

const CLOSED_DETAILS = /<details\b[^>]*>/g

/**
 * The ranges of `html` (`[from, to)`, in order) that cannot be on the first screen: each closed `<details>`'s content
 * after its `</summary>`, up to its matching `</details>`. A `<details>` whose end is not in `html` (a part of a page)
 * is read whole: a part may only make the CSS larger, never smaller.
 *
 * @example
 * hiddenRanges('<details class="size-guide"><summary>Guida</summary><table class="geometry">…</table></details>')
 * // [[52, 85]]: the table's tokens do not need their rules in the first paint
 */
export function hiddenRanges(html: string, rules: readonly CssRule[] = assets.cssRules): [number, number][] {
  const ranges: [number, number][] = []
  if (!html.includes('<details')) return ranges
  const shown = detailsShownClosed(rules)
  CLOSED_DETAILS.lastIndex = 0
  for (let tag = CLOSED_DETAILS.exec(html); tag !== null; tag = CLOSED_DETAILS.exec(html)) {
    const open = tag[0]
    if (/\sopen[\s=/>]/.test(open) || classesOf(open).some((token) => shown.has(token))) continue
    const summaryEnd = html.indexOf('</summary>', tag.index)
    const end = matchingEnd(html, tag.index + open.length)
    if (summaryEnd < 0 || end < 0 || summaryEnd > end) continue
    ranges.push([summaryEnd + '</summary>'.length, end])
    CLOSED_DETAILS.lastIndex = end
  }
  return ranges
}

/** The `.class` tokens of a start tag. */
const classesOf = (tag: string) =>
  (tag.match(/\sclass="([^"]*)"/)?.[1] ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => `.${name}`)

/** Where the `</details>` that closes the one opened before `from` starts, or -1. */
function matchingEnd(html: string, from: number): number {
  let depth = 1
  let at = from
  while (depth > 0) {
    const close = html.indexOf('</details>', at)
    if (close < 0) return -1
    const open = html.indexOf('<details', at)
    if (open >= 0 && open < close) {
      depth++
      at = open + 8
    } else {
      depth--
      at = close + 10
      if (depth === 0) return close
    }
  }
  return -1
}
