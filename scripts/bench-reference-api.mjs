// `node scripts/tool.mjs node scripts/bench-reference-api.mjs`: what the reference API costs the site in-process
// against a second Worker over a service binding (docs/decisions/032). Both are built as deployed (minified bundles
// of wrangler's) from the same code: worker.ts (the site with the API's fetch handed in), and two Workers — the site
// composed with a fetch that goes through its `REFERENCE_API` service binding, and the reference API alone. Each runs
// on a fresh workerd (Miniflare, 127.0.0.1, one demo database both Workers share); pages whose upstream calls are made
// on every request (page cache off; an account page of the demo customer) are loaded with autocannon, the variants
// alternating over `ROUNDS` rounds. Reports requests/s, latency p50/p99, workerd CPU ms per request (from /proc) and
// upstream calls per request (from the site's own request log). It measures: it exits 0 whatever it finds.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { experimental_readRawConfig } from 'wrangler'
import { readD1Migrations } from '@cloudflare/vitest-plugin'
import { delay, requestLog } from './bench-tools.mjs'
import { demoSeedStatements } from './demo-seed.mjs'
import { root, runTool } from './local.mjs'

const PORT = Number(process.env.BENCH_PORT || 8792)
const ORIGIN = `http://127.0.0.1:${PORT}`
const SECONDS = Number(process.env.BENCH_SECONDS || 6)
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3)
const CONNECTIONS = 8
const TICKS_PER_SECOND = 100
const PAGES = [
  { name: 'home, rendered', path: '/it-it' },
  { name: 'product, rendered', path: '/it-it/products/aurora-strada-9' },
  { name: 'orders, logged in', path: '/it-it/my-account/orders', loggedIn: true },
]

/** The benchmark serves no static files: the pages' own cost is measured. */
const noAssets = () => new Response('Not found', { status: 404 })

const BENCH = join(root, 'dist/bench-reference-api')
const clientDir = join(BENCH, 'client')
const manifestFile = join(BENCH, 'asset-manifest.json')
const { rawConfig } = experimental_readRawConfig({ config: join(root, 'wrangler.toml') })
rmSync(BENCH, { recursive: true, force: true })
mkdirSync(join(BENCH, 'entries'), { recursive: true })
runTool('node', ['scripts/build-client.mjs', '--outdir', clientDir, '--manifest', manifestFile])

/** Composition roots of the split variant: the site over its service binding, and the reference API alone. */
const entries = {
  'in-process': join(root, 'worker.ts'),
  'site-over-binding': join(BENCH, 'entries/site-over-binding.ts'),
  'reference-api': join(BENCH, 'entries/reference-api.ts'),
}
writeFileSync(
  entries['site-over-binding'],
  `import site from '${root}/src/index'
import { embedReferenceApi } from '${root}/src/upstream/reference-api'
const apart = async () => { throw new Error('the reference API runs its duties in its own Worker') }
embedReferenceApi({
  fetch: (request, env) => (env as unknown as { REFERENCE_API: Fetcher }).REFERENCE_API.fetch(request),
  claimUnqueuedMails: apart, releaseMails: apart, sendMail: apart, failMail: apart, suppressAddress: apart,
  deleteSubmissions: apart, deleteReporterMails: apart, rewrapSealed: apart,
})
export default site
`,
)
writeFileSync(
  entries['reference-api'],
  `import { api } from '${root}/reference-api'
export default { fetch: (request: Request, env: { DB: D1Database }, ctx: ExecutionContext) => api.fetch(request, env, ctx) }
`,
)

/** Each entry bundled as `wrangler deploy` bundles it, minified; answers its modules. */
function bundle(name) {
  const outdir = join(BENCH, 'worker', name)
  const config = join(BENCH, `${name}.json`)
  const { build: _, triggers: __, ...deployed } = rawConfig
  writeFileSync(
    config,
    JSON.stringify({
      ...deployed,
      name,
      main: entries[name],
      assets: undefined,
      alias: { './asset-manifest.json': manifestFile },
    }),
  )
  runTool('wrangler', ['deploy', '--dry-run', '--config', config, '--outdir', outdir, '--minify'])
  return {
    outdir,
    modules: readdirSync(outdir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => ({ type: 'ESModule', path: join(outdir, f), contents: readFileSync(join(outdir, f)) })),
  }
}
const built = Object.fromEntries(Object.keys(entries).map((name) => [name, bundle(name)]))

const workerdCpuTicks = () =>
  execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)
    .reduce((sum, pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
        return sum + Number(fields[11]) + Number(fields[12])
      } catch {
        return sum
      }
    }, 0)

const shared = {
  compatibilityDate: rawConfig.compatibility_date,
  compatibilityFlags: rawConfig.compatibility_flags ?? [],
}
const siteBindings = {
  kvNamespaces: ['CACHE', 'SESSIONS'],
  d1Databases: ['DB'],
  r2Buckets: ['FILES'],
  ratelimits: Object.fromEntries(
    (rawConfig.ratelimits ?? []).map(({ name, namespace_id, simple }) => [name, { namespace_id, simple }]),
  ),
  bindings: {
    // A long timeout: on a loaded machine the login's PBKDF2 may take seconds, and a timeout is no figure.
    UPSTREAM_URL: '',
    UPSTREAM_TIMEOUT_MS: '30000',
    RENDER_MODE: 'auto',
    PAGE_CACHE: 'off',
    MAP_TILE_URL: '',
    SESSION_SECRET: 'bench-session-secret',
    PUBLIC_ORIGIN: ORIGIN,
  },
}
const workerOf = (name, options) => ({
  name,
  ...shared,
  modules: built[name].modules,
  modulesRoot: built[name].outdir,
  ...options,
})

