import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RequestLog } from '../../src/ops/request-log'
import { faultLane } from '../fixtures/original-backend-lanes'
import { clearCaches, visit } from '../fixtures/worker'

afterEach(() => vi.restoreAllMocks())

const OPERATOR = { headers: { Authorization: `Bearer ${env.PURGE_SECRET}`, 'CF-Connecting-IP': '203.0.113.80' } }

type Report = { status: string; failed: string[]; parts: Record<string, { ok: boolean; ms: number; reason?: string }> }

/** `/_health/deep` as an operator asks it, with the bindings a test changes. */
async function deepHealth(bindings: Partial<Cloudflare.Env> = {}) {
  const { status, text } = await visit('/_health/deep', OPERATOR, bindings)
  return { status, report: JSON.parse(text) as Report, text }
}

/** A binding whose every method throws, as a namespace or a database that does not answer. */
const broken = <T extends object>(name: string) =>
  new Proxy({} as T, {
    get: () => () => {
      throw new Error(`${name} unavailable`)
    },
  })

describe('/_health/deep', () => {
  it('answers 200 with every part ok: D1, both KV namespaces, R2, the mail queue, the secrets, the upstream by area', async () => {
    const { status, report } = await deepHealth()
    expect(status).toBe(200)
    expect(report.status).toBe('ok')
    expect(report.failed).toEqual([])
    expect(Object.keys(report.parts)).toEqual(
      expect.arrayContaining([
        'd1',
        'kv:CACHE',
        'kv:SESSIONS',
        'r2',
        'queue:MAIL_QUEUE',
        'secrets',
        'upstream:sites',
        'upstream:content',
        'upstream:catalogue',
        'upstream:news',
        'upstream:dealers',
        'upstream:search',
        'upstream:account',
        'upstream:cart-checkout',
        'upstream:forms',
      ]),
    )
    for (const [name, part] of Object.entries(report.parts)) {
      expect(part.ok, `${name}: ${part.reason}`).toBe(true)
      expect(part.ms).toBeGreaterThanOrEqual(0)
    }
  })

  it('refuses a request without the operator secret (401) or with a wrong one, as /_purge does', async () => {
    expect((await visit('/_health/deep')).status).toBe(401)
    const wrong = await visit('/_health/deep', {
      headers: { Authorization: 'Bearer guess', 'CF-Connecting-IP': '203.0.113.81' },
    })
    expect(wrong.status).toBe(401)
    expect(wrong.text).not.toContain('"parts"')
  })

  it('answers 503 naming D1 when it throws', async () => {
    const { status, report } = await deepHealth({ DB: broken<D1Database>('D1') })
    expect(status).toBe(503)
    expect(report.failed).toEqual(expect.arrayContaining(['d1']))
    expect(report.parts.d1?.reason).toContain('D1 unavailable')
    expect(report.parts['kv:CACHE']?.ok).toBe(true)
  })

  it('answers 503 naming the KV namespace that throws, and only it', async () => {
    const { status, report } = await deepHealth({ SESSIONS: broken<KVNamespace>('KV') })
    expect(status).toBe(503)
    expect(report.failed).toEqual(['kv:SESSIONS'])
  })

  it('answers 503 naming R2 when it throws', async () => {
    const { status, report } = await deepHealth({ FILES: broken<R2Bucket>('R2') })
    expect(status).toBe(503)
    expect(report.failed).toEqual(['r2'])
  })

  it('answers 503 naming a required secret that is missing, never a value', async () => {
    const { status, report, text } = await deepHealth({ MAIL_API_KEY: '' })
    expect(status).toBe(503)
    expect(report.failed).toEqual(['secrets'])
    expect(report.parts.secrets?.reason).toBe('missing: MAIL_API_KEY')
    for (const secret of [env.SESSION_SECRET, env.PURGE_SECRET, env.WHISTLEBLOWER_KEY, env.MAIL_WEBHOOK_SECRET])
      expect(text).not.toContain(secret)
  })

  it("asks the brand's backend over HTTP: 200 while it answers, 503 naming the upstream when it answers 500", async () => {
    const lane = faultLane()
    const bindings = { UPSTREAM_URL: lane.url, UPSTREAM_AREAS: 'none', UPSTREAM_TIMEOUT_MS: '1000' }
    const healthy = await deepHealth(bindings)
    expect(healthy.status, JSON.stringify(healthy.report.parts)).toBe(200)
    // The backend serves the eight calls only: no area of its own is asked; the Worker's held forms are.
    expect(Object.keys(healthy.report.parts).filter((name) => name.startsWith('upstream:'))).toEqual([
      'upstream:sites',
      'upstream:forms',
    ])
    await lane.fail('sites', { status: 500 })
    const failing = await deepHealth(bindings)
    expect(failing.status).toBe(503)
    expect(failing.report.failed).toContain('upstream:sites')
    expect(failing.report.parts['upstream:sites']?.reason).toBe('api/sites: unavailable 500')
    expect(failing.report.parts.d1?.ok).toBe(true)
  })

  it('bounds a part that does not answer: the report comes within a few seconds', async () => {
    const lane = faultLane()
    await lane.fail('sites', { delay: 10_000 })
    const started = Date.now()
    const { status, report } = await deepHealth({
      UPSTREAM_URL: lane.url,
      UPSTREAM_AREAS: 'none',
      UPSTREAM_TIMEOUT_MS: '30000',
    })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(status).toBe(503)
    expect(report.parts['upstream:sites']?.reason).toMatch(/no answer within/)
  })

  it('leaves /_health cheap: it touches no binding', async () => {
    const { status } = await visit('/_health', {}, { DB: broken('D1'), CACHE: broken('KV'), FILES: broken('R2') })
    expect(status).toBe(200)
  })
})

