// `npm run bench:scale` (issue 31): the site's cost per request as the brand grows. For each scale (1×, 10×, 100×;
// `BENCH_SCALES=1,10` picks), the demo grown by scripts/scale/generate.mjs into a D1 of its own (kept under
// dist/bench/scale-N/seeded, made again when the generator's statements change or with `BENCH_SCALE_FRESH=1`), the
// built Worker in workerd with the page cache off, and for every page kind and console list of
// scripts/scale/page-kinds.mjs, `BENCH_SCALE_REQUESTS` (20) requests one after the other once its lookups are warm:
//   - CPU per request: the workerd processes' user + system time from /proc over the requests ÷ their number;
//   - peak memory: the most any one request raised workerd's peak resident set (VmHWM, reset before each request
//     through /proc/PID/clear_refs) above its resident set then (docs/decisions/067);
//   - D1 rows read and written, the largest KV value written and the upstream calls, per request, from the Worker's
//     own request log (D1's own `meta.rows_read`/`rows_written`, reference-api/row-count.ts);
// then every KV value the scale left, by size (`BENCH_SCALE_ONLY`, a regular expression, measures only the kinds it
// matches: a look at one kind while working on it). At the largest scale, the warm anonymous home page (page cache on)
// against the ceiling: the same bytes from a tiny Worker's memory (scripts/bench-tools.mjs, as `npm run bench`).
// Prints a table per scale and the targets as PASS/FAIL; writes dist/bench/scale-report.json. It measures: it exits 0
// whether or not a target is met. Everything runs on 127.0.0.1 (`BENCH_SCALE_PORT`, 8795, and the next one).
import { createHash } from 'node:crypto'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { readD1Migrations } from '@cloudflare/vitest-plugin'
import {
  TICKS_PER_SECOND,
  buildBenchWorker,
  ceilingSite,
  delay,
  requestLog,
  runtimeOf,
  seedDatabase,
  siteStorage,
  timedGet,
  workerd,
  workerdCpuTicks,
  workerdPids,
} from './bench-tools.mjs'
import { DEMO_STAFF, demoSeedStatements } from './demo-seed.mjs'
import { demoSessionCookie } from './demo-login.mjs'
import { root } from './local.mjs'
import { MANY_ORDERS_CUSTOMER, reindexStatements, scaleCounts, scaleStatements } from './scale/generate.mjs'
import { PAGE_KINDS, pathOf, rowsBound, shownIn } from './scale/page-kinds.mjs'
import { consoleSessionCookie } from './staff-login.mjs'

const SCALES = (process.env.BENCH_SCALES || '1,10,100').split(',').map(Number)
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS || 20)
const WARM_UP = 3
const ONLY = new RegExp(process.env.BENCH_SCALE_ONLY || '')
/** How long a request may take before it counts as not answered. */
const REQUEST_TIMEOUT_MS = 60_000
const SECONDS = Number(process.env.BENCH_SECONDS || 5)
const PORT = Number(process.env.BENCH_SCALE_PORT || 8795)
const ORIGIN = `http://127.0.0.1:${PORT}`

/** The targets of issue 31. */
const TARGETS = { cpuGrowth: 1.5, kvBytes: 1024 * 1024, memoryMb: 32, ceiling: 1.5 }

const { rawConfig, modules, outdir, BENCH } = buildBenchWorker()
const runtime = (port) => runtimeOf(rawConfig, port)
const schema = (await readD1Migrations(join(root, 'migrations'))).flatMap((m) => m.queries)
const { dealers } = JSON.parse(readFileSync(join(root, 'demo/content/dealers.json'), 'utf8'))
const reindex = reindexStatements(readFileSync(join(root, 'scripts/reindex-search.sql'), 'utf8'))

/**
 * The scale's database, seeded once and kept while the generator's statements stay the same: the schema, the demo
 * seed, the scale's rows, the search index rebuilt. Answers its folder and how long seeding took (0 when kept).
 */
