import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { cacheKeys } from '../fixtures/cache-keys'
import { createLookups } from '../../src/cache/lookups'
import { CacheLong } from '../../src/cache/policies'
import { createUpstream } from '../../src/upstream/client'
import { contentCalls } from '../../src/upstream/contract/content'
import { ReadRetry } from '../../src/upstream/retry'
import { clearCaches } from '../fixtures/worker'

beforeEach(clearCaches)

const ITALY = { country: 'it', locale: 'it' }
const TRANSLATIONS = { data: { common: { return_to_home: 'Torna alla home' } } }

/**
 * The upstream client over a backend that answers each try with the next of `answers` (the last one from then on), and
 * a `wait` that records each retry's delay and lets it pass at once, or when `gate` opens.
 */
function backend(answers: number[], gate?: Promise<void>) {
  const tries: string[] = []
  const delays: number[] = []
  const upstream = createUpstream({
    transport: async (request) => {
      tries.push(new URL(request.url).pathname)
      const status = answers[Math.min(tries.length - 1, answers.length - 1)]!
      return status === 200 ? Response.json(TRANSLATIONS) : Response.json({ message: 'down' }, { status })
    },
    baseUrl: 'http://backend.test',
    timeoutMs: 3000,
    wait: (ms) => {
      delays.push(ms)
      return gate ?? Promise.resolve()
    },
  })
  return { upstream, tries, delays }
}

/** Lookups whose background work is collected, over a KV holding Italy's translations stored long ago (stale). */
async function staleTranslations(upstream: ReturnType<typeof createUpstream>) {
  const background: Promise<unknown>[] = []
  const storedAt = Date.now() - (CacheLong.freshSeconds + 60) * 1000
  await env.CACHE.put(
    cacheKeys.messages('it', 'it'),
    JSON.stringify({ value: { common: { return_to_home: 'vecchio' } }, storedAt }),
  )
  const lookups = createLookups(
    { kv: env.CACHE, waitUntil: (promise) => void background.push(promise) },
    upstream,
    cacheKeys,
  )
  /** Waits for the background work, including what it started itself (the refresh stores its answer in `waitUntil`). */
  const refreshed = async () => {
    let seen: number
    do {
      seen = background.length
      await Promise.allSettled(background)
    } while (background.length > seen)
  }
  return { messages: () => lookups.forMarket(ITALY).content.messages(), refreshed }
}

describe("translation reads in a background refresh (the original's policy, seed §9)", () => {
  it('try 5 times in all, waiting 350, 700, 1400 and 2800 ms between the tries, while the visitor gets the stale texts at once', async () => {
    const { upstream, tries, delays } = backend([503])
    const { messages, refreshed } = await staleTranslations(upstream)
    expect(await messages()).toEqual({ common: { return_to_home: 'vecchio' } })
    await refreshed()
    expect(tries).toEqual(Array(5).fill('/api/country-wise-locale-content/it/it'))
    expect(delays).toEqual([350, 700, 1400, 2800])
    expect(ReadRetry).toEqual({ attempts: 5, firstDelayMs: 350, parallel: 10 })
  })

  it('stop at the first answer, and store it', async () => {
    const { upstream, tries, delays } = backend([502, 500, 200])
    const { messages, refreshed } = await staleTranslations(upstream)
    await messages()
    await refreshed()
    expect(tries).toHaveLength(3)
    expect(delays).toEqual([350, 700])
    const stored = await env.CACHE.get<{ value: unknown }>(cacheKeys.messages('it', 'it'), 'json')
    expect(stored?.value).toEqual(TRANSLATIONS.data)
  })

  it('never retry a refusal (404 is "none", a 401 or 403 would only be refused again)', async () => {
    for (const status of [401, 403, 404]) {
      const { upstream, tries, delays } = backend([status])
      await contentCalls(upstream, ITALY)
        .messages({ background: true })
        .catch(() => null)
      expect(tries, String(status)).toHaveLength(1)
      expect(delays).toEqual([])
    }
  })

  it('retry at most 10 at once in an isolate: the 11th and 12th try once, and a slot freed is taken again', async () => {
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const { upstream, tries, delays } = backend([503], gate)
    const markets = Array.from({ length: 12 }, (_, n) => ({ country: `c${n}`, locale: 'it' }))
    const reads = markets.map((market) =>
      contentCalls(upstream, market)
        .messages({ background: true })
        .then(
          () => 'answered',
          () => 'failed',
        ),
    )
    // Ten reads wait out their first delay, holding their slots; the other two have failed after one try.
    await vi.waitFor(() => expect(delays).toHaveLength(10))
    expect(await Promise.all(reads.slice(10))).toEqual(['failed', 'failed'])
    expect(tries).toHaveLength(12)
    open()
    expect(await Promise.all(reads)).toEqual(Array(12).fill('failed'))
    expect(tries).toHaveLength(10 * 5 + 2)
    for (const market of markets.slice(0, 10)) {
      expect(
        tries.filter((path) => path.endsWith(`/${market.country}/it`)),
        market.country,
      ).toHaveLength(5)
    }
    // Every slot is free again: the next refresh has the whole policy.
    const next = backend([503])
    await contentCalls(next.upstream, ITALY)
      .messages({ background: true })
      .catch(() => null)
    expect(next.tries).toHaveLength(5)
  })
})