/** A fresh workerd of a variant over a copy of the seeded database; the site's request log read as it comes. */
async function start(variant, d1) {
  const log = requestLog()
  const workers =
    variant === 'in-process'
      ? [workerOf('in-process', { ...siteBindings, serviceBindings: { ASSETS: noAssets } })]
      : [
          workerOf('site-over-binding', {
            ...siteBindings,
            serviceBindings: { ASSETS: noAssets, REFERENCE_API: 'reference-api' },
          }),
          workerOf('reference-api', { d1Databases: ['DB'] }),
        ]
  const mf = new Miniflare({
    ...convertV4MiniflareOptions({ host: '127.0.0.1', port: PORT, workers, handleStructuredLogs: log.handle }),
    resourcePersistencePath: d1,
  })
  await mf.ready
  return { mf, log }
}

// The demo database, seeded once through the in-process Worker; each run starts from a copy.
const seeded = join(BENCH, 'd1-seeded')
{
  const mf = new Miniflare({
    ...convertV4MiniflareOptions({ host: '127.0.0.1', port: PORT, workers: [workerOf('in-process', siteBindings)] }),
    resourcePersistencePath: seeded,
  })
  const db = await mf.getD1Database('DB')
  for (const sql of [
    ...(await readD1Migrations(join(root, 'migrations'))).flatMap((m) => m.queries),
    ...demoSeedStatements(),
  ])
    await db.prepare(sql).run()
  await mf.dispose()
}

async function logIn() {
  const answer = await fetch(`${ORIGIN}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN },
    body: new URLSearchParams({ email: 'customer@example.com', password: 'Demo-Rider-2026!' }),
  })
  const cookie = answer.headers.getSetCookie().findLast((line) => line.startsWith('__Host-AuthTkn='))
  if (answer.status !== 303 || !cookie)
    throw new Error(
      `login answered ${answer.status}: ${(await answer.text())
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 300)}`,
    )
  return cookie.split(';')[0]
}

const results = {}
let copies = 0
for (let round = 1; round <= ROUNDS; round++) {
  const order = (round % 2 ? ['in-process', 'service binding'] : ['service binding', 'in-process']).filter(
    (variant) => !process.env.BENCH_VARIANT || variant === process.env.BENCH_VARIANT,
  )
  for (const variant of order) {
    const d1 = join(BENCH, `d1-${++copies}`)
    cpSync(seeded, d1, { recursive: true })
    const { mf, log } = await start(variant, d1)
    const session = await logIn()
    for (const page of PAGES) {
      const headers = page.loggedIn ? { Cookie: session } : {}
      const url = `${ORIGIN}${page.path}`
      for (let i = 0; i < 30; i++) {
        const warm = await fetch(url, { headers })
        await warm.arrayBuffer()
        if (warm.status !== 200) throw new Error(`${variant}: ${page.path} answered ${warm.status}`)
      }
      await delay(300)
      log.start()
      const before = workerdCpuTicks()
      const run = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS })
      const ticks = workerdCpuTicks() - before
      const tally = await log.stop()
      const row = {
        rps: run.requests.average,
        p50: run.latency.p50,
        p99: run.latency.p99,
        cpu: (ticks * 1000) / TICKS_PER_SECOND / run.requests.total,
        calls: tally.requests ? tally.upstreamCalls / tally.requests : 0,
        bad: run.errors + run.timeouts + run.non2xx,
      }
      const key = `${page.name} | ${variant}`
      results[key] = [...(results[key] ?? []), row]
      console.log(
        `round ${round} ${`${page.name}, ${variant}`.padEnd(40)} ${String(Math.round(row.rps)).padStart(5)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  CPU ${row.cpu.toFixed(3)} ms/req  ${row.calls.toFixed(1)} calls/req  ${row.bad} bad`,
      )
    }
    await mf.dispose()
    rmSync(d1, { recursive: true, force: true })
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
console.log(`\nmedian of ${ROUNDS} rounds, ${CONNECTIONS} connections for ${SECONDS} s each:`)
console.log(
  `${'page | variant'.padEnd(42)} ${'req/s'.padStart(6)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'CPU/req'.padStart(9)} calls/req`,
)
for (const [name, rows] of Object.entries(results)) {
  console.log(
    `${name.padEnd(42)} ${String(Math.round(median(rows.map((r) => r.rps)))).padStart(6)} ${`${median(rows.map((r) => r.p50))} ms`.padStart(6)} ${`${median(rows.map((r) => r.p99))} ms`.padStart(6)} ${`${median(rows.map((r) => r.cpu)).toFixed(3)} ms`.padStart(9)} ${median(rows.map((r) => r.calls)).toFixed(1)}`,
  )
}
