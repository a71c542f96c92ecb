// `node scripts/tool.mjs node scripts/profile-render.mjs`: where an uncached page spends its CPU, measured in workerd.
// The Worker is built as deployed but not minified (its functions keep their names, and esbuild's `// path` lines name
// each module of the bundle), served by Miniflare with every request rendered (PAGE_CACHE=off) and V8's sampling
// profiler on (the inspector); the page is loaded for PROFILE_SECONDS (8) with 4 connections, once with the kept parts
// (RENDER_MODE=auto) and once with every part rendered afresh (RENDER_MODE=fresh). Each sample goes to the first part
// of the table its stack reaches (leaf first), else to the module of its innermost frame. It prints, per page and
// mode, the share of samples and the CPU per request (the workerd process's own, from /proc) of each part
// (docs/decisions/063); each run's profile is written to dist/profile/{mode}{path}.cpuprofile.
// `PROFILE_UPSTREAM=http://127.0.0.1:<port>`: the site on that backend instead of the embedded API (the reference API
// as `PORT=<port> ACCESS_CLIENT_ID=profile-client ACCESS_CLIENT_SECRET=profile-secret node
// scripts/start-reference-api.mjs` serves it; decision 089). Only 127.0.0.1 is used.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { Miniflare, convertV4MiniflareOptions } from 'miniflare'
import { experimental_readRawConfig } from 'wrangler'
import WebSocket from 'ws'
import { readD1Migrations } from '@cloudflare/vitest-plugin'
import { demoSeedStatements } from './demo-seed.mjs'
import { root, runTool } from './local.mjs'
import { demoSessionCookie } from './demo-login.mjs'

const PAGES = (process.env.PROFILE_PAGES || '/it-it,/it-it/products/aurora-strada-9').split(',')
const MODES = (process.env.PROFILE_MODES || 'auto,fresh').split(',')
const SECONDS = Number(process.env.PROFILE_SECONDS || 8)
const PORT = Number(process.env.PROFILE_PORT || 8794)
const INSPECTOR = PORT + 1
const ORIGIN = `http://127.0.0.1:${PORT}`
const OUT = join(root, 'dist/profile')

/**
 * The parts of the table, in the order a sample's stack is matched against them (leaf first: the innermost frame
 * that matches decides). `module` matches the frame's source file, `name` its function.
 */