async function seededScale(scale) {
  const folder = join(BENCH, `scale-${scale}`, 'seeded')
  const generated = scaleStatements(scale, { dealers })
  const demo = demoSeedStatements()
  // The demo seed's password hashes have a random salt: its statements' count stands for it in the fingerprint.
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([schema, demo.length, generated, reindex]))
    .digest('hex')
  const marker = join(folder, 'generated.sha256')
  if (!process.env.BENCH_SCALE_FRESH && existsSync(marker) && readFileSync(marker, 'utf8') === fingerprint)
    return { folder, seconds: 0 }
  const started = performance.now()
  await seedDatabase({
    folder,
    statements: [...schema, ...demo, ...generated, ...reindex],
    options: { ...runtime(PORT), modules, modulesRoot: outdir, ...siteStorage(rawConfig, folder) },
  })
  writeFileSync(marker, fingerprint)
  return { folder, seconds: (performance.now() - started) / 1000 }
}

/** The site in workerd on a fresh copy of the scale's database, with `vars` over the benchmark's variables. */
async function site(seeded, scale, vars = {}) {
  const log = requestLog()
  const d1 = join(BENCH, `scale-${scale}`, 'run')
  rmSync(d1, { recursive: true, force: true })
  cpSync(seeded, d1, { recursive: true })
  const mf = workerd({
    ...runtime(PORT),
    modules,
    modulesRoot: outdir,
    ...siteStorage(rawConfig, d1),
    bindings: {
      UPSTREAM_URL: '',
      UPSTREAM_TIMEOUT_MS: '10000',
      RENDER_MODE: 'auto',
      PAGE_CACHE: 'off',
      MAP_TILE_URL: '',
      SESSION_SECRET: 'bench-session-secret',
      PUBLIC_ORIGIN: ORIGIN,
      ...vars,
    },
    handleStructuredLogs: log.handle,
  })
  await mf.ready
  return { mf, log }
}

/** A same-origin form post with the visitor's cookie. */
const post = (path, cookie, fields) =>
  fetch(`${ORIGIN}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN, Cookie: cookie },
    body: new URLSearchParams(fields),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
const get = async (path, cookie) =>
  (
    await fetch(`${ORIGIN}${path}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
  ).text()

/**
 * The visitors' cookies: the customer with 500 orders (with a bike in the cart and the checkout's choices made, for
 * the cart and the review), the case handler and the editor; and the checkout's code.
 */
async function visitors() {
  const customer = await demoSessionCookie(ORIGIN, MANY_ORDERS_CUSTOMER)
  const member = (role) => DEMO_STAFF.find((staff) => staff.role === role)
  const added = await post('/it-it/cart/items', customer, {
    sku: 'STR9-M-RED',
    quantity: '1',
    key: `bench-scale-${Date.now()}-abcdefghijk`,
    product: 'aurora-strada-9',
  })
  if (added.status !== 303) throw new Error(`adding to the cart answered ${added.status}`)
  const code = /\/it-it\/checkout\/([A-Za-z0-9_-]+)/.exec(await get('/it-it/cart', customer))?.[1] ?? ''
  const form = await get(`/it-it/checkout/${code}`, customer)
  const chosen = await post(`/it-it/checkout/${code}`, customer, {
    delivery: 'home',
    ship_choice: /name="ship_choice"[^>]*value="(\d+)"/.exec(form)?.[1] ?? '',
    billing_same: 'on',
    payment_method: 'card',
    form_token: /name="form_token" value="([^"]+)"/.exec(form)?.[1] ?? '',
  })
  if (chosen.status !== 303) throw new Error(`the checkout's choices answered ${chosen.status}`)
  return {
    code,
    cookies: {
      anonymous: '',
      customer,
      case_handler: await consoleSessionCookie(ORIGIN, member('case_handler')),
      editor: await consoleSessionCookie(ORIGIN, member('editor')),
    },
  }
}

/** workerd's resident set (`VmRSS`) or its peak (`VmHWM`), in kB, over its processes. */
const memoryKb = (field, pids) =>
  pids.reduce((sum, pid) => {
    try {
      const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))
      return sum + Number(line?.[1] ?? 0)
    } catch {
      return sum
    }
  }, 0)
/** Resets workerd's peak resident set to its resident set now (`5` to clear_refs); answers the resident set. */
function resetPeakMemory(pids) {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
    } catch {}
  }
  return memoryKb('VmRSS', pids)
}

const average = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0)

