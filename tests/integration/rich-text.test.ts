import { describe, expect, it } from 'vitest'
import { sanitizeRichText } from '../../src/render/rich-text'

describe('rich text from the content API', () => {
  it('keeps headings, paragraphs, lists, emphasis and safe links', async () => {
    const html =
      '<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em> text, <a href="https://example.org/x">a link</a> and <a href="/it-it/news">ours</a>.</p><ul><li>one</li></ul>'
    expect(await sanitizeRichText(html)).toBe(
      '<h2>Title</h2><p>Some <strong>bold</strong> and <em>soft</em> text, <a href="https://example.org/x" rel="noopener noreferrer">a link</a> and <a href="/it-it/news">ours</a>.</p><ul><li>one</li></ul>',
    )
  })

  it('drops scripts, styles, frames and forms with their content, and every other attribute', async () => {
    const html =
      '<p onclick="steal()" style="color:red" class="x" id="y">Hi<script>steal()</script></p><style>p{}</style><iframe src="https://evil.example"></iframe><form><input name="q"></form><svg><script>x()</script></svg><img src=x onerror=alert(1)><!-- secret -->'
    const clean = await sanitizeRichText(html)
    expect(clean).toBe('<p>Hi</p>')
  })

  it('keeps the text of unknown elements but not the elements', async () => {
    expect(await sanitizeRichText('<div><span data-x="1">text</span><marquee>moving</marquee></div>')).toBe(
      'textmoving',
    )
  })

  it('refuses links that are not http(s), mailto or a same-site path', async () => {
    for (const href of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'data:text/html,<script>',
      '//evil.example',
      '/\\evil.example',
      'vbscript:x',
    ]) {
      const clean = await sanitizeRichText(`<a href="${href}">x</a>`)
      expect(clean, href).toBe('<a>x</a>')
    }
  })

  it('drops raw-text elements whose content a browser would otherwise read as markup', async () => {
    for (const tag of ['noembed', 'xmp', 'noframes', 'plaintext', 'listing']) {
      const clean = await sanitizeRichText(
        `<p>a</p><${tag}><meta http-equiv="refresh" content="0;url=https://evil.example/"><img src=x onerror=alert(1)></${tag}>`,
      )
      expect(clean, tag).toBe('<p>a</p>')
    }
  })

  it('checks a link once its character references are decoded, and adds rel only to links it keeps', async () => {
    for (const href of [
      '/&#x2F;evil.example',
      '&#106;avascript:alert(1)',
      'java&#x09;script:alert(1)',
      'https:\\evil',
      '/&sol;evil.example',
      '/x&quot; onmouseover=&quot;alert(1)',
      '/x&#39;y',
    ]) {
      expect(await sanitizeRichText(`<a href="${href}">x</a>`), href).toBe('<a>x</a>')
    }
    expect(await sanitizeRichText('<a href="/it-it/news?page=2&amp;q=x">x</a>')).toBe(
      '<a href="/it-it/news?page=2&amp;q=x">x</a>',
    )
  })

  it("drops end tags of elements it does not allow, so the page's own containers stay open", async () => {
    expect(await sanitizeRichText('<p>a</p></div></article></main><p>b</p>')).toBe('<p>a</p><p>b</p>')
  })
})
