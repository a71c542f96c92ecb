import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { api } from '../../reference-api'
import { withSiteRequest } from '../../reference-api/bearer-once'
import { requestLinesOf } from '../fixtures/request-lines'
import { SECOND, logIn, storedSession, visitAs } from '../fixtures/session'

let giulia = ''
let lukas = ''

beforeAll(async () => {
  giulia = await logIn()
  lukas = await logIn(SECOND)
})

/** The Worker's D1 as it is, counting the statements that look a bearer token up in `access_tokens`. */
function countingTokenLookups(): { db: D1Database; lookups: () => number } {
  let lookups = 0
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => {
          if (/FROM access_tokens t JOIN users u/.test(sql)) lookups++
          return target.prepare(sql)
        }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { db, lookups: () => lookups }
}

/** The Worker's session store as it is, counting the reads of visitors' session records. */
function countingSessionReads(): { kv: KVNamespace; reads: () => number } {
  let reads = 0
  const kv = new Proxy(env.SESSIONS, {
    get(target, key) {
      if (key === 'get')
        return (name: string, ...rest: unknown[]) => {
          if (name.startsWith('session:')) reads++
          return (target.get as (...args: unknown[]) => unknown)(name, ...rest)
        }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { kv, reads: () => reads }
}

describe('the account overview logged in, cheaper (issue 33)', () => {
  it("a logged-in visitor's session read within MEMO_SECONDS comes from the isolate's memory: no store read, no unsealing", async () => {
    await storedSession(giulia)
    const { kv, reads } = countingSessionReads()
    for (let i = 0; i < 2; i++) {
      const overview = await visitAs(giulia, '/it-it/my-account', {}, { SESSIONS: kv })
      expect(overview.status).toBe(200)
      expect(overview.text).toContain('Giulia')
    }
    expect(reads()).toBe(0)
  })

  it("the account overview's calls into the embedded API look the token up once (seven times before)", async () => {
    const { db, lookups } = countingTokenLookups()
    const overview = await visitAs(giulia, '/it-it/my-account', {}, { DB: db })
    expect(overview.status).toBe(200)
    expect(overview.text).toContain('Giulia')
    expect(lookups()).toBe(1)
  })

  it("the account overview reads its data and the header's cart count from the embedded API in one call a page", async () => {
    const { token } = await storedSession(lukas)
    const added = await api.fetch(
      new Request('http://embedded.invalid/api/account/cart/items', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'X-Tenant': 'it',
          'X-Locale': 'it',
        },
        body: JSON.stringify({ sku: 'STR9-M-RED', quantity: 2, key: crypto.randomUUID() }),
      }),
      env,
      createExecutionContext(),
    )
    expect(added.ok).toBe(true)
    const count = ((await added.json()) as { data: { item_count: number } }).data.item_count
    expect(count).toBeGreaterThanOrEqual(2)
    for (const market of ['it-it', 'de-de']) await visitAs(lukas, `/${market}/my-account`)
    let text = ''
    const [line] = await requestLinesOf(async () => {
      text = (await visitAs(lukas, '/it-it/my-account')).text
    })
    expect(line?.status).toBe(200)
    expect(line?.upstreamCalls).toBe(1)
    expect(text).toMatch(new RegExp(`<span class="cart-count"[^>]*>${count}</span>`))
    // No cart in that market: no count, still one call.
    const [other] = await requestLinesOf(async () => {
      text = (await visitAs(lukas, '/de-de/my-account')).text
    })
    expect(other?.upstreamCalls).toBe(1)
    expect(text).toMatch(/<span class="cart-count" data-cart-count="" aria-hidden="true" hidden="">/)
  })

  it("the one call answers what the four list calls and the cart's count answer", async () => {
    const { token } = await storedSession(giulia)
    const read = async (path: string) => {
      const answer = await api.fetch(
        new Request(`http://embedded.invalid/api/${path}`, {
          headers: { Authorization: `Bearer ${token}`, 'X-Tenant': 'it', 'X-Locale': 'it' },
        }),
        env,
        createExecutionContext(),
      )
      return answer.status === 404 ? null : ((await answer.json()) as { data: unknown }).data
    }
    const overview = await read('account/overview?orders=3')
    expect(overview).toEqual({
      user: await read('account/profile'),
      orders: await read('account/orders?page=1&per_page=3'),
      bikes: await read('account/bikes'),
      addresses: await read('account/addresses'),
      cart_item_count: ((await read('account/cart')) as { item_count: number } | null)?.item_count ?? 0,
    })
    expect((overview as { orders: unknown[] }).orders.length).toBeGreaterThan(0)
    expect((overview as { bikes: unknown[] }).bikes.length).toBeGreaterThan(0)
  })

  it('a write forgets what its site request looked up: the reads after it look the token up again and see it', async () => {
    const { db, lookups } = countingTokenLookups()
    const { token } = await storedSession(lukas)
    const siteRequest = {}
    const call = (method: string, body?: unknown) =>
      api.fetch(
        new Request('http://embedded.invalid/api/account/profile', {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
        withSiteRequest({ ...env, DB: db }, siteRequest),
        createExecutionContext(),
      )
    const nameOf = async (answer: Response) => ((await answer.json()) as { data: { name: string } }).data.name
    const before = await nameOf(await call('GET'))
    await call('GET')
    expect(lookups()).toBe(1)
    const [first, last] = before.split(' ')
    await call('PUT', { first_name: 'Renamed', last_name: last })
    expect(lookups()).toBe(2)
    expect(await nameOf(await call('GET'))).toBe(`Renamed ${last}`)
    expect(lookups()).toBe(3)
    await call('PUT', { first_name: first, last_name: last })
  })

  it('calls without a site request (over HTTP) look the token up each time', async () => {
    const { db, lookups } = countingTokenLookups()
    const { token } = await storedSession(lukas)
    for (let i = 0; i < 2; i++)
      await api.fetch(
        new Request('http://embedded.invalid/api/account/profile', { headers: { Authorization: `Bearer ${token}` } }),
        { ...env, DB: db },
        createExecutionContext(),
      )
    expect(lookups()).toBe(2)
  })
})