/** One page kind: warmed up, then `REQUESTS` requests one after the other; its figures per request. */
async function measureKind(target, kind, scale, { code, cookies }) {
  const path = pathOf(kind, scale, code)
  const headers = cookies[kind.visitor] ? { Cookie: cookies[kind.visitor] } : {}
  for (let i = 0; i < WARM_UP; i++)
    await (await fetch(`${ORIGIN}${path}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).arrayBuffer()
  await delay(300)
  target.log.start({ record: true })
  // Read once: spawning pgrep around every request cost more than the request under load.
  const pids = workerdPids()
  let ticks = 0
  let done = 0
  let peakKb = 0
  let body = ''
  let status = 0
  for (let i = 0; i < REQUESTS; i++) {
    const rssBefore = resetPeakMemory(pids)
    const ticksBefore = workerdCpuTicks(pids)
    try {
      const answer = await fetch(`${ORIGIN}${path}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
      body = await answer.text()
      status = answer.status
    } catch (error) {
      // A request workerd never answers (seen once under load) is the kind's failure, not the run's end.
      console.log(`  ${kind.name}: ${error instanceof Error ? error.message : String(error)}`)
      status = 0
      break
    }
    ticks += workerdCpuTicks(pids) - ticksBefore
    peakKb = Math.max(peakKb, memoryKb('VmHWM', pids) - rssBefore)
    done++
  }
  const peakMb = peakKb / 1024
  const { entries } = await target.log.stop()
  const shown = shownIn(kind, body)
  return {
    name: kind.name,
    status,
    cpuMs: (ticks * 1000) / TICKS_PER_SECOND / Math.max(1, done),
    peakMb,
    rowsRead: average(entries.map((entry) => entry.rowsRead ?? 0)),
    rowsWritten: average(entries.map((entry) => entry.rowsWritten ?? 0)),
    kvLargestPut: Math.max(0, ...entries.map((entry) => entry.kvLargestPut ?? 0)),
    upstreamCalls: average(entries.map((entry) => entry.upstreamCalls ?? 0)),
    shown,
    rowsBound: rowsBound(shown),
    kib: Buffer.byteLength(body) / 1024,
    logged: entries.length,
  }
}

/** The largest value of the KV namespace (every key read once), in bytes, and its key. */
async function largestKvValue(mf) {
  const kv = await mf.getKVNamespace('CACHE')
  let largest = { bytes: 0, key: '' }
  let cursor
  do {
    const page = await kv.list({ cursor })
    for (const { name } of page.keys) {
      const value = await kv.get(name, 'arrayBuffer')
      if (value && value.byteLength > largest.bytes) largest = { bytes: value.byteLength, key: name }
    }
    cursor = page.list_complete ? undefined : page.cursor
  } while (cursor)
  return largest
}

/** CPU per request of a warm URL under load (autocannon, 8 connections, `SECONDS`), and its answer. */
async function loadCpu(url) {
  for (let i = 0; i < 50; i++) await (await fetch(url)).arrayBuffer()
  const page = await timedGet(url)
  const ticksBefore = workerdCpuTicks()
  const result = await autocannon({ url, connections: 8, duration: SECONDS })
  const ticks = workerdCpuTicks() - ticksBefore
  return { page, cpuMs: (ticks * 1000) / TICKS_PER_SECOND / result.requests.total }
}

/** The warm anonymous home page (page cache on) against the same bytes from memory: their CPU per request. */
async function warmAgainstCeiling(seeded, scale) {
  const cached = await site(seeded, scale, { PAGE_CACHE: 'on' })
  const anonymous = await loadCpu(`${ORIGIN}/it-it`)
  await cached.mf.dispose()
  const top = await ceilingSite(anonymous.page, runtime(PORT), join(BENCH, 'ceiling.mjs'))
  const ceiling = await loadCpu(`${ORIGIN}/it-it`)
  await top.mf.dispose()
  return { anonymous: anonymous.cpuMs, ceiling: ceiling.cpuMs, ratio: anonymous.cpuMs / ceiling.cpuMs }
}

const pad = (value, width) => String(value).padStart(width)
function printTable(rows) {
  console.log(
    `${'page kind'.padEnd(34)} ${pad('status', 6)} ${pad('CPU/req', 9)} ${pad('peak MB', 8)} ${pad('rows read', 10)} ${pad('(bound)', 8)} ${pad('written', 8)} ${pad('KV put KiB', 10)} ${pad('up/req', 6)} ${pad('KiB', 6)}`,
  )
  for (const row of rows)
    console.log(
      [
        row.name.padEnd(34),
        pad(row.status, 6),
        pad(`${row.cpuMs.toFixed(2)} ms`, 9),
        pad(row.peakMb.toFixed(1), 8),
        pad(row.rowsRead.toFixed(0), 10),
        pad(row.rowsBound, 8),
        pad(row.rowsWritten.toFixed(0), 8),
        pad((row.kvLargestPut / 1024).toFixed(1), 10),
        pad(row.upstreamCalls.toFixed(1), 6),
        pad(row.kib.toFixed(1), 6),
      ].join(' '),
    )
}

