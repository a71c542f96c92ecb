// Shared steps of the local scripts: install what is missing, quiet wrangler, prepare the local D1.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Wrangler's settings of .env (no network, no metrics), for every child process. */
export function quietEnv() {
  const env = { ...process.env }
  for (const line of readFileSync(join(root, '.env'), 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim())
    if (match) env[match[1]] ??= match[2]
  }
  return env
}

/**
 * Runs a command in the project, inheriting the terminal (`quiet`: its output kept and shown only if it fails); exits
 * on failure unless `allowFailure`.
 */
export function run(command, args, { allowFailure = false, env = quietEnv(), quiet = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: quiet ? 'pipe' : 'inherit', env, maxBuffer: 256 * 1024 * 1024 })
  if (quiet && result.status !== 0) process.stderr.write(Buffer.concat([result.stdout ?? Buffer.alloc(0), result.stderr ?? Buffer.alloc(0)]))
  if (result.status !== 0 && !allowFailure) {
    console.error(`\n${command} ${args.join(' ')} failed (${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
  return result.status ?? 1
}

/** `npm ci` when the dependencies are not installed yet (a fresh clone); answers whether they are there. */
export function ensureDependencies({ allowFailure = false } = {}) {
  if (existsSync(join(root, 'node_modules/.bin/wrangler'))) return true
  console.log('Installing npm packages (npm ci)…')
  return run('npm', ['ci', '--no-audit', '--no-fund'], { allowFailure }) === 0
}

/** `--persist-to DIR` when `WRANGLER_PERSIST_TO` names a state folder of its own (the browser tests' site). */
export const persistArgs = () => (process.env.WRANGLER_PERSIST_TO ? ['--persist-to', process.env.WRANGLER_PERSIST_TO] : [])

/**
 * Applies the D1 migrations to the local database, loads the demo data (both idempotent) and empties the local KV
 * cache, so that what was just loaded shows at once instead of yesterday's cached answers.
 */
export async function prepareLocalDatabase() {
  rmSync(join(root, process.env.WRANGLER_PERSIST_TO ?? '.wrangler/state', 'v3/kv'), { recursive: true, force: true })
  // CI=true: wrangler would otherwise ask for a confirmation in a terminal; applying local migrations needs none.
  run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', ...persistArgs()], { env: { ...quietEnv(), CI: 'true' }, quiet: true })
  const { demoSeedStatements } = await import('./demo-seed.mjs')
  const file = join(root, '.wrangler/demo-seed.sql')
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${demoSeedStatements().join('\n')}\n`)
  run('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--file', file, ...persistArgs()], { quiet: true })
}
