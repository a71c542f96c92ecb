import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { cacheKeys } from '../fixtures/cache-keys'
import { CacheShort, MEMO_SECONDS } from '../../src/cache/policies'
import { REREAD_GRACE_MS } from '../../src/cache/rereads'
import { cached, type CacheContext, type CacheOutcome } from '../../src/cache/swr'
import { clearCaches, visit } from '../fixtures/worker'

const KEY = 'v1:test:entry'
const old = Date.now() - (CacheShort.freshSeconds + 5) * 1000

function context() {
  const background: Promise<unknown>[] = []
  const outcomes: CacheOutcome[] = []
  const cache: CacheContext = {
    kv: env.CACHE,
    waitUntil: (promise) => background.push(promise),
    report: (_key, outcome) => outcomes.push(outcome),
  }
  /** Waits for the background work, including what that work itself hands to waitUntil. */
  const settle = async () => {
    for (let seen = -1; seen !== background.length; ) {
      seen = background.length
      await Promise.all(background)
    }
  }
  return { cache, outcomes, settle }
}

const storeEntry = (value: unknown, storedAt: number) => env.CACHE.put(KEY, JSON.stringify({ value, storedAt }))
const storedValue = async () => ((await env.CACHE.get(KEY, 'json')) as { value: unknown } | null)?.value

beforeEach(clearCaches)

