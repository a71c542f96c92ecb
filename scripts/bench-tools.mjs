// Helpers of `npm run bench` (scripts/bench.mjs) and `npm run bench:scale` (scripts/bench-scale.mjs): the Worker built
// as deployed into dist/bench, workerd through Miniflare with the site's bindings, a seeded database, workerd's CPU time,
// the Worker's request log as Miniflare hands it over, the ceiling Worker, the slow upstream's proxy and a raw
// first-byte timer. Nothing here talks to anything but 127.0.0.1.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, createServer } from 'node:http'
import { join, relative } from 'node:path'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { experimental_readRawConfig } from 'wrangler'
import { root, runTool } from './local.mjs'

/** Where the benchmarks build and keep their databases (git-ignored). */
export const BENCH = join(root, 'dist/bench')

/**
 * Builds the Worker as deployed into dist/bench only (the client, the manifest the bundled Worker imports, the Worker),
 * so a site that `npm start` is serving meanwhile keeps its dist/client, its src/render/asset-manifest.json and its
 * dist/worker: wrangler.toml with the build sent to dist/bench — its [build] command (which `wrangler deploy` runs
 * itself) writes the client and the manifest there, the bundle imports that manifest (an alias of the one import of
 * src/render/assets.ts) and the assets are that client. Answers wrangler.toml as read and the bundle's modules.
 */
export function buildBenchWorker() {
  const clientDir = join(BENCH, 'client')
  const manifestFile = join(BENCH, 'asset-manifest.json')
  const outdir = join(BENCH, 'worker')
  const { rawConfig } = experimental_readRawConfig({ config: join(root, 'wrangler.toml') })
  const file = join(BENCH, 'wrangler.json')
  const build = `node scripts/build-client.mjs --outdir ${relative(root, clientDir)} --manifest ${relative(root, manifestFile)}`
  mkdirSync(BENCH, { recursive: true })
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        ...rawConfig,
        main: join(root, rawConfig.main),
        build: { command: build, cwd: root },
        assets: { ...rawConfig.assets, directory: clientDir },
        alias: { ...rawConfig.alias, './asset-manifest.json': manifestFile },
      },
      null,
      2,
    )}\n`,
  )
  runTool('wrangler', ['deploy', '--dry-run', '--config', file, '--outdir', outdir, '--minify'])
  const modules = readdirSync(outdir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ type: 'ESModule', path: join(outdir, f), contents: readFileSync(join(outdir, f)) }))
  return { rawConfig, modules, outdir, BENCH }
}

/**
 * The reference API as a Worker of its own (reference-api/wrangler.toml, the browser tests' "over HTTP" backend),
 * built as deployed (minified) into dist/bench/reference-api: answers its modules and their folder.
 */
export function buildReferenceApi() {
  const outdir = join(BENCH, 'reference-api')
  runTool('wrangler', [
    'deploy',
    '--dry-run',
    '--config',
    join(root, 'reference-api/wrangler.toml'),
    '--outdir',
    outdir,
    '--minify',
  ])
  const modules = readdirSync(outdir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ type: 'ESModule', path: join(outdir, f), contents: readFileSync(join(outdir, f)) }))
  return { modules, outdir }
}

/** The kernel's clock ticks per second (/proc's CPU times). */
export const TICKS_PER_SECOND = 100

/** The workerd processes this script started (Miniflare's children). */
export const workerdPids = () =>
  execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)

/** The CPU time (user + system, in ticks) of the workerd processes this script started (or of `pids`). */
export function workerdCpuTicks(pids = workerdPids()) {
  return pids.reduce((sum, pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      return sum + Number(fields[11]) + Number(fields[12])
    } catch {
      return sum
    }
  }, 0)
}

/** What the site and the ceiling share: the runtime's compatibility date and flags, 127.0.0.1 and the port. */
export const runtimeOf = (rawConfig, port) => ({
  compatibilityDate: rawConfig.compatibility_date,
  compatibilityFlags: rawConfig.compatibility_flags ?? [],
  host: '127.0.0.1',
  port,
})

/**
 * A workerd through Miniflare, from options in Miniflare 4's one-Worker shape (converted by Miniflare 5 itself), its
 * local state kept under `persistTo` (Miniflare 5's one persistence root: the D1 database under `d1/`).
 */
export const workerd = ({ persistTo, ...options }) =>
  new Miniflare({ ...convertV4MiniflareOptions(options), resourcePersistencePath: persistTo })

/** The benchmark serves no static files: the pages' own cost is measured. */
const noAssets = () => new Response('Not found', { status: 404 })

/** The site's bindings but its variables (and where its D1 database is kept). */
export const siteStorage = (rawConfig, persistTo) => ({
  kvNamespaces: ['CACHE', 'SESSIONS'],
  d1Databases: ['DB'],
  persistTo,
  r2Buckets: ['FILES'],
  // wrangler.toml's limiters (docs/decisions/006), each with its namespace as Miniflare 5 requires.
  ratelimits: Object.fromEntries(
    (rawConfig.ratelimits ?? []).map(({ name, namespace_id, simple }) => [name, { namespace_id, simple }]),
  ),
  serviceBindings: { ASSETS: noAssets },
})

/**
 * A database made once and kept in `folder`, which each site starts from a copy of: seeding goes through Miniflare's
 * synchronous proxy (`prepare`), which fails an assertion now and then on this machine (`SynchronousFetcher.fetch`,
 * seen under load): the seeding is then tried again on a fresh instance, up to three times. `options`: the workerd's
 * (the site's modules and storage under `folder`).
 */
export async function seedDatabase({ folder, statements, options }) {
  for (let attempt = 1; ; attempt++) {
    rmSync(folder, { recursive: true, force: true })
    const mf = workerd({ ...options, bindings: {}, handleStructuredLogs: () => {} })
    let at = 0
    try {
      const db = await mf.getD1Database('DB')
      for (; at < statements.length; at++) await db.prepare(statements[at]).run()
      return
    } catch (error) {
      const where = `statement ${at + 1} of ${statements.length}: ${String(statements[at]).slice(0, 80).replace(/\s+/g, ' ')}…`
      if (attempt === 3) throw new Error(`seeding failed at ${where}`, { cause: error })
      console.log(
        `seeding failed (${error instanceof Error ? error.message : String(error)}) at ${where}, trying again`,
      )
    } finally {
      await mf.dispose()
    }
  }
}

/**
 * The ceiling as a running workerd: the site's answer (status, headers, bytes) from a tiny Worker's memory, in the
 * same runtime (`runtime`: runtimeOf's), its module written to `file`. Answers it and its request log.
 */
export async function ceilingSite(answer, runtime, file) {
  const log = requestLog()
  const mf = workerd({
    ...runtime,
    modules: [{ type: 'ESModule', path: file, contents: ceilingWorker(answer) }],
    handleStructuredLogs: log.handle,
  })
  await mf.ready
  return { mf, log }
}

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
