// The site's built stylesheet as a list of rules, each with what a page must contain for it to apply: the build
// writes it into the asset manifest, and the Worker inlines a page's own rules as its first paint's CSS
// (src/render/critical-css.ts, docs/decisions/065-first-paint.md). Print rules and rules that apply only on a
// person's pointer, focus or press are left out: no first paint shows them (docs/decisions/088).

/**
 * The rules of minified CSS a first paint can show, in their order, each `{ w, c, n }`: `w` the at-rules around it opened (`@media …{`, nested
 * ones in a row; '' at the top), `c` the rule itself, `n` the selectors' needs — one list per selector of the class
 * (`.x`) and id (`#x`) tokens it names outside parentheses, all of which a page's HTML must carry for that selector
 * to match — or `null` for a rule every page keeps (@font-face, @keyframes, a selector of elements only). A rule
 * whose selector names a token inside `:not()`, `:is()` or `:has()` is kept on less (those are not needs), never
 * dropped on more. `url(./x)` becomes `url(/assets/x)`: an inlined rule is read from the page's address.
 *
 * @param {string} css
 * @param {string} base the stylesheet's folder as a URL path, `/assets/`
 * @returns {{ w: string, c: string, n: string[][] | null }[]}
 */
export function cssRules(css, base) {
  const rules = []
  walk(css.replaceAll(/url\((["']?)\.\//g, `url($1${base}`), '', rules)
  return rules
}

/** Splits `css` into blocks at the top level, descending into grouping at-rules. */
function walk(css, wrapper, rules) {
  let at = 0
  while (at < css.length) {
    const open = nextOutsideStrings(css, '{', at)
    if (open < 0) break
    const prelude = css.slice(at, open).trim()
    const close = matchingBrace(css, open)
    const body = css.slice(open + 1, close)
    if (/^@media\s+(only\s+)?print\b/.test(prelude)) {
      // Never on a screen: the stylesheet brings it.
    } else if (/^@(media|supports|container|layer)\b/.test(prelude)) walk(body, `${wrapper}${prelude}{`, rules)
    else if (prelude.startsWith('@')) rules.push({ w: wrapper, c: `${prelude}{${body}}`, n: null })
    else if (!onInteraction(prelude)) rules.push({ w: wrapper, c: `${prelude}{${body}}`, n: needs(prelude) })
    at = close + 1
  }
}

/**
 * Whether every selector of a list applies only while a person points at, focuses or presses something (`:hover`,
 * `:focus`, `:focus-visible`, `:focus-within`, `:active` outside parentheses: `.skip-link:not(:focus)` is not): no
 * first paint shows it, and the stylesheet, applied just after it, brings it (docs/decisions/088).
 */
function onInteraction(selectorList) {
  return splitOutside(selectorList, ',').every((selector) =>
    /:(hover|focus|focus-visible|focus-within|active)(?![\w-])/.test(withoutParentheses(selector)),
  )
}

/** Each selector's class and id tokens outside parentheses; `null` when one selector needs none (it always applies). */
function needs(selectorList) {
  const lists = splitOutside(selectorList, ',').map((selector) => {
    const outside = withoutParentheses(selector).replaceAll(/\[[^\]]*\]/g, '')
    return [...outside.matchAll(/([.#])((?:\\.|[\w-])+)/g)].map(([, kind, name]) => kind + name.replaceAll('\\', ''))
  })
  return lists.some((list) => list.length === 0) ? null : lists
}

function withoutParentheses(text) {
  let depth = 0
  let out = ''
  for (const char of text) {
    if (char === '(') depth++
    else if (char === ')') depth--
    else if (depth === 0) out += char
  }
  return out
}

function splitOutside(text, separator) {
  const parts = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '(' || char === '[') depth++
    else if (char === ')' || char === ']') depth--
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

function nextOutsideStrings(css, wanted, from) {
  let quote = null
  for (let i = from; i < css.length; i++) {
    const char = css[i]
    if (quote) {
      if (char === '\\') i++
      else if (char === quote) quote = null
    } else if (char === '"' || char === "'") quote = char
    else if (char === wanted) return i
  }
  return -1
}

function matchingBrace(css, open) {
  let depth = 0
  let quote = null
  for (let i = open; i < css.length; i++) {
    const char = css[i]
    if (quote) {
      if (char === '\\') i++
      else if (char === quote) quote = null
    } else if (char === '"' || char === "'") quote = char
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return i
  }
  throw new Error('unbalanced braces in the stylesheet')
}
