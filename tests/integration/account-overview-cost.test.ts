import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { api, inProcessFetch } from '../../reference-api'
import { withSiteRequest } from '../../reference-api/bearer-once'
import { tokenHash } from '../../reference-api/passwords'
import { requestLinesOf } from '../fixtures/request-lines'
import { SECOND, logIn, storedSession, visitAs } from '../fixtures/session'
import { createUpstream } from '../../src/upstream/client'
import { accountCalls } from '../../src/upstream/contract/account'
import { EMBEDDED_ORIGIN, embeddedTransport } from '../../src/upstream/transport'

let giulia = ''
let lukas = ''

beforeAll(async () => {
  giulia = await logIn()
  lukas = await logIn(SECOND)
})

/**
 * The Worker's D1 as it is, counting the statements that look a bearer token up in `access_tokens` (the token's user,
 * or the overview's one statement finding its user by the token: docs/decisions/079).
 */
function countingTokenLookups(): { db: D1Database; lookups: () => number } {
  let lookups = 0
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => {
          if (/FROM access_tokens t JOIN users u|FROM access_tokens tok WHERE tok\.token_hash/.test(sql)) lookups++
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
    expect(text).toMatch(/<span class="cart-count" data-cart-count="" aria-hidden="true"><\/span>/)
  })

  it("the one call answers what the three calls and the cart's count answer, without what the page does not show", async () => {
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
    // The orders as the overview's table shows them (no item count) and no addresses, which it only links: its
    // statement holds nothing the page does not show (docs/decisions/084).
    const orderList = (await read('account/orders?page=1&per_page=3')) as { item_count: number }[]
    expect(overview).toEqual({
      user: await read('account/profile'),
      orders: orderList.map(({ item_count, ...shown }) => shown),
      bikes: await read('account/bikes'),
      cart_item_count: ((await read('account/cart')) as { item_count: number } | null)?.item_count ?? 0,
    })
    // More than one of each list, so that the comparison checks each list's order too (decision 079: the lists are
    // read as JSON arrays in their own order).
    const { orders, bikes } = overview as Record<'orders' | 'bikes', unknown[]>
    expect(orders.length).toBeGreaterThan(1)
    expect(bikes.length).toBeGreaterThan(1)
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

/**
 * The Worker's D1 as it is, counting its round trips (each batch, and each statement run on its own) and the
 * statements they run.
 */
function countingRoundTrips(): { db: D1Database; trips: () => number; statements: () => number } {
  let trips = 0
  let statements = 0
  const real = new WeakMap<object, D1PreparedStatement>()
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, key) {
        if (key === 'bind') return (...values: unknown[]) => counted(target.bind(...values))
        if (key === 'first' || key === 'all' || key === 'run' || key === 'raw') {
          trips++
          statements++
        }
        const value = Reflect.get(target, key, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    real.set(proxy, statement)
    return proxy
  }
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare') return (sql: string) => counted(target.prepare(sql))
      if (key === 'batch')
        return (batch: D1PreparedStatement[]) => {
          trips++
          statements += batch.length
          return target.batch(batch.map((statement) => real.get(statement) ?? statement))
        }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { db, trips: () => trips, statements: () => statements }
}

describe("the overview's token looked up in its own batch (docs/decisions/066)", () => {
  const overview = (token: string | null, query = '', db: D1Database = env.DB, more: object = {}) =>
    api.fetch(
      new Request(`http://embedded.invalid/api/account/overview${query}`, {
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'X-Tenant': 'it', 'X-Locale': 'it' },
      }),
      { ...env, DB: db, ...more },
      createExecutionContext(),
    )

  it('reads the user, the lists and the cart count in one round trip to D1 (two before), one statement (five before)', async () => {
    const { token } = await storedSession(giulia)
    const { db, trips, statements } = countingRoundTrips()
    const answer = await overview(token, '', db)
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { data: { user: { first_name: string } } }).data.user.first_name).toBe('Giulia')
    expect(trips()).toBe(1)
    expect(statements()).toBe(1)
  })

  it('answers an unknown, expired or missing token with 401 as before, and a bad parameter with 422', async () => {
    const { token } = await storedSession(lukas)
    expect((await overview(null)).status).toBe(401)
    expect((await overview(null, '?orders=0')).status).toBe(401)
    expect((await overview('a'.repeat(64))).status).toBe(401)
    expect((await overview(token, '?orders=0')).status).toBe(422)
    const hash = { token_hash: await tokenHash(token) }
    const expiresAt = await env.DB.prepare('SELECT expires_at FROM access_tokens WHERE token_hash = ?')
      .bind(hash?.token_hash)
      .first<{ expires_at: string }>()
    await env.DB.prepare("UPDATE access_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE token_hash = ?")
      .bind(hash?.token_hash)
      .run()
    try {
      const expired = await overview(token)
      expect(expired.status).toBe(401)
      expect(await expired.json()).toEqual({ message: 'Unauthenticated.' })
    } finally {
      await env.DB.prepare('UPDATE access_tokens SET expires_at = ? WHERE token_hash = ?')
        .bind(expiresAt?.expires_at, hash?.token_hash)
        .run()
    }
  })
})

