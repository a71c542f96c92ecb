import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { consoleLogin, visitConsole } from '../fixtures/console'
import { DEMO, formPost, logIn, nextClient, SECOND, visitAs } from '../fixtures/session'
import { pageUrlOf } from '../fixtures/page-slugs'
import { requestLinesOf } from '../fixtures/request-lines'
import { cacheKeys } from '../fixtures/cache-keys'
import { forgetMemo } from '../../src/cache/swr'
import { clearCaches, type Visit, visit } from '../fixtures/worker'

/** KV as the Worker's `CACHE`, counting the reads it is asked for. */
function countingKv() {
  const reads: string[] = []
  const kv = new Proxy(env.CACHE, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (property === 'get' || property === 'getWithMetadata' || property === 'list') reads.push(String(args[0]))
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { kv, reads }
}

const purge = (market?: string) =>
  visit(`/_purge${market ? `?market=${market}` : ''}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.PURGE_SECRET}` },
  })

beforeEach(clearCaches)
afterEach(() => vi.restoreAllMocks())

describe('the page cache', () => {
  it('answers a second anonymous request from memory, with no upstream call and no KV read', async () => {
    const [first] = await requestLinesOf(() => visit('/it-it/products'))
    expect(first).toMatchObject({ path: '/it-it/products', status: 200, page: 'miss' })
    const counting = countingKv()
    let second!: Awaited<ReturnType<typeof visit>>
    const [line] = await requestLinesOf(
      async () => (second = await visit('/it-it/products', {}, { CACHE: counting.kv })),
    )
    expect(line).toMatchObject({ status: 200, page: 'memory', upstreamCalls: 0 })
    expect(counting.reads).toEqual([])
    expect(second.text).toContain('</html>')
    expect(second.headers.get('Cache-Control')).toBe('no-cache')
    expect(second.headers.get('ETag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
  })

  it('answers a stale page at once and renders it again after the answer, once', async () => {
    await visit('/it-it/news')
    const later = Date.now() + 61_000
    vi.spyOn(Date, 'now').mockImplementation(() => later)
    const lines = await requestLinesOf(async () => {
      await visit('/it-it/news')
      await visit('/it-it/news')
    })
    // The first is answered stale (its refresh runs in the background), the second gets the refreshed page.
    expect(lines.map((line) => line.page)).toEqual(['stale', 'memory'])
  })

  it('keeps one page for all the query parameters it does not read, and one per filter it reads', async () => {
    await visit('/it-it/products?sort=price-asc')
    const lines = await requestLinesOf(async () => {
      await visit('/it-it/products?utm_source=news&sort=price-asc&gclid=x')
      // Values the listing ignores (a price that is no number, an unknown discipline) are no page of their own.
      await visit('/it-it/products?min=abc&discipline=unicycle&sort=price-asc')
      await visit('/it-it/products?sort=price-desc')
    })
    expect(lines.map((line) => line.page)).toEqual(['memory', 'memory', 'miss'])
  })

  it("drops one market's pages at a purge of that market, and keeps the others'", async () => {
    await visit('/it-it')
    await visit('/de-de')
    expect((await purge('it-it')).status).toBe(200)
    const lines = await requestLinesOf(async () => {
      await visit('/it-it')
      await visit('/de-de')
    })
    expect(lines.map((line) => line.page)).toEqual(['miss', 'memory'])
  })

  it('drops every page at a purge of everything', async () => {
    await visit('/it-it')
    await purge()
    expect((await requestLinesOf(() => visit('/it-it')))[0]?.page).toBe('miss')
  })

  it("shows a console switch at once on the cached pages of that market, and keeps the other markets' pages", async () => {
    const cookie = await consoleLogin('editor')
    const jobs = `href="${pageUrlOf('it-it', 'work-with-us')}"`
    expect((await visit('/it-it')).text).toContain(jobs)
    await visit('/de-de')
    const switched = await visitConsole(
      cookie,
      '/_console/markets/it',
      formPost({ test_ride_inquiry: 'on', become_a_partner: 'on' }),
    )
    expect(switched.status).toBe(303)
    let home = ''
    const lines = await requestLinesOf(async () => {
      home = (await visit('/it-it')).text
      await visit('/de-de')
    })
    expect(home).not.toContain(jobs)
    expect(lines.map((line) => line.page)).toEqual(['miss', 'memory'])
    await visitConsole(
      cookie,
      '/_console/markets/it',
      formPost({ test_ride_inquiry: 'on', become_a_partner: 'on', work_with_us: 'on' }),
    )
    expect((await visit('/it-it')).text).toContain(jobs)
  })

  it('answers 304 to a matching If-None-Match, and the page to another', async () => {
    const { headers } = await visit('/it-it/news')
    const etag = headers.get('ETag') as string
    const again = await visit('/it-it/news', { headers: { 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('ETag')).toBe(etag)
    expect((await visit('/it-it/news', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200)
  })

  it('keeps a "Page Not Found" briefly, and never a redirect or an error', async () => {
    await visit('/it-it/products/no-such-bike')
    const lines = await requestLinesOf(async () => {
      expect((await visit('/it-it/products/no-such-bike')).status).toBe(404)
    })
    expect(lines[0]?.page).toBe('memory')
  })

  it("keeps a page per consent choice, and never gives a visitor another choice's page", async () => {
    const accepted = { Cookie: '__Host-Consent=v1.a1.m1.f1' }
    const first = await visit('/it-it', { headers: accepted })
    expect(first.text).toContain('class="consent consent-closed"')
    const anonymous = await visit('/it-it')
    expect(anonymous.text).toContain('class="consent"')
    const lines = await requestLinesOf(async () => {
      const again = await visit('/it-it', { headers: accepted })
      expect(again.text).toContain('class="consent consent-closed"')
      expect(again.headers.get('Cache-Control')).toBe('private, no-cache')
    })
    expect(lines[0]?.page).toBe('memory')
  })

  it("puts a logged-in visitor's name into the cached page, and never another visitor's", async () => {
    await visit('/it-it/products')
    const giulia = await logIn(DEMO)
    const second = await logIn(SECOND)
    const [mine, theirs, nobody] = [
      await visitAs(giulia, '/it-it/products'),
      await visitAs(second, '/it-it/products'),
      await visit('/it-it/products'),
    ]
    expect(mine.text).toContain('account-menu')
    expect(mine.text).not.toContain('data-account')
    expect(theirs.text).toContain('account-menu')
    expect(mine.text).not.toBe(theirs.text)
    expect(nobody.text).not.toContain('account-menu')
    expect(nobody.text).toContain('data-account')
    expect(mine.headers.get('ETag')).toBeNull()
    // The first page gives the browser its copy of the cart count (and, setting a cookie, is not kept); with it, the
    // page is their browser's to keep.
    const count = mine.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-CartCount-it='))
      ?.split(';')[0] as string
    expect(count).toMatch(/^__Host-CartCount-it=\d+\./)
    expect(mine.headers.get('Cache-Control')).toBe('private, no-store')
    const again = await visitAs(giulia, '/it-it/products', { headers: { Cookie: count } })
    expect(again.headers.get('Cache-Control')).toBe('private, no-cache')
    expect(again.headers.get('Set-Cookie')).toBeNull()
  })

  it("puts a visitor's cart count into the cached page, from their browser's copy of it when it is this cart's", async () => {
    await visit('/it-it/products/aurora-strada-9')
    const added = await visit(
      '/it-it/cart/items',
      formPost(
        { sku: 'STR9-M-RED', quantity: '2', key: 'page-cache-test-key-1', product: 'aurora-strada-9' },
        { 'CF-Connecting-IP': nextClient() },
      ),
    )
    const [cart, count] = ['__Host-Cart-it=', '__Host-CartCount-it='].map(
      (name) =>
        added.headers
          .getSetCookie()
          .find((line) => line.startsWith(name))
          ?.split(';')[0],
    ) as [string, string]
    expect(cart).toBeTruthy()
    expect(count).toMatch(/^__Host-CartCount-it=2\.[0-9a-z]+$/)
    const withCookies = (...cookies: string[]) => ({ headers: { Cookie: cookies.join('; ') } })
    const lines = await requestLinesOf(async () => {
      const page = await visit('/it-it/products/aurora-strada-9', withCookies(cart, count))
      expect(page.text).toMatch(/data-cart-count=""[^>]*>2</)
      expect(page.headers.get('Cache-Control')).toBe('private, no-cache')
      expect(page.headers.get('Set-Cookie')).toBeNull()
      // Without the copy, or with another cart's, the count is read from the API and the copy given again.
      for (const cookies of [[cart], [cart, '__Host-CartCount-it=7.abc'], [cart, count.replace('=2.', '=x.')]]) {
        const again = await visit('/it-it/products/aurora-strada-9', withCookies(...cookies))
        expect(again.text).toMatch(/data-cart-count=""[^>]*>2</)
        expect(again.headers.getSetCookie().map((line) => line.split(';')[0])).toEqual([count])
      }
    })
    expect(lines.map((line) => [line.page, line.upstreamCalls])).toEqual([
      ['memory', 0],
      ['memory', 1],
      ['memory', 1],
      ['memory', 1],
    ])
    expect((await visit('/it-it/products/aurora-strada-9')).text).toMatch(
      /data-cart-count="" aria-hidden="true"><\/span>/,
    )
  })

  it("keeps a logged-in customer's count with their session: another session of theirs reads it again", async () => {
    const session = await logIn(SECOND)
    await visit('/it-it/products/aurora-strada-9')
    const added = await visitAs(
      session,
      '/it-it/cart/items',
      formPost(
        { sku: 'STR9-M-RED', quantity: '1', key: 'page-cache-test-key-2', product: 'aurora-strada-9' },
        { 'CF-Connecting-IP': nextClient() },
      ),
    )
    const count = added.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-CartCount-it='))
      ?.split(';')[0] as string
    expect(count).toMatch(/^__Host-CartCount-it=\d+\.[0-9a-z]+$/)
    const another = await logIn(SECOND)
    const lines = await requestLinesOf(async () => {
      await visitAs(session, '/it-it/products/aurora-strada-9', { headers: { Cookie: count } })
      await visitAs(another, '/it-it/products/aurora-strada-9', { headers: { Cookie: count } })
    })
    expect(lines.map((line) => line.upstreamCalls)).toEqual([0, 1])
  })

  it.each([
    ['an account page', '/it-it/my-account'],
    ['the cart', '/it-it/cart'],
    ['login', '/login?market=it-it'],
    ['search results', '/it-it/search/all?q=strada'],
    ['the whistleblower channel', '/it-it/whistleblower-form'],
    ['the console', '/_console'],
    ['the dealer locator', pageUrlOf('it-it', 'dealer-locator')],
    ['the dealer locator from a position', pageUrlOf('it-it', 'dealer-locator', '?lat=45.46&lng=9.19')],
    ['a lead form', pageUrlOf('it-it', 'test-drive')],
    ['a page after an action', '/it-it/products?notice=cart_added'],
    ['a page showing a notice', '/it-it/products', { headers: { Cookie: '__Host-Notice=cart_added' } }],
    ['a sitemap', '/it-it/sitemap.xml'],
    ['a malformed news page', '/it-it/news?page=abc'],
    ['the landing page', '/'],
  ] as Array<[string, string, RequestInit?]>)('never keeps %s', async (_, path, init) => {
    const lines = await requestLinesOf(async () => {
      await visit(path, init)
      await visit(path, init)
    })
    expect(lines.length).toBe(2)
    for (const line of lines) expect(line.page).toBeUndefined()
  })

  it("allows a cached page's inline scripts by their hashes, with no nonce anywhere", async () => {
    const accepted = { Cookie: '__Host-Consent=v1.a1.m1.f1' }
    await visit('/it-it', { headers: accepted })
    const { text, headers } = await visit('/it-it', { headers: accepted })
    const policy = headers.get('Content-Security-Policy') as string
    expect(policy).not.toContain('nonce')
    expect(policy).not.toContain('unsafe-inline')
    expect(policy).toMatch(/script-src 'self' ('sha256-[A-Za-z0-9+/=]+' )+'strict-dynamic'/)
    expect(text).not.toContain('nonce=')
  })
})

describe("the page cache's early answer", () => {
  /** Headers that differ between two answers of the same page by nature. */
  const comparable = (headers: Headers) => [...headers].filter(([name]) => name !== 'date')

  it('answers a kept page before the app runs: no lookup at all, the same status, headers and bytes', async () => {
    await visit('/it-it/news')
    const answers: Visit[] = []
    const [kept, early] = await requestLinesOf(async () => {
      answers.push(await visit('/it-it/news?utm_source=mail'))
      answers.push(await visit('/it-it/news?utm_source=mail'))
    })
    // The first visit of this address goes through the app (its lookups from memo); the second is answered early.
    expect(kept).toMatchObject({ page: 'memory', upstreamCalls: 0 })
    expect(Object.keys(kept?.cacheLookups ?? {})).not.toEqual([])
    expect(early).toMatchObject({ page: 'memory', upstreamCalls: 0, cacheLookups: {}, market: 'it-it', status: 200 })
    const [first, second] = answers as [Visit, Visit]
    expect(second.text).toBe(first.text)
    expect(comparable(second.headers)).toEqual(comparable(first.headers))
  })

  it('answers 304 early to a matching If-None-Match', async () => {
    await visit('/it-it')
    const etag = (await visit('/it-it')).headers.get('ETag') as string
    const [line] = await requestLinesOf(async () => {
      const again = await visit('/it-it', { headers: { 'If-None-Match': etag } })
      expect(again.status).toBe(304)
      expect(again.headers.get('Cache-Control')).toBe('no-cache')
    })
    expect(line).toMatchObject({ status: 304, cacheLookups: {} })
  })

  it.each([
    ['a session cookie, even one that names no session', '__Host-AuthTkn=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a cart cookie of the market', '__Host-Cart-it=nosuchcart'],
  ])('leaves a visitor with %s to the app', async (_, cookie) => {
    await visit('/it-it')
    await visit('/it-it')
    const [line] = await requestLinesOf(() => visit('/it-it', { headers: { Cookie: cookie } }))
    expect(line?.page).toBe('memory')
    expect(Object.keys(line?.cacheLookups ?? {})).not.toEqual([])
  })

  it('leaves a market to the app once its site record is to be read again, and so shows maintenance', async () => {
    await visit('/it-it')
    await visit('/it-it')
    const maintenance = (on: boolean) =>
      env.DB.prepare(
        `UPDATE sites SET settings = json_set(settings, '$.under_maintenance', json('${on}')) WHERE slug = 'it'`,
      ).run()
    await maintenance(true)
    try {
      // Switched upstream (no purge): the site record's KV entry is gone, and this isolate's memo of it ends (before
      // the memo of the page versions, which were read at another time).
      await env.CACHE.delete(cacheKeys.site('it'))
      forgetMemo(cacheKeys.site('it'))
      expect((await visit('/it-it')).status).toBe(503)
    } finally {
      await maintenance(false)
    }
  })
})

describe("the page cache's early answer for a logged-in visitor", () => {
  it('stitches their name and count in before the app runs, with the session this isolate read and their copy of the count', async () => {
    const giulia = await logIn(DEMO)
    await visit('/it-it/news')
    const first = await visitAs(giulia, '/it-it/news')
    const copy = first.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-CartCount-it='))
      ?.split(';')[0] as string
    expect(copy).toBeTruthy()
    let again!: Visit
    const [line] = await requestLinesOf(
      async () => (again = await visitAs(giulia, '/it-it/news', { headers: { Cookie: copy } })),
    )
    expect(line).toMatchObject({ page: 'memory', cacheLookups: {}, upstreamCalls: 0 })
    expect(again.text).toContain('account-menu')
    expect(again.headers.get('Cache-Control')).toBe('private, no-cache')
    expect(again.headers.get('ETag')).toBeNull()
    // Only the header is stitched: everything after it is the kept page's, to its last byte.
    const anonymous = (await visit('/it-it/news')).text
    const afterHeader = (html: string) => html.slice(html.indexOf('</header>'))
    expect(afterHeader(again.text)).toBe(afterHeader(anonymous))
    expect(again.text.endsWith('</html>')).toBe(true)
    // The same page as the app's page cache stitches it (at an address new to the early answer).
    const [appLine] = await requestLinesOf(async () => {
      const viaApp = await visitAs(giulia, '/it-it/news?utm_source=mail', { headers: { Cookie: copy } })
      expect(again.text).toBe(viaApp.text)
    })
    expect(Object.keys(appLine?.cacheLookups ?? {})).not.toEqual([])
  })

  it('leaves a session ended in this isolate to the app: the page shows nobody', async () => {
    const giulia = await logIn(DEMO)
    await visit('/it-it/news')
    const copy = (await visitAs(giulia, '/it-it/news')).headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-CartCount-it='))
      ?.split(';')[0] as string
    expect((await visitAs(giulia, '/logout', formPost({ redirect: '/it-it' }))).status).toBe(303)
    const [line] = await requestLinesOf(async () => {
      const after = await visitAs(giulia, '/it-it/news', { headers: { Cookie: copy } })
      expect(after.text).not.toContain('account-menu')
    })
    expect(Object.keys(line?.cacheLookups ?? {})).not.toEqual([])
  })
})