const PARTS = [
  ['hashing (CSP hashes, ETag)', { name: /^(digest|hashSource|inlineScriptHashes|etagOf|sha256|base64)$/ }],
  ['critical CSS (tokens, rules)', { module: /src\/render\/(critical-css|page-modules)/ }],
  ['escaping', { name: /^(escapeTextForBrowser|escapeHtml|escapeEntireInlineScriptContent|scriptJson)$/ }],
  ['JSON-LD', { module: /src\/seo\/(json-ld|structured)/, name: /jsonLd|JsonLd|structuredData/ }],
  ['hreflang and alternates', { module: /src\/seo\/(page-groups|alternates|hreflang)/, name: /alternate|hreflang/i }],
  ['consent banner and tracking snippet', { module: /src\/(tracking\/|components\/consent-banner)/ }],
  ['header and its menus', { module: /src\/(components\/header|market\/picker|pages\/chrome)|client\/islands/ }],
  ['footer', { module: /src\/components\/(footer|newsletter-form|social-links)/ }],
  ['kept parts (keys, splicing)', { module: /src\/render\/kept/ }],
  ['CSP and security headers', { module: /src\/security\// }],
  ['React render (renderToString / stream)', { module: /react-dom|node_modules\/react\// }],
  ['data mapping (readers, schemas)', { module: /src\/upstream\/readers|contract\/|node_modules\/zod/ }],
  ['the reference API (in-process, D1)', { module: /reference-api\// }],
  ['page components', { module: /src\/(pages|components)\// }],
  ['caches, lookups, market', { module: /src\/(cache|market|page-cache|i18n)\// }],
  ['Hono, middleware, request log', { module: /node_modules\/hono|src\/(app|index|request-context|ops|auth)/ }],
]

const { rawConfig } = experimental_readRawConfig({ config: join(root, 'wrangler.toml') })
mkdirSync(OUT, { recursive: true })
const config = join(OUT, 'wrangler.json')
writeFileSync(
  config,
  JSON.stringify({
    ...rawConfig,
    main: join(root, rawConfig.main),
    build: undefined,
    assets: { ...rawConfig.assets, directory: join(root, 'dist/client') },
  }),
)
runTool('wrangler', ['deploy', '--dry-run', '--config', config, '--outdir', join(OUT, 'worker')])
const outdir = join(OUT, 'worker')
const files = readdirSync(outdir).filter((f) => f.endsWith('.js'))
const modules = files.map((f) => ({ type: 'ESModule', path: join(outdir, f), contents: readFileSync(join(outdir, f)) }))
/** Each bundle file's module by line: esbuild writes `// path` before each module's code. */
const moduleLines = Object.fromEntries(
  files.map((f) => {
    const lines = readFileSync(join(outdir, f), 'utf8').split('\n')
    let current = '(bundle)'
    const modulesByLine = lines.map((line) => {
      if (/^\/\/ [\w@./-]+\.(m?[jt]sx?|json)$/.test(line)) current = line.slice(3)
      return current
    })
    return [f, modulesByLine]
  }),
)
const moduleOf = (url, line) => {
  const file = files.find((f) => url.endsWith(f))
  return file ? (moduleLines[file][line] ?? '(bundle)') : url || '(native)'
}

const schema = (await readD1Migrations(join(root, 'migrations'))).flatMap((m) => m.queries)
const seeded = join(OUT, 'd1-seeded')
rmSync(seeded, { recursive: true, force: true })

const bindings = (mode) => ({
  UPSTREAM_URL: process.env.PROFILE_UPSTREAM || '',
  UPSTREAM_ACCESS_CLIENT_ID: 'profile-client',
  UPSTREAM_ACCESS_CLIENT_SECRET: 'profile-secret',
  RENDER_MODE: mode,
  PAGE_CACHE: 'off',
  MAP_TILE_URL: '',
  SESSION_SECRET: 'profile-session-secret',
  PUBLIC_ORIGIN: ORIGIN,
})
/** The profile serves no static files: the pages' own cost is measured. */
const noAssets = () => new Response('Not found', { status: 404 })
const storage = (persistTo) => ({
  kvNamespaces: ['CACHE', 'SESSIONS'],
  d1Databases: ['DB'],
  r2Buckets: ['FILES'],
  ratelimits: Object.fromEntries(
    (rawConfig.ratelimits ?? []).map(({ name, namespace_id, simple }) => [name, { namespace_id, simple }]),
  ),
  serviceBindings: { ASSETS: noAssets },
  persistTo,
})
const workerd = (mode, persistTo) => {
  const { persistTo: resourcePersistencePath, ...kept } = storage(persistTo)
  return new Miniflare({
    ...convertV4MiniflareOptions({
      ...kept,
      compatibilityDate: rawConfig.compatibility_date,
      compatibilityFlags: rawConfig.compatibility_flags ?? [],
      host: '127.0.0.1',
      port: PORT,
      inspectorPort: INSPECTOR,
      modules,
      modulesRoot: outdir,
      bindings: bindings(mode),
      handleStructuredLogs: () => {},
    }),
    resourcePersistencePath,
  })
}

{
  const mf = workerd('auto', seeded)
  const db = await mf.getD1Database('DB')
  for (const sql of [...schema, ...demoSeedStatements()]) await db.prepare(sql).run()
  await mf.dispose()
}

/** The workerd processes' CPU ticks (user + system), as `npm run bench` reads them. */
function cpuTicks() {
  const pids = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
  return pids.filter(Boolean).reduce((sum, pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      return sum + Number(fields[11]) + Number(fields[12])
    } catch {
      return sum
    }
  }, 0)
}

/** The demo customer's session cookie. */
function logIn() {
  return demoSessionCookie(ORIGIN)
}

/** A DevTools protocol session with the Worker's isolate. */
async function inspect() {
  const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR}/json/list`)).json()
  const target = targets.find((t) => t.webSocketDebuggerUrl?.includes('core:user'))
  const socket = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let id = 0
  const pending = new Map()
  socket.on('message', (data) => {
    const message = JSON.parse(String(data))
    pending.get(message.id)?.(message.result)
    pending.delete(message.id)
  })
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve)
      socket.send(JSON.stringify({ id, method, params }))
    })
  return { send, close: () => socket.close() }
}

/** The samples' parts: the first part the stack reaches from its leaf, else its leaf's module. */
function partsOf(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const partOfNode = new Map()
  const classify = (id) => {
    if (partOfNode.has(id)) return partOfNode.get(id)
    const stack = []
    for (let at = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at).callFrame)
    const frames = stack.map((frame) => ({ name: frame.functionName, module: moduleOf(frame.url, frame.lineNumber) }))
    let part = null
    for (const frame of frames) {
      part = PARTS.find(([, rule]) => rule.name?.test(frame.name) || rule.module?.test(frame.module))?.[0]
      if (part) break
    }
    const leaf = stack[0]
    part ??= ['(idle)', '(program)', '(garbage collector)'].includes(leaf.functionName)
      ? leaf.functionName
      : `other: ${frames[0].module}`
    partOfNode.set(id, part)
    return part
  }
  const counts = {}
  const self = {}
  for (const sample of profile.samples) {
    const part = classify(sample)
    counts[part] = (counts[part] ?? 0) + 1
    const frame = nodes.get(sample).callFrame
    if (process.env.PROFILE_PART && part !== process.env.PROFILE_PART) continue
    const up = nodes.get(parent.get(sample))?.callFrame
    const caller = frame.url || !up ? '' : ` ← ${up.functionName || '(anonymous)'} ${moduleOf(up.url, up.lineNumber)}`
    const name = `${frame.functionName || '(anonymous)'} ${moduleOf(frame.url, frame.lineNumber)}${caller}`
    self[name] = (self[name] ?? 0) + 1
  }
  if (process.env.PROFILE_TOP) {
    const top = Object.entries(self)
      .sort((a, b) => b[1] - a[1])
      .slice(0, Number(process.env.PROFILE_TOP))
    for (const [name, n] of top) console.log(`  ${((n / profile.samples.length) * 100).toFixed(1)} %  ${name}`)
  }
  return counts
}

const results = []
for (const mode of MODES) {
  for (const path of PAGES) {
    const copy = join(OUT, `d1-${mode}`)
    rmSync(copy, { recursive: true, force: true })
    cpSync(seeded, copy, { recursive: true })
    const mf = workerd(mode, copy)
    await mf.ready
    // A page of the account is profiled for the demo customer, logged in through the site's own form.
    const headers = path.includes('/my-account') ? { Cookie: await logIn() } : {}
    for (let i = 0; i < 100; i++) await (await fetch(`${ORIGIN}${path}`, { headers })).arrayBuffer()
    const inspector = await inspect()
    await inspector.send('Profiler.enable')
    await inspector.send('Profiler.setSamplingInterval', { interval: 100 })
    await inspector.send('Profiler.start')
    const before = cpuTicks()
    const run = await autocannon({ url: `${ORIGIN}${path}`, headers, connections: 4, duration: SECONDS })
    const ticks = cpuTicks() - before
    const { profile } = await inspector.send('Profiler.stop')
    inspector.close()
    await mf.dispose()
    // Kept for a closer look (DevTools, or a script over its call tree): dist/profile/auto_it-it.cpuprofile.
    writeFileSync(join(OUT, `${mode}${path.replaceAll('/', '_')}.cpuprofile`), JSON.stringify(profile))
    const requests = run.requests.total
    results.push({ mode, path, requests, cpuMs: (ticks * 10) / requests, counts: partsOf(profile) })
    console.log(`${mode} ${path}: ${requests} requests, ${((ticks * 10) / requests).toFixed(3)} ms CPU a request`)
  }
}

const busy = (counts) =>
  Object.entries(counts)
    .filter(([part]) => part !== '(idle)')
    .reduce((sum, [, n]) => sum + n, 0)
console.log(`\npart | ${results.map((r) => `${r.mode} ${r.path}`).join(' | ')}`)
const names = [...new Set(results.flatMap((r) => Object.keys(r.counts)))].filter((p) => p !== '(idle)')
names.sort((a, b) => (results[0].counts[b] ?? 0) - (results[0].counts[a] ?? 0))
for (const part of names) {
  const cells = results.map((r) => {
    const share = (r.counts[part] ?? 0) / busy(r.counts)
    return `${(share * 100).toFixed(1)} % · ${(share * r.cpuMs * 1000).toFixed(0)} µs`
  })
  if (results.some((r) => (r.counts[part] ?? 0) / busy(r.counts) >= 0.005))
    console.log(`${part} | ${cells.join(' | ')}`)
}
console.log(`CPU a request (workerd, /proc) | ${results.map((r) => `${r.cpuMs.toFixed(3)} ms`).join(' | ')}`)
