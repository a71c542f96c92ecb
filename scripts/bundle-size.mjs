// Bundles the Worker as `wrangler deploy` would, without deploying, and reports its size against the Workers limits.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { root, runTool } from './local.mjs'

const FREE_LIMIT = 3 * 1024 * 1024
const outdir = join(root, 'dist/worker')

runTool('wrangler', ['deploy', '--dry-run', '--outdir', outdir, '--minify'])
const files = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f))
const raw = files.reduce((sum, f) => sum + statSync(join(outdir, f)).size, 0)
const gzip = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(outdir, f)), { level: 9 }).length, 0)
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
console.log(
  `worker bundle: ${kib(raw)} minified, ${kib(gzip)} gzip (Workers limit ${kib(FREE_LIMIT)} gzip on the free plan)`,
)
if (gzip > FREE_LIMIT) process.exit(1)
