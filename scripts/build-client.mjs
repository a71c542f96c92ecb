// Builds the browser bundle from client/ into dist/client/assets with hashed names, copies public/ beside it, writes
// the manifest the Worker's render imports, and reports (and bounds) the first-load JavaScript in gzip bytes, the
// stylesheet in gzip bytes and the brand typeface's file each market's pages preload (docs/decisions/056).
//
// Where it writes, relative to the project (defaults: what `npm start` and `wrangler deploy` serve and bundle):
//   --outdir DIR     the client build, emptied first (dist/client)
//   --manifest FILE  the manifest the Worker imports (src/render/asset-manifest.json)
// `npm run bench` builds into dist/bench/ with them, leaving the files of a running `npm start` untouched.
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { brandFaces } from './brand-faces.mjs'
import { cssRules } from './css-rules.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { values: options } = parseArgs({ options: { outdir: { type: 'string' }, manifest: { type: 'string' } } })
const out = resolve(root, options.outdir ?? 'dist/client')
const manifestFile = resolve(root, options.manifest ?? 'src/render/asset-manifest.json')
/** A page with islands: the entry and the hydration runtime (Preact, decision 078), gzip; its islands' own chunks are lazy. */
const FIRST_LOAD_BUDGET = 12 * 1024
/** A page without islands: the entry alone (the header's enhancements), gzip. */
const ENTRY_BUDGET = 4 * 1024
/** The site's stylesheet, gzip. */
const CSS_BUDGET = 40 * 1024
/** The one face a page preloads (woff2 is compressed already): the largest, Arabic's, is 120 KiB (decision 088). */
const PRELOADED_FONT_BUDGET = 128 * 1024
/** The brand typeface's subsets (client/styles/fonts.css), by the script they write: the file a market preloads. */
const FONT_SUBSETS = {
  latin: 'inter-latin-wght-normal',
  greek: 'inter-greek-wght-normal',
  hebrew: 'noto-sans-hebrew-hebrew-wght-normal',
  arabic: 'noto-sans-arabic-arabic-wght-normal',
}

/**
 * The browser's React: Preact's compatibility layer, which hydrates React 19's server HTML with the islands' hooks
 * (docs/decisions/078-preact-hydrates-the-islands.md). Only the client build; the Worker renders with React itself.
 */
const REACT_TO_PREACT = {
  react: 'preact/compat',
  'react/jsx-runtime': 'preact/compat/jsx-runtime',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
}

rmSync(out, { recursive: true, force: true })
mkdirSync(join(out, 'assets'), { recursive: true })
cpSync(join(root, 'public'), out, { recursive: true })

const result = await build({
  absWorkingDir: root,
  entryPoints: { entry: 'client/entry.ts', styles: 'client/styles.css', tracking: 'client/tracking.ts' },
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  metafile: true,
  target: ['es2022'],
  jsx: 'automatic',
  // The islands hydrate with Preact's React-compatible layer (docs/decisions/078): the Worker renders them with React.
  alias: REACT_TO_PREACT,
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  loader: { '.png': 'file', '.woff2': 'file' },
  // The brand's faces instanced to the weights the stylesheet uses and cut to their ranges (scripts/brand-faces.mjs).
  plugins: [brandFaces({ root, fontsCss: 'client/styles/fonts.css' })],
  logLevel: 'warning',
})
// A warning is a defect that ships (an unbalanced brace once put every later rule inside a phone-only media query).
if (result.warnings.length > 0) {
  console.error(`client: ${result.warnings.length} build warning(s); fix them before shipping`)
  process.exit(1)
}

const outputs = result.metafile.outputs
const url = (file) => `/${relative(out, join(root, file)).split('\\').join('/')}`
const entryFile = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'client/entry.ts')
const hydrateFile = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'client/hydrate.tsx')
const cssFile = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'client/styles.css' && f.endsWith('.css'))
const trackingFile = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'client/tracking.ts')
// CSS imported by a lazy chunk (Leaflet's, by the dealer map) is emitted beside it; pages that have the chunk link it.
const chunkCss = (name) =>
  Object.keys(outputs).find(
    (f) => f.endsWith('.css') && relative(join(out, 'assets'), join(root, f)).startsWith(`${name}-`),
  )

/** Files the entry loads before hydrating: itself and its static imports, transitively. */
function firstLoad(file, seen = new Set()) {
  if (seen.has(file)) return seen
  seen.add(file)
  for (const imported of outputs[file].imports) if (imported.kind === 'import-statement') firstLoad(imported.path, seen)
  return seen
}
const initial = [...firstLoad(entryFile)]
/** The hydration runtime (Preact's React layer and the islands' registry): what a page with an island loads besides the entry. */
const runtime = [...firstLoad(hydrateFile)].filter((f) => !initial.includes(f))
const gzipOf = (files) =>
  files.reduce((sum, file) => sum + gzipSync(readFileSync(join(root, file)), { level: 9 }).length, 0)
/** What every page with script loads first: the entry, then on a page with an island the runtime. */
const entryBytes = gzipOf(initial)
const gzipBytes = entryBytes + gzipOf(runtime)
const lazy = Object.keys(outputs).filter(
  (f) => f.endsWith('.js') && !initial.includes(f) && !runtime.includes(f) && f !== trackingFile,
)
const rules = cssRules(readFileSync(join(root, cssFile), 'utf8'), `${url(dirname(cssFile))}/`)
const ruleTokens = [...new Set(rules.flatMap((rule) => rule.n?.flat() ?? []))]
/**
 * Each island (client/islands/{name}.tsx, a chunk of its own): the modules a page with it preloads (the runtime unless
 * it is a plain island, its chunk and the chunks only it imports) and the stylesheet's class and id tokens its code names (what it renders in
 * the browser, which the page's HTML may not carry yet: its first paint's CSS takes their rules too).
 */
