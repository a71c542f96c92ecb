/**
 * Sanitises rich text from the content API before a page shows it, with the runtime's HTMLRewriter: a small
 * allowlist of elements, no attribute but a link's `href` (http, https, mailto or a same-site path), no comments;
 * elements that carry code or embed other documents go with their content, any other unknown element leaves its text.
 */

const ALLOWED = new Set(['p', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'a', 'br', 'blockquote'])
const DROPPED_WITH_CONTENT = new Set([
  'script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math', 'form', 'textarea', 'select',
  'title', 'head', 'link', 'meta', 'base', 'frame', 'frameset', 'applet',
])
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?![/\\]))/i

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
        const href = tag === 'a' ? element.getAttribute('href')?.trim() : undefined
        const names = Array.from(element.attributes as unknown as Iterable<[string, string]>, ([name]) => name)
        for (const name of names) element.removeAttribute(name)
        if (tag === 'a') {
          if (href && SAFE_HREF.test(href) && !/[\u0000-\u001f]/.test(href)) element.setAttribute('href', href)
          if (href && /^https?:/i.test(href)) element.setAttribute('rel', 'noopener noreferrer')
        }
      },
    })
    .onDocument({ comments: (comment) => void comment.remove(), doctype: () => {} })
  return rewriter.transform(new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })).text()
}
