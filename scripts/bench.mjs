// `npm run bench`: the home page under load on 127.0.0.1 in workerd (Miniflare, no wrangler dev proxy), warm caches.
// Four runs, one after the other: the site as deployed (RENDER_MODE=auto), the same page for a logged-in customer
// (their session read from KV on every request), the same bundle forced through plain `renderToReadableStream`
// (RENDER_MODE=stream), and the same page saved as a static asset, served by the site's own assets binding in the
// same runtime.
// Reports requests/s, latency p50/p99 and workerd CPU ms per request (from /proc), and the ratios.
// It builds into dist/bench/ only (the client, the manifest the bundled Worker imports, the Worker), so a site that
// `npm start` is serving meanwhile keeps its dist/client, its src/render/asset-manifest.json and its dist/worker.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join, relative } from 'node:path'
import autocannon from 'autocannon'
import { Miniflare } from 'miniflare'
import { experimental_readRawConfig } from 'wrangler'
import { readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { demoSeedStatements } from './demo-seed.mjs'
import { root, run } from './local.mjs'

const PATH = '/it-it'
const SECONDS = Number(process.env.BENCH_SECONDS || 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 8)
const PORT = 8790
const TICKS_PER_SECOND = 100

const BENCH = join(root, 'dist/bench')
const clientDir = join(BENCH, 'client')
const manifestFile = join(BENCH, 'asset-manifest.json')
const outdir = join(BENCH, 'worker')
/**
 * wrangler.toml as deployed, with the build sent to dist/bench: its [build] command (which `wrangler deploy` runs
 * itself) writes the client and the manifest there, the bundle imports that manifest (an alias of the one import of
 * src/render/assets.ts) and the assets are that client. Paths are absolute: the file lives in dist/bench.
 */
function benchConfig() {
  const { rawConfig } = experimental_readRawConfig({ config: join(root, 'wrangler.toml') })
  const file = join(BENCH, 'wrangler.json')
  const build = `node scripts/build-client.mjs --outdir ${relative(root, clientDir)} --manifest ${relative(root, manifestFile)}`
  writeFileSync(file, `${JSON.stringify({
    ...rawConfig,
    main: join(root, rawConfig.main),
    build: { command: build, cwd: root },
    assets: { ...rawConfig.assets, directory: clientDir },
    alias: { ...rawConfig.alias, './asset-manifest.json': manifestFile },
  }, null, 2)}\n`)
  return file
}
mkdirSync(BENCH, { recursive: true })
run('npx', ['wrangler', 'deploy', '--dry-run', '--config', benchConfig(), '--outdir', outdir, '--minify'])
const modules = readdirSync(outdir)
  .filter((f) => f.endsWith('.js'))
  .map((f) => ({ type: 'ESModule', path: join(outdir, f), contents: readFileSync(join(outdir, f)) }))
const schema = (await readD1Migrations(join(root, 'migrations'))).flatMap((m) => m.queries)
const seed = demoSeedStatements()

/** The Worker's own log lines would only slow the run down: read and dropped. */
const drain = (stdout, stderr) => {
  stdout.resume()
  stderr.resume()
}

/** workerd processes started by this script (Miniflare's children), for their CPU time. */
function workerdCpuTicks() {
  const pids = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean)
  return pids.reduce((sum, pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      return sum + Number(fields[11]) + Number(fields[12])
    } catch {
      return sum
    }
  }, 0)
}

/**
 * The site in workerd. Without `assetsDirectory`, requests reach the Worker directly: in production the asset routing
 * happens before the Worker and is not its CPU, but Miniflare emulates it inside the same workerd process.
 */