const islands = Object.fromEntries(
  Object.keys(outputs)
    .filter((f) => outputs[f].entryPoint?.startsWith('client/islands/') && f.endsWith('.js'))
    .map((file) => {
      const closure = [...firstLoad(file)]
      const own = closure.filter((f) => !initial.includes(f) && !runtime.includes(f))
      // A plain island (client/islands/plain.ts) imports nothing of the runtime: a page with only those loads no React.
      const needsRuntime = closure.some((f) => runtime.includes(f))
      const code = own.map((f) => readFileSync(join(root, f), 'utf8')).join('\n')
      const tokens = ruleTokens.filter((token) =>
        new RegExp(`(^|[^\\w-])${token.slice(1).replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`).test(code),
      )
      const name = outputs[file].entryPoint.replace(/^client\/islands\/|\.tsx?$/g, '')
      return [name, { modules: [...(needsRuntime ? runtime : []), ...own].map(url), tokens }]
    }),
)

/** Every file under a folder, sorted. */
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((item) => (item.isDirectory() ? filesUnder(join(dir, item.name)) : [join(dir, item.name)]))
    .sort()
/**
 * The build's id, part of every page-cache key: the Worker's sources and dependencies with the client's file names, so
 * a deployment that changes anything a page is made of never answers pages kept by another.
 */
function buildId() {
  const hash = createHash('sha256')
  for (const file of [
    ...filesUnder(join(root, 'src')).filter((f) => f !== manifestFile),
    join(root, 'package-lock.json'),
  ]) {
    hash.update(relative(root, file)).update(readFileSync(file))
  }
  for (const file of Object.keys(outputs).sort()) hash.update(file)
  return hash.digest('hex').slice(0, 16)
}

/** The hashed URL of each script's face, for the preload of the pages that paint with it first. */
const fontFile = (name) => {
  const file = Object.keys(outputs).find((f) => f.endsWith('.woff2') && f.split('/').pop().startsWith(`${name}-`))
  if (!file) {
    console.error(`client: the brand typeface's ${name}.woff2 is not in the build (client/styles/fonts.css)`)
    process.exit(1)
  }
  return file
}
const fonts = Object.fromEntries(Object.entries(FONT_SUBSETS).map(([script, name]) => [script, fontFile(name)]))

const manifest = {
  build: buildId(),
  entry: url(entryFile),
  preload: initial.filter((f) => f !== entryFile).map(url),
  runtime: runtime.map(url),
  islands,
  css: url(cssFile),
  // The stylesheet's rules with what each needs of a page: the Worker inlines a page's own (src/render/critical-css.ts).
  cssRules: rules,
  mapCss: url(chunkCss('dealer-map')),
  tracking: url(trackingFile),
  fonts: Object.fromEntries(Object.entries(fonts).map(([script, file]) => [script, url(file)])),
}
mkdirSync(dirname(manifestFile), { recursive: true })
writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`)
writeFileSync(
  join(out, 'assets/first-load.json'),
  `${JSON.stringify({ files: initial.map(url), entryBytes, runtime: runtime.map(url), gzipBytes, lazy: lazy.map(url) }, null, 2)}\n`,
)

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
const trackingBytes = gzipSync(readFileSync(join(root, trackingFile)), { level: 9 }).length
console.log(
  `client: first-load JavaScript ${kib(gzipBytes)} gzip in ${initial.length + runtime.length} file(s) on a page with islands, ${kib(entryBytes)} on one without; ${lazy.length} lazy chunk(s); budgets ${kib(FIRST_LOAD_BUDGET)} and ${kib(ENTRY_BUDGET)}; the tracker loader ${kib(trackingBytes)} (only once a visitor allowed a tracker)`,
)
const cssBytes = gzipSync(readFileSync(join(root, cssFile)), { level: 9 }).length
const fontBytes = Object.entries(fonts).map(([script, file]) => [script, readFileSync(join(root, file)).length])
const largestFont = Math.max(...fontBytes.map(([, bytes]) => bytes))
console.log(
  `client: stylesheet ${kib(cssBytes)} gzip (budget ${kib(CSS_BUDGET)}); the preloaded face ${fontBytes.map(([script, bytes]) => `${script} ${kib(bytes)}`).join(', ')} (budget ${kib(PRELOADED_FONT_BUDGET)})`,
)
if (cssBytes > CSS_BUDGET) {
  console.error(`client: the stylesheet is over budget by ${kib(cssBytes - CSS_BUDGET)}`)
  process.exit(1)
}
if (largestFont > PRELOADED_FONT_BUDGET) {
  console.error(`client: a preloaded face is over budget by ${kib(largestFont - PRELOADED_FONT_BUDGET)}`)
  process.exit(1)
}
if (entryBytes > ENTRY_BUDGET) {
  console.error(`client: the entry is over budget by ${kib(entryBytes - ENTRY_BUDGET)}`)
  process.exit(1)
}
if (gzipBytes > FIRST_LOAD_BUDGET) {
  console.error(`client: first-load JavaScript is over budget by ${kib(gzipBytes - FIRST_LOAD_BUDGET)}`)
  process.exit(1)
}
