import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { logIn, nextClient, formPost, visitAs } from '../fixtures/session'
import { visit } from '../fixtures/worker'

describe('one caching decision per answer', () => {
  it.each([
    ['/it-it', 'no-cache'],
    ['/it-it/chi-siamo', 'no-cache'],
    ['/robots.txt', 'public, max-age=3600'],
    ['/_health', 'no-store'],
    ['/api/sites', 'no-store'],
    ['/zz-zz', 'no-store'],
    ['/nl-nl', 'no-store'],
    ['/it-it/my-account', 'private, no-store'],
    ['/login', 'private, no-store'],
  ])('answers %s with Cache-Control: %s', async (path, expected) => {
    expect((await visit(path)).headers.get('Cache-Control')).toBe(expected)
  })

  it('lowers every page a logged-in visitor sees to their browser, and their account to nothing', async () => {
    const id = await logIn()
    // The first page gives the browser its copy of the cart count (src/cart/cart-count.ts): a cookie, so not kept.
    const first = await visitAs(id, '/it-it')
    expect(first.headers.get('Cache-Control')).toBe('private, no-store')
    const copy = {
      Cookie: first.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; '),
    }
    expect(copy.Cookie).toMatch(/^__Host-CartCount-it=/)
    expect((await visitAs(id, '/it-it', { headers: copy })).headers.get('Cache-Control')).toBe('private, no-cache')
    expect((await visitAs(id, '/it-it/products', { headers: copy })).headers.get('Cache-Control')).toBe(
      'private, no-cache',
    )
    expect((await visitAs(id, '/it-it/my-account')).headers.get('Cache-Control')).toBe('private, no-store')
  })

  it('never lets an answer that sets a cookie be kept', async () => {
    const pick = await visit('/_market', formPost({ market: 'it-it' }))
    expect(pick.headers.get('Set-Cookie')).toContain('CountryLocale=it-it')
    expect(pick.headers.get('Cache-Control')).toMatch(/no-store/)
    const login = await visit(
      '/login',
      formPost({ email: 'customer@example.com', password: 'Demo-Rider-2026!' }, { 'CF-Connecting-IP': nextClient() }),
    )
    expect(login.headers.get('Set-Cookie')).toContain('__Host-AuthTkn=')
    expect(login.headers.get('Cache-Control')).toBe('private, no-store')
  })
})

describe('the nonce of an answer', () => {
  it('is made for each answer of a page that is not kept: the page and its Content-Security-Policy carry the same one, another answer another', async () => {
    const nonces = await Promise.all(
      [visit('/it-it/cart'), visit('/it-it/cart')].map(async (answer) => {
        const { headers, text } = await answer
        const nonce = /'nonce-([^']+)'/.exec(headers.get('Content-Security-Policy') ?? '')?.[1]
        const scripts = text.match(/<script[^>]*>/g) ?? []
        expect(scripts.length).toBeGreaterThan(0)
        for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`)
        return nonce
      }),
    )
    expect(nonces[0]).not.toBe(nonces[1])
  })

  it("is never given to content, and content's scripts are never hashed: only the page's own scripts are allowed", async () => {
    const spelled = 'nonce="a-nonce-an-article-spells-out"'
    const article = await env.DB.prepare(
      "SELECT slug FROM news WHERE locale = 'it' ORDER BY published_at DESC LIMIT 1",
    ).first<string>('slug')
    await env.DB.prepare("UPDATE news SET body = ? WHERE locale = 'it' AND slug = ?")
      .bind(`<p>${spelled} <script ${spelled}>alert(1)</script></p>`, article)
      .run()
    const { status, headers, text } = await visit(`/it-it/news/details/${article}`)
    expect(status).toBe(200)
    expect(text).toContain(spelled)
    expect(text).not.toContain('alert(1)')
    const csp = headers.get('Content-Security-Policy') ?? ''
    // A kept page: as many hashes as the page's own inline scripts, none for the article's.
    const own = [...text.matchAll(/<script([^>]*)>/g)].filter(
      ([, attributes]) => !/ src=|type="application\/(ld\+)?json"/.test(attributes!),
    )
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? ''
    expect(scriptSrc.match(/'sha256-/g)?.length).toBe(own.length)
  })
})

describe('absolute URLs', () => {
  it('come from the configured public origin, never from the host the request named', async () => {
    const { text } = await visit('https://evil.example/it-it/chi-siamo')
    expect(text).toContain('<link rel="canonical" href="https://site.test/it-it/chi-siamo"/>')
    expect(text).toContain('<meta property="og:url" content="https://site.test/it-it/chi-siamo"/>')
    expect(text).toMatch(/hreflang="x-default" href="https:\/\/site.test\/"/i)
    expect(text).not.toContain('evil.example')
  })

  it('are left out, and the password mail refused, when no public origin is configured, rather than taken from the request', async () => {
    const page = await visit('/it-it/chi-siamo', {}, { PUBLIC_ORIGIN: '' })
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('rel="canonical"')
    const health = await visit('/_health', {}, { PUBLIC_ORIGIN: '' })
    expect(health.status).toBe(503)
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')
    const forgot = await visit(
      '/login/forgot',
      formPost({ forgot_email: 'customer@example.com' }, { 'CF-Connecting-IP': nextClient() }),
      { PUBLIC_ORIGIN: '' },
    )
    expect(forgot.status).toBe(503)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')).toBe(before)
  })

  it('put the public origin in the password-reset mail, whatever Host the request named', async () => {
    const init = formPost(
      { forgot_email: 'customer@example.com' },
      { 'CF-Connecting-IP': nextClient(), Origin: 'https://evil.example' },
    )
    const { status } = await visit('https://evil.example/login/forgot', init)
    expect(status).toBe(303)
    const mail = await env.DB.prepare(
      "SELECT body FROM outbox WHERE recipient = 'customer@example.com' ORDER BY id DESC LIMIT 1",
    ).first<string>('body')
    expect(mail).toMatch(/https:\/\/site\.test\/int-en\/update-password\/[A-Za-z0-9_-]{20,}/)
    expect(mail).not.toContain('evil.example')
  })
})