async function site(mode, assetsDirectory) {
  const mf = new Miniflare({
    modules,
    modulesRoot: outdir,
    compatibilityDate: '2026-04-20',
    host: '127.0.0.1',
    port: PORT,
    kvNamespaces: ['CACHE', 'SESSIONS'],
    d1Databases: ['DB'],
    r2Buckets: ['FILES'],
    // wrangler.toml's limiters (docs/decisions/006).
    ratelimits: {
      CLIENT_ATTEMPTS: { simple: { limit: 20, period: 60 } },
      ACCOUNT_CLIENT_ATTEMPTS: { simple: { limit: 5, period: 60 } },
      ACCOUNT_ATTEMPTS: { simple: { limit: 30, period: 60 } },
      BIKE_REGISTRATION_ATTEMPTS: { simple: { limit: 5, period: 60 } },
      PURGE_ATTEMPTS: { simple: { limit: 5, period: 60 } },
    },
    bindings: {
      UPSTREAM_URL: '', UPSTREAM_TIMEOUT_MS: '3000', RENDER_MODE: mode, MAP_TILE_URL: '', SESSION_SECRET: 'bench-session-secret',
      PUBLIC_ORIGIN: `http://127.0.0.1:${PORT}`,
    },
    ...(assetsDirectory
      ? { assets: { directory: assetsDirectory, binding: 'ASSETS', routerConfig: { has_user_worker: true } } }
      : { serviceBindings: { ASSETS: () => new Response('Not found', { status: 404 }) } }),
    handleRuntimeStdio: drain,
  })
  const db = await mf.getD1Database('DB')
  for (const sql of [...schema, ...seed]) await db.prepare(sql).run()
  return mf
}

/** The site with the home page saved as a static asset beside the client build, at `/bench/home`. */
async function siteWithSavedPage(html) {
  const directory = join(BENCH, 'client-with-page')
  rmSync(directory, { recursive: true, force: true })
  cpSync(clientDir, directory, { recursive: true })
  mkdirSync(join(directory, 'bench'), { recursive: true })
  writeFileSync(join(directory, 'bench/home.html'), html)
  return site('auto', directory)
}

/** Logs the demo customer in through the site's own form and answers the session cookie. */
async function logIn() {
  const origin = `http://127.0.0.1:${PORT}`
  const answer = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ email: 'customer@example.com', password: 'Demo-Rider-2026!' }),
  })
  const cookie = answer.headers.getSetCookie().findLast((line) => line.startsWith('__Host-AuthTkn='))
  if (answer.status !== 303 || !cookie) throw new Error(`login answered ${answer.status}`)
  return cookie.split(';')[0]
}

async function measure(name, mf, path = PATH, headers = {}) {
  const url = `http://127.0.0.1:${PORT}${path}`
  for (let i = 0; i < 50; i++) await (await fetch(url, { headers })).text() // warm the isolate, the memo and KV
  const page = await fetch(url, { headers })
  const html = await page.text()
  if (page.status !== 200) throw new Error(`${url} answered ${page.status}`)
  const bytes = html.length
  const ticksBefore = workerdCpuTicks()
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS })
  const cpuMs = ((workerdCpuTicks() - ticksBefore) * 1000) / TICKS_PER_SECOND / result.requests.total
  await mf.dispose()
  const row = {
    name,
    bytes,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs,
    non2xx: result.non2xx,
    html,
  }
  console.log(`${name.padEnd(34)} ${String(Math.round(row.rps)).padStart(6)} req/s   p50 ${String(row.p50).padStart(3)} ms   p99 ${String(row.p99).padStart(3)} ms   CPU ${row.cpuMs.toFixed(2)} ms/req   ${(bytes / 1024).toFixed(1)} KiB${row.non2xx ? `   ${row.non2xx} non-2xx!` : ''}`)
  return row
}

console.log(`\nBenchmark: GET ${PATH}, ${CONNECTIONS} connections × ${SECONDS} s each, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), node ${process.version}\n`)
const ours = await measure('home (ours: string when ready)', await site('auto'))
const loggedInSite = await site('auto')
const loggedIn = await measure('home, logged in (session in KV)', loggedInSite, PATH, { Cookie: await logIn() })
const stream = await measure('home (plain renderToReadableStream)', await site('stream'))
const fixed = await measure('the same page as a static asset', await siteWithSavedPage(ours.html), '/bench/home')

console.log('\nRatios')
console.log(`  CPU per request, ours / plain stream:   ${(ours.cpuMs / stream.cpuMs).toFixed(2)}  (target ≤ 0.50)`)
console.log(`  requests/s, ours / plain stream:        ${(ours.rps / stream.rps).toFixed(2)}`)
console.log(`  CPU per request, logged in / anonymous: ${(loggedIn.cpuMs / ours.cpuMs).toFixed(2)}`)
console.log(`  CPU per request, ours / static asset:   ${(ours.cpuMs / fixed.cpuMs).toFixed(2)}`)
console.log(`  requests/s, ours / static asset:        ${(ours.rps / fixed.rps).toFixed(2)}`)
