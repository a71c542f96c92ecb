// `npm run check:backend -- https://api.brand.example` (or `-- --embedded`): reads every area of the contract from a
// backend with the shared schemas and prints what conforms, what is missing and what fails (docs/backend.md). The
// checks are TypeScript (scripts/check-backend/), bundled here for Node by esbuild, out of the Worker's bundle.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { root } from './local.mjs'

const outfile = join(root, 'dist/check-backend/cli.mjs')
mkdirSync(join(root, 'dist/check-backend'), { recursive: true })
await build({
  absWorkingDir: root,
  entryPoints: ['scripts/check-backend/cli.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  logLevel: 'warning',
})
await import(pathToFileURL(outfile).href)
