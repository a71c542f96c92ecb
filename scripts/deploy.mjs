// `npm run deploy -- --env staging|production` (or `npm run deploy:staging`, `deploy:production`): the deploy check
// first, then `wrangler versions upload`, then `wrangler versions deploy`: staging at once (100 %), production gradually
// (the new version beside the current one at --percentage, 10 by default; the next steps and the rollback printed with
// the versions' ids). Options: --secrets-file FILE (a first deployment's secrets, given to wrangler too; otherwise the
// names set are read with `wrangler secret list`), --markets FILE (for the check), --message TEXT, --dry-run (check and
// bundle, nothing uploaded, no account needed). docs/deploy.md, docs/decisions/052.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { quietEnv, root, tool } from './local.mjs'

const { values: options } = parseArgs({
  options: {
    env: { type: 'string' },
    'secrets-file': { type: 'string' },
    markets: { type: 'string' },
    percentage: { type: 'string', default: '10' },
    message: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
})
const name = options.env
if (!name) {
  console.error(
    'usage: npm run deploy -- --env staging|production [--secrets-file FILE] [--percentage 10] [--dry-run]\n' +
      "(wrangler.toml's top level is local development's: it is never deployed)",
  )
  process.exit(2)
}
const percentage = Number(options.percentage)
if (!Number.isInteger(percentage) || percentage < 1 || percentage > 100) {
  console.error('--percentage: a whole number from 1 to 100')
  process.exit(2)
}
const envArgs = ['--env', name]
const secretsFile = options['secrets-file']

/** Runs wrangler (or a script) on the toolchain's Node; its output shown, and returned when `capture`. */
function toolRun(command, args, { capture = false } = {}) {
  const result = spawnSync(...tool(command, args), {
    cwd: root,
    env: quietEnv(),
    encoding: 'utf8',
    stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit',
  })
  if (capture && result.stdout) process.stdout.write(result.stdout)
  return { status: result.status ?? 1, stdout: result.stdout ?? '' }
}

/** The names of the secrets the Worker has, as `wrangler secret list` prints them, in a file for the check. */
function secretNamesFile() {
  const result = spawnSync(...tool('wrangler', ['secret', 'list', ...envArgs, '--format', 'json']), {
    cwd: root,
    env: quietEnv(),
    encoding: 'utf8',
  })
  if (result.status !== 0) {
    console.error(
      `${result.stderr ?? ''}\nThe secrets of [env.${name}] could not be listed (not logged in, or the Worker does not ` +
        'exist yet): for a first deployment give them with --secrets-file FILE (NAME=value lines; docs/deploy.md).',
    )
    process.exit(1)
  }
  const file = join(mkdtempSync(join(tmpdir(), 'deploy-')), 'secret-names.json')
  writeFileSync(file, result.stdout)
  return file
}

const secretNames = secretsFile ?? (options['dry-run'] ? null : secretNamesFile())
const check = toolRun('node', [
  'scripts/deploy-check.mjs',
  ...envArgs,
  ...(secretNames ? ['--secrets', secretNames] : []),
  ...(options.markets ? ['--markets', options.markets] : []),
])
if (check.status !== 0) process.exit(check.status)

const upload = toolRun(
  'wrangler',
  [
    'versions',
    'upload',
    ...envArgs,
    ...(secretsFile ? ['--secrets-file', secretsFile] : []),
    ...(options.message ? ['--message', options.message] : []),
    ...(options['dry-run'] ? ['--dry-run'] : []),
  ],
  { capture: true },
)
if (upload.status !== 0) process.exit(upload.status)
if (options['dry-run']) {
  console.log(`\n--dry-run: [env.${name}] passed the check and was bundled; nothing was uploaded.`)
  process.exit(0)
}
const version = /Worker Version ID:\s*([0-9a-f-]{36})/.exec(upload.stdout)?.[1]
if (!version) {
  console.error('wrangler printed no Worker Version ID: nothing was deployed')
  process.exit(1)
}

const current = name === 'production' ? currentVersion() : null
const split =
  current && percentage < 100 ? [`${version}@${percentage}`, `${current}@${100 - percentage}`] : [`${version}@100`]
const deploy = toolRun('wrangler', ['versions', 'deploy', ...split, ...envArgs, '--yes', ...messageArgs()])
if (deploy.status !== 0) process.exit(deploy.status)

const versions = `npx wrangler versions deploy --env ${name} --yes`
console.log(
  current && percentage < 100
    ? `\n${version} takes ${percentage} % of [env.${name}]'s traffic, ${current} the rest. Watch the errors and 5xx ` +
        `(docs/operations.md), then:\n  more:     ${versions} ${version}@50 ${current}@50\n` +
        `  all:      ${versions} ${version}@100\n  rollback: ${versions} ${current}@100`
    : `\n${version} takes all of [env.${name}]'s traffic.${current ? `\n  rollback: ${versions} ${current}@100` : ''}`,
)

function messageArgs() {
  return options.message ? ['--message', options.message] : []
}

/** The version taking most of the environment's traffic now, or null before its first deployment. */
function currentVersion() {
  const status = spawnSync(...tool('wrangler', ['deployments', 'status', ...envArgs, '--json']), {
    cwd: root,
    env: quietEnv(),
    encoding: 'utf8',
  })
  if (status.status !== 0) return null
  const deployment = JSON.parse(status.stdout)
  const [biggest] = [...(deployment.versions ?? [])].sort((a, b) => b.percentage - a.percentage)
  return biggest && biggest.version_id !== version ? biggest.version_id : null
}
