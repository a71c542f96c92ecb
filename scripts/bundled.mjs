// A TypeScript command of scripts/ bundled for Node by esbuild into dist/{name}/cli.mjs and run: it shares the
// contract's schemas with the Worker while staying out of the Worker's bundle.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { root } from './local.mjs'

/** Bundles `entry` (a path from the project's root) and runs it. */
export async function runBundled(entry, name) {
  await importBundled(entry, name)
}

/** Bundles `entry` (a path from the project's root) for Node and answers its module: one source of a rule for both. */
export async function importBundled(entry, name) {
  const outfile = join(root, `dist/${name}/cli.mjs`)
  mkdirSync(join(root, `dist/${name}`), { recursive: true })
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    logLevel: 'warning',
    // scripts/local.mjs finds the project from its own place: it stays where it is, imported from there.
    plugins: [
      {
        name: 'local-in-place',
        setup: (bundle) =>
          bundle.onResolve({ filter: /\/local\.mjs$/ }, () => ({
            path: pathToFileURL(join(root, 'scripts/local.mjs')).href,
            external: true,
          })),
      },
    ],
  })
  return import(pathToFileURL(outfile).href)
}