/** The test's KV namespace with its `get` replaced (to count and hold reads); every other method is KV's own. */
const withGet = (get: (key: string) => Promise<unknown>) =>
  new Proxy(env.CACHE, {
    get: (target, name) => {
      if (name === 'get') return get
      const value = Reflect.get(target, name)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })

describe('the KV cache with stale-while-revalidate', () => {
  it('answers a fresh entry from KV, then from the isolate memo, without loading', async () => {
    await storeEntry('fresh', Date.now())
    const { cache, outcomes } = context()
    let loads = 0
    const load = async () => ++loads && 'loaded'
    expect(await cached(cache, KEY, CacheShort, load)).toBe('fresh')
    expect(await cached(cache, KEY, CacheShort, load)).toBe('fresh')
    expect(loads).toBe(0)
    expect(outcomes).toEqual(['hit', 'memo'])
  })

  it('answers a stale entry at once and refreshes it once in the background', async () => {
    await storeEntry('old', old)
    const { cache, outcomes, settle } = context()
    let loads = 0
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const load = async () => {
      loads++
      await gate
      return 'new'
    }
    const answers = await Promise.all([1, 2, 3].map(() => cached(cache, KEY, CacheShort, load)))
    expect(answers).toEqual(['old', 'old', 'old'])
    expect(outcomes).toEqual(['stale', 'stale', 'stale'])
    open()
    await settle()
    expect(loads).toBe(1)
    expect(await storedValue()).toBe('new')
    expect(await cached(cache, KEY, CacheShort, load)).toBe('new')
  })

  it('keeps serving the stale entry when the refresh fails, and never stores the failure', async () => {
    await storeEntry('old', old)
    const { cache, settle } = context()
    const failing = async (): Promise<string> => {
      throw new Error('upstream down')
    }
    expect(await cached(cache, KEY, CacheShort, failing)).toBe('old')
    await settle()
    expect(await storedValue()).toBe('old')
  })

  it('throws on a cold key whose load fails, storing nothing', async () => {
    const { cache, settle } = context()
    await expect(cached(cache, KEY, CacheShort, async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    await settle()
    expect(await env.CACHE.get(KEY)).toBeNull()
  })

  it('loads again once KV lost the entry (another isolate purged it), memo or not', async () => {
    const { cache, settle } = context()
    let loads = 0
    const load = async () => `value ${++loads}`
    expect(await cached(cache, KEY, CacheShort, load)).toBe('value 1')
    await settle()
    await env.CACHE.delete(KEY)
    vi.useFakeTimers({ now: Date.now() + (MEMO_SECONDS + 1) * 1000, toFake: ['Date'] })
    try {
      expect(await cached(cache, KEY, CacheShort, load)).toBe('value 2')
    } finally {
      vi.useRealTimers()
      await settle()
    }
  })

  it('reads KV once when the memo runs out: requests meanwhile answer from the memo, none waits on that read', async () => {
    await storeEntry('fresh', Date.now() + (MEMO_SECONDS + 1) * 1000)
    const { cache } = context()
    const load = async () => 'loaded'
    expect(await cached(cache, KEY, CacheShort, load)).toBe('fresh')
    let reads = 0
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const kv = withGet(async (key: string) => {
      reads++
      await held
      return env.CACHE.get(key, 'json')
    })
    const outcomes: CacheOutcome[] = []
    const watched: CacheContext = { ...cache, kv, report: (_key, outcome) => outcomes.push(outcome) }
    vi.useFakeTimers({ now: Date.now() + (MEMO_SECONDS + 1) * 1000, toFake: ['Date'] })
    try {
      const reading = cached(watched, KEY, CacheShort, load)
      const meanwhile = await Promise.all([1, 2, 3].map(() => cached(watched, KEY, CacheShort, load)))
      expect(meanwhile).toEqual(['fresh', 'fresh', 'fresh'])
      expect(reads).toBe(1)
      release()
      expect(await reading).toBe('fresh')
      expect(outcomes).toEqual(['memo', 'memo', 'memo', 'hit'])
      // Read again: the memo is current once more.
      expect(await cached(watched, KEY, CacheShort, load)).toBe('fresh')
      expect(reads).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads KV again when a read under way takes longer than its grace', async () => {
    await storeEntry('fresh', Date.now() + (MEMO_SECONDS + 5) * 1000)
    const { cache } = context()
    const load = async () => 'loaded'
    expect(await cached(cache, KEY, CacheShort, load)).toBe('fresh')
    let reads = 0
    const never = new Promise<never>(() => {})
    const kv = withGet(async () => (++reads === 1 ? never : null))
    const later = Date.now() + (MEMO_SECONDS + 1) * 1000
    vi.useFakeTimers({ now: later, toFake: ['Date'] })
    try {
      void cached({ ...cache, kv }, KEY, CacheShort, load)
      vi.setSystemTime(later + REREAD_GRACE_MS + 1)
      expect(await cached({ ...cache, kv }, KEY, CacheShort, load)).toBe('loaded')
      expect(reads).toBe(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('remembers that something does not exist, briefly', async () => {
    const { cache, settle } = context()
    expect(await cached(cache, KEY, CacheShort, async () => null)).toBeNull()
    await settle()
    const entry = await env.CACHE.getWithMetadata(KEY)
    expect(JSON.parse(entry.value as string).value).toBeNull()
  })
})

describe('POST /_purge', () => {
  const purge = (query: string, secret?: string) =>
    visit(`/_purge${query}`, { method: 'POST', headers: secret ? { Authorization: `Bearer ${secret}` } : {} })

  it('refuses a missing or wrong secret', async () => {
    expect((await purge('')).status).toBe(401)
    expect((await purge('', 'wrong')).status).toBe(401)
    expect((await purge('', 'test-purge-secret-and-more')).status).toBe(401)
  })

  it("purges one market's lookups and leaves the others", async () => {
    await visit('/it-it')
    await visit('/es-es')
    const before = (await env.CACHE.list()).keys.map((k) => k.name)
    expect(before).toContain(cacheKeys.site('it'))
    expect(before.some((k) => k.startsWith(`${cacheKeys.market('it').prefix}it:`))).toBe(true)
    const { status, text } = await purge('?market=it-it', 'test-purge-secret')
    expect(status).toBe(200)
    expect(JSON.parse(text).purged).toBeGreaterThan(1)
    const after = (await env.CACHE.list()).keys.map((k) => k.name)
    expect(after).not.toContain(cacheKeys.site('it'))
    expect(after.some((k) => k.startsWith(cacheKeys.market('it').prefix))).toBe(false)
    expect(after).toContain(cacheKeys.site('es'))
  })

  it('purges everything without a market, and refuses a malformed one', async () => {
    await visit('/it-it')
    expect((await purge('?market=../../x', 'test-purge-secret')).status).toBe(400)
    expect((await purge('', 'test-purge-secret')).status).toBe(200)
    // Every lookup is gone; what stays is the page cache's brand version, just raised, so no page kept before is read.
    expect((await env.CACHE.list()).keys.map((key) => key.name)).toEqual(['page-version:*'])
  })
})