console.log(
  `\nScale benchmark (issue 31): ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}, workerd ${createRequire(import.meta.url)('workerd/package.json').version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${REQUESTS} requests per page kind after ${WARM_UP} to warm its lookups, page cache off`,
)
const report = { date: new Date().toISOString(), cores: cpus().length, cpu: cpus()[0]?.model, scales: {} }
for (const scale of SCALES) {
  const { folder, seconds } = await seededScale(scale)
  const counts = Object.entries(scaleCounts(scale))
    .map(([kind, count]) => `${count.toLocaleString('en')} ${kind}`)
    .join(', ')
  console.log(
    `\n${scale}× (the demo and ${counts}): ${seconds ? `seeded in ${seconds.toFixed(0)} s` : 'database kept from an earlier run'}`,
  )
  const target = await site(folder, scale)
  const rows = []
  try {
    if (process.env.BENCH_SCALE_VERBOSE) console.log('  signing in, filling the cart')
    const visit = await visitors()
    for (const kind of PAGE_KINDS.filter((kind) => ONLY.test(kind.name))) {
      if (process.env.BENCH_SCALE_VERBOSE) console.log(`  measuring ${kind.name}`)
      rows.push(await measureKind(target, kind, scale, visit))
    }
    printTable(rows)
    const kv = await largestKvValue(target.mf)
    console.log(`largest KV value: ${(kv.bytes / 1024).toFixed(1)} KiB (${kv.key})`)
    report.scales[scale] = { seededSeconds: seconds, rows, kv }
  } finally {
    await target.mf.dispose()
  }
  if (scale === Math.max(...SCALES)) report.ceiling = { scale, ...(await warmAgainstCeiling(folder, scale)) }
}
writeFileSync(join(BENCH, 'scale-report.json'), `${JSON.stringify(report, null, 2)}\n`)

const verdict = (ok) => (ok ? 'PASS' : 'FAIL')
const [smallest, largest] = [Math.min(...SCALES), Math.max(...SCALES)]
const at = (scale) => report.scales[scale]?.rows ?? []
console.log(`\nTargets (issue 31), ${smallest}× → ${largest}×`)
for (const row of at(largest)) {
  const base = at(smallest).find((other) => other.name === row.name)
  const growth = base && base.cpuMs > 0 ? row.cpuMs / base.cpuMs : Number.NaN
  console.log(
    `  ${row.name.padEnd(34)} CPU ${pad(growth.toFixed(2), 6)}× (≤ ${TARGETS.cpuGrowth})  ${verdict(growth <= TARGETS.cpuGrowth)}   rows read ${pad(row.rowsRead.toFixed(0), 7)} (≤ ${row.rowsBound})  ${verdict(row.rowsRead <= row.rowsBound)}   status ${row.status} ${verdict(row.status === 200)}`,
  )
}
const largestKv = Math.max(...SCALES.map((scale) => report.scales[scale].kv.bytes))
console.log(
  `  no KV value over 1 MiB: largest ${(largestKv / 1024).toFixed(1)} KiB  ${verdict(largestKv <= TARGETS.kvBytes)}`,
)
const peak = Math.max(...SCALES.flatMap((scale) => at(scale).map((row) => row.peakMb)))
console.log(
  `  no request over ${TARGETS.memoryMb} MB: largest peak ${peak.toFixed(1)} MB  ${verdict(peak <= TARGETS.memoryMb)}`,
)
const { ceiling } = report
console.log(
  `  warm anonymous home at ${ceiling.scale}× ÷ ceiling: ${ceiling.anonymous.toFixed(3)} ms ÷ ${ceiling.ceiling.toFixed(3)} ms = ${ceiling.ratio.toFixed(2)}  (≤ ${TARGETS.ceiling})  ${verdict(ceiling.ratio <= TARGETS.ceiling)}`,
)
