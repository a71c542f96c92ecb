// Helpers of `npm run bench` (scripts/bench.mjs): the Worker's request log as Miniflare hands it over, the ceiling Worker,
// the slow upstream's proxy and a raw first-byte timer. Nothing here talks to anything but 127.0.0.1.
import { request as httpRequest, createServer } from 'node:http'

/**
 * Reads the Worker's own request log (JSON lines with `event: "request"`, as Miniflare hands each line over) and tallies
 * the lines that arrive while it is collecting: the page cache's outcomes, the KV reads among the cache lookups (every
 * outcome but `memo`: `hit`, `stale`, `miss`) and the upstream calls. Other lines are dropped unparsed; a line is only
 * parsed when it holds `"event":"request"`, so reading the log costs the load generator little.
 */
export function requestLog() {
  let collecting = false
  let recording = null
  let tally = emptyTally()
  const onLine = (line) => {
    if (!collecting || !line.includes('"event":"request"')) return
    let entry
    try {
      entry = JSON.parse(line)
    } catch {
      return
    }
    if (entry.event !== 'request') return
    tally.requests++
    if (entry.status >= 400) tally.failures++
    const lookups = entry.cacheLookups ?? {}
    for (const [outcome, count] of Object.entries(lookups)) {
      tally.lookups[outcome] = (tally.lookups[outcome] ?? 0) + count
      if (outcome !== 'memo') tally.kvReads += count
    }
    tally.upstreamCalls += entry.upstreamCalls ?? 0
    const page = entry.page ?? 'none'
    tally.page[page] = (tally.page[page] ?? 0) + 1
    recording?.push(entry)
  }
  return {
    /** Miniflare's `handleStructuredLogs`: one call per line the Worker logged. */
    handle: ({ message }) => onLine(message),
    /** Starts a new tally (and, with `record`, keeps every request line too). */
    start({ record = false } = {}) {
      tally = emptyTally()
      recording = record ? [] : null
      collecting = true
    },
    /** Stops once the lines of the requests answered so far had time to arrive; answers the tally. */
    async stop(settleMs = 300) {
      await delay(settleMs)
      collecting = false
      return { ...tally, entries: recording ?? [] }
    },
    /** The request lines recorded since `start({ record: true })`, without stopping. */
    entries: () => recording ?? [],
  }
}

function emptyTally() {
  return { requests: 0, failures: 0, kvReads: 0, upstreamCalls: 0, lookups: {}, page: {} }
}

export const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Headers of an answer that belong to its connection, not to the page: the ceiling's runtime sets its own. */
const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date'])

/**
 * The ceiling: a tiny ES module Worker that answers every request with the very same status, headers and bytes the
 * site answered (an answer of `timedGet`), held in the module's memory (decoded once, when the isolate loads it).
 */
export function ceilingWorker({ status, rawHeaders, bytes }) {
  const headers = []
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[i].toLowerCase())) headers.push([rawHeaders[i], rawHeaders[i + 1]])
  }
  return `const BODY = Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0))
const HEADERS = ${JSON.stringify(headers)}
export default {
  fetch() {
    return new Response(BODY, { status: ${status}, headers: HEADERS })
  },
}
`
}

/**
 * A proxy on 127.0.0.1 in front of the embedded API served over HTTP by another workerd (`/api/*`): it forwards every
 * call as it came, and holds the calls that `slow(path)` picks for `delayMs` first. Answers its port, what it saw, and
 * `close`.
 */
export async function slowProxy({ target, delayMs, slow }) {
  const calls = []
  const server = createServer((incoming, outgoing) => {
    const started = performance.now()
    const held = slow(incoming.url ?? '')
    const call = { path: incoming.url, held, started, answered: null }
    calls.push(call)
    setTimeout(
      () => {
        const forward = httpRequest(
          {
            host: '127.0.0.1',
            port: target,
            method: incoming.method,
            path: incoming.url,
            headers: { ...incoming.headers, host: `127.0.0.1:${target}` },
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(outgoing)
            answer.on('end', () => (call.answered = performance.now()))
          },
        )
        forward.on('error', () => outgoing.destroy())
        incoming.pipe(forward)
      },
      held ? delayMs : 0,
    )
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: /** @type {import('node:net').AddressInfo} */ (server.address()).port,
    calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/**
 * One GET on a fresh connection with Node's raw `http.request`: when the status line and headers came, when the
 * first body chunk came (time to first byte of the page) and when the body ended, in ms from the request's start.
 */
export function timedGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const chunks = []
    let firstChunkMs = null
    const req = httpRequest(url, { agent: false, headers }, (answer) => {
      const headersMs = performance.now() - started
      answer.on('data', (chunk) => {
        firstChunkMs ??= performance.now() - started
        chunks.push(chunk)
      })
      answer.on('end', () =>
        resolve({
          status: answer.statusCode,
          headers: answer.headers,
          headersMs,
          firstChunkMs,
          totalMs: performance.now() - started,
          chunks: chunks.length,
          rawHeaders: answer.rawHeaders,
          bytes: Buffer.concat(chunks),
          startedAt: started,
          endedAt: performance.now(),
        }),
      )
      answer.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}
