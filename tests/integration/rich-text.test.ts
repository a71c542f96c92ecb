import { describe, expect, it } from 'vitest'
import { sanitizeRichText } from '../../src/render/rich-text'

describe('rich text from the content API', () => {
  it('keeps headings, paragraphs, lists, emphasis and safe links', async () => {
    const html = '<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em> text, <a href="https://example.org/x">a link</a> and <a href="/it-it/news">ours</a>.</p><ul><li>one</li></ul>'
    expect(await sanitizeRichText(html)).toBe(
      '<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em> text, <a href="https://example.org/x" rel="noopener noreferrer">a link</a> and <a href="/it-it/news">ours</a>.</p><ul><li>one</li></ul>',
    )
  })

  it('drops scripts, styles, frames and forms with their content, and every other attribute', async () => {
    const html = '<p onclick="steal()" style="color:red" class="x" id="y">Hi<script>steal()</script></p><style>p{}</style><iframe src="https://evil.example"></iframe><form><input name="q"></form><svg><script>x()</script></svg><img src=x onerror=alert(1)><!-- secret -->'
    const clean = await sanitizeRichText(html)
    expect(clean).toBe('<p>Hi</p>')
  })

  it('keeps the text of unknown elements but not the elements', async () => {
    expect(await sanitizeRichText('<div><span data-x="1">text</span><marquee>moving</marquee></div>')).toBe('textmoving')
  })

  it('refuses links that are not http(s), mailto or a same-site path', async () => {
    for (const href of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'data:text/html,<script>', '//evil.example', '/\\evil.example', 'vbscript:x']) {
      const clean = await sanitizeRichText(`<a href="${href}">x</a>`)
      expect(clean, href).toBe('<a>x</a>')
    }
  })
})