type DataPoint = { indexes?: unknown[]; blobs?: unknown[]; doubles?: number[] }

/** A recording Analytics Engine dataset: the binding the Worker writes its metrics into. */
function recordingDataset() {
  const points: DataPoint[] = []
  return { points, METRICS: { writeDataPoint: (point?: DataPoint) => void points.push(point ?? {}) } }
}

describe('the metrics data point', () => {
  it('is written once per request: route kind, market, cache outcome, method; status, duration, upstream calls and failures', async () => {
    await clearCaches()
    const { points, METRICS } = recordingDataset()
    await visit('/it-it/chi-siamo?email=someone@example.com', {}, { METRICS })
    expect(points).toHaveLength(1)
    const [page] = points
    expect(page?.indexes).toEqual(['/:market/:page'])
    expect(page?.blobs).toEqual(['/:market/:page', 'it-it', 'miss', 'GET'])
    const [status, duration, calls, failures] = page?.doubles ?? []
    expect(status).toBe(200)
    expect(duration).toBeGreaterThanOrEqual(0)
    expect(calls).toBeGreaterThan(0)
    expect(failures).toBe(0)
    expect(JSON.stringify(points)).not.toContain('someone@example.com')
    expect(JSON.stringify(points)).not.toContain('chi-siamo')
  })

  it('names a 404 by its route kind and status', async () => {
    const { points, METRICS } = recordingDataset()
    await visit('/it-it/no-such-page', {}, { METRICS })
    expect(points).toHaveLength(1)
    expect(points[0]?.blobs?.slice(0, 2)).toEqual(['/:market/:page', 'it-it'])
    expect(points[0]?.doubles?.[0]).toBe(404)
  })

  it("says a kept page came from the page cache, under its page's route kind", async () => {
    await clearCaches()
    await visit('/it-it/chi-siamo')
    const { points, METRICS } = recordingDataset()
    await visit('/it-it/chi-siamo', {}, { METRICS })
    expect(points).toHaveLength(1)
    expect(points[0]?.blobs?.[0]).toBe('/:market/:page')
    expect(['memory', 'cache']).toContain(points[0]?.blobs?.[2])
    expect(points[0]?.doubles?.[0]).toBe(200)
  })

  it('counts failed upstream calls', async () => {
    const lane = faultLane()
    await lane.fail('sites', { status: 500 })
    const { points, METRICS } = recordingDataset()
    await visit('/it-it', {}, { METRICS, UPSTREAM_URL: lane.url, UPSTREAM_AREAS: 'none', UPSTREAM_TIMEOUT_MS: '1000' })
    expect(points).toHaveLength(1)
    expect(points[0]?.doubles?.[0]).toBe(503)
    expect(points[0]?.doubles?.[3]).toBeGreaterThan(0)
  })

  it("counts the backend's failures only, not its 401s or refusals", () => {
    const log = new RequestLog('GET', '/it-it/my-account', { noTrace: false })
    const call = { method: 'GET', path: 'account/profile', ms: 3 }
    log.upstreamCall({ ...call, status: 200 })
    log.upstreamCall({ ...call, status: 401, failure: 'unauthorized' })
    log.upstreamCall({ ...call, status: 422, failure: 'rejected' })
    log.upstreamCall({ ...call, status: 502, failure: 'unavailable' })
    log.upstreamCall({ ...call, status: 0, failure: 'timeout' })
    expect(log.summary(200)).toMatchObject({ upstreamCalls: 5, upstreamFailures: 2 })
  })

  it('leaves the market and the upstream out on the whistleblower channel', async () => {
    const { points, METRICS } = recordingDataset()
    await visit('/it-it/whistleblower-form', {}, { METRICS })
    expect(points[0]?.blobs).toEqual(['/:market/whistleblower-form', '', 'none', 'GET'])
    expect(points[0]?.doubles?.slice(2)).toEqual([0, 0])
  })

  it('writes nothing and breaks nothing without the binding', async () => {
    expect((await visit('/it-it/chi-siamo', {}, { METRICS: undefined })).status).toBe(200)
  })
})
