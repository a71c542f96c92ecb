/**
 * Sanitises rich text from the content API before a page shows it, with the runtime's HTMLRewriter: a small
 * allowlist of elements, no attribute but a link's `href` (http, https, mailto or a same-site path, checked once its
 * character references are decoded), no comments, no end tag of an element that is not allowed; elements that carry
 * code, embed other documents or hold raw text go with their content, any other unknown element leaves its text.
 */

const ALLOWED = new Set(['p', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'a', 'br', 'blockquote'])
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
  'form',
  'textarea',
  'select',
  'title',
  'head',
  'link',
  'meta',
  'base',
  'frame',
  'frameset',
  'applet',
  'xmp',
  'plaintext',
  'noembed',
  'noframes',
  'listing',
  'option',
  'button',
  'input',
])
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?![/\\]))[^\s\p{Cc}"'<>`\\]*$/iu
const NAMED = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  bsol: '\\',
  colon: ':',
  tab: '\t',
  newline: '\n',
} as Record<string, string>

/** An attribute value as the browser reads it: numeric and common named character references decoded. */
function decodeReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (match, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ''
    }
    return NAMED[ref.toLowerCase()] ?? match
  })
}

/** End tags of elements that are not allowed (a stray `</div>` would close the page's own containers). */
const FOREIGN_END_TAG = new RegExp(`</(?!(?:${[...ALLOWED].join('|')})\\s*>)[^>]*>`, 'gi')

/** The rich text with only what a page may show of it. */
export async function sanitizeRichText(html: string): Promise<string> {
  const rewriter = new HTMLRewriter()
    .on('*', {
      element(element) {
        const tag = element.tagName.toLowerCase()
        if (DROPPED_WITH_CONTENT.has(tag)) {
          element.remove()
          return
        }
        if (!ALLOWED.has(tag)) {
          element.removeAndKeepContent()
          return
        }
        const raw = tag === 'a' ? element.getAttribute('href') : null
        const names = Array.from(element.attributes as unknown as Iterable<[string, string]>, ([name]) => name)
        for (const name of names) element.removeAttribute(name)
        const href = raw === null ? null : decodeReferences(raw).trim()
        if (href && SAFE_HREF.test(href)) {
          // Written back as markup: the one character left to escape in it is `&`.
          element.setAttribute('href', href.replace(/&/g, '&amp;'))
          if (/^https?:/i.test(href)) element.setAttribute('rel', 'noopener noreferrer')
        }
      },
    })
    .onDocument({ comments: (comment) => void comment.remove(), doctype: () => {} })
  const rewritten = await rewriter
    .transform(new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }))
    .text()
  return rewritten.replace(FOREIGN_END_TAG, '')
}