describe("the overview read in-process without the API's router (docs/decisions/066)", () => {
  const request = (token: string | null, query = '', tenant: string | null = 'it') =>
    new Request(`http://embedded.invalid/api/account/overview${query}`, {
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(tenant ? { 'X-Tenant': tenant } : {}),
        'X-Locale': 'it',
      },
    })
  const answer = async (response: Response | Promise<Response>) => {
    const { status, headers } = await response
    return { status, type: headers.get('Content-Type'), body: await (await response).json() }
  }

  it('answers as the routed call does, its errors too, and never asks the router', async () => {
    const { token } = await storedSession(giulia)
    const failing = new Proxy(env.DB, {
      get(target, key) {
        if (key === 'batch' || key === 'prepare')
          return () => ({ bind: () => ({ first: () => Promise.reject(new Error('D1 is down')) }) })
        const value = Reflect.get(target, key, target)
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const cases: [Request, Cloudflare.Env][] = [
      [request(token), env],
      [request(token, '?orders=1', null), env],
      [request(null), env],
      [request('a'.repeat(64)), env],
      [request(token, '?orders=99'), env],
      [request(token), { ...env, DB: failing }],
    ]
    const match = vi.spyOn(api.router, 'match')
    for (const [call, bindings] of cases) {
      match.mockClear()
      const direct = await answer(inProcessFetch(new Request(call), bindings, createExecutionContext()))
      expect(match).not.toHaveBeenCalled()
      expect(direct).toEqual(await answer(api.fetch(new Request(call), bindings, createExecutionContext())))
      expect(match).toHaveBeenCalled()
    }
    match.mockRestore()
    expect(
      (await answer(inProcessFetch(request(token), { ...env, DB: failing }, createExecutionContext()))).status,
    ).toBe(500)
  })

  it('routes every other call as before', async () => {
    const { token } = await storedSession(giulia)
    const match = vi.spyOn(api.router, 'match')
    const profile = await inProcessFetch(
      new Request('http://embedded.invalid/api/account/profile', { headers: { Authorization: `Bearer ${token}` } }),
      env,
      createExecutionContext(),
    )
    expect(profile.status).toBe(200)
    expect(match).toHaveBeenCalled()
    match.mockRestore()
  })
})

/** The embedded API's answer to the bearer of `token` (a GET, or a write with its JSON body). */
async function apiCall(token: string, path: string, method = 'GET', body?: unknown): Promise<Response> {
  return api.fetch(
    new Request(`http://embedded.invalid/api/${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'X-Tenant': 'it',
        'X-Locale': 'it',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
    createExecutionContext(),
  )
}

describe('the account overview, fourth round (docs/decisions/074)', () => {
  it('is read afresh on every visit: a name changed and a bike registered between two visits show on the second', async () => {
    const { token } = await storedSession(lukas)
    const first = await visitAs(lukas, '/it-it/my-account')
    expect(first.status).toBe(200)
    const profile = (
      (await (await apiCall(token, 'account/profile')).json()) as { data: { first_name: string; last_name: string } }
    ).data
    const serial = `AUR26OVW${String(Date.now()).slice(-5)}`
    expect(first.text).not.toContain(serial)
    expect(
      (await apiCall(token, 'account/profile', 'PUT', { first_name: 'Rinominato', last_name: profile.last_name })).ok,
    ).toBe(true)
    const bike = { serial_number: serial, product_id: 9, purchased_on: '2026-01-10' }
    expect((await apiCall(token, 'account/bikes', 'POST', bike)).status).toBe(201)
    const second = await visitAs(lukas, '/it-it/my-account')
    expect(second.text).toContain('Rinominato')
    expect(second.text).toContain(serial)
    await apiCall(token, 'account/profile', 'PUT', { first_name: profile.first_name, last_name: profile.last_name })
  })

  it("hashes a customer's bearer token once per isolate: the overview's next visits hash nothing of it", async () => {
    const { token } = await storedSession(giulia)
    await visitAs(giulia, '/it-it/my-account')
    const digest = vi.spyOn(crypto.subtle, 'digest')
    try {
      const overview = await visitAs(giulia, '/it-it/my-account')
      expect(overview.status).toBe(200)
      expect(overview.text).toContain('Giulia')
      const hashed = digest.mock.calls.map(([, data]) => new TextDecoder().decode(data as ArrayBuffer))
      expect(hashed).not.toContain(token)
    } finally {
      digest.mockRestore()
    }
  })

  it("makes the upstream client's and the account calls' methods once per isolate, not per page", () => {
    const client = createUpstream({
      transport: embeddedTransport(api.fetch),
      baseUrl: EMBEDDED_ORIGIN,
      timeoutMs: 1000,
    })
    const customer = client.forMarket({ country: 'it', locale: 'it' }).withToken('a-token')
    expect(customer.get).toBe(client.get)
    expect(customer.send).toBe(client.send)
    expect(accountCalls(customer).overview).toBe(accountCalls(client).overview)
  })
})
