// Every command of the runbook runs (docs/operations.md, docs/decisions/055): each `npm run X` names a script of
// package.json, each `node scripts/…` exists, each wrangler command and option is one this wrangler knows (its own
// `--help`, offline, kept in tests/fixtures/deploy/wrangler-commands.json), and a command that needs a Cloudflare
// account says so, with its `--dry-run` rehearsal beside it where it has one.
// `node scripts/tool.mjs node --test tests/deploy/runbook.test.mjs`.
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { root } from '../../scripts/local.mjs'
import { runbookCommands } from './runbook-commands.mjs'
import { wranglerCommand } from './wrangler-commands.mjs'

const RUNBOOK = 'docs/operations.md'
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts
const commands = runbookCommands(readFileSync(join(root, RUNBOOK), 'utf8'))

/** The wrangler arguments of `npx wrangler …` or `node scripts/tool.mjs wrangler …`; null for any other command. */
function wranglerArgs(words) {
  if (words[0] === 'npx' && words[1] === 'wrangler') return words.slice(2)
  if (words[0] === 'node' && words[1] === 'scripts/tool.mjs' && words[2] === 'wrangler') return words.slice(3)
  return null
}

/** The script an `npm run X` (or `npm test`, `npm start`) names, and its own arguments (after `--`). */
function npmScript(words) {
  if (words[0] !== 'npm') return null
  const [name, ...rest] = words[1] === 'run' ? words.slice(2) : words.slice(1)
  return { name, args: rest[0] === '--' ? rest.slice(1) : rest }
}

/** The project's script file behind an npm script (`node scripts/x.mjs` or through scripts/tool.mjs). */
const scriptFile = (name) => /scripts\/(?!tool\.mjs)[\w-]+\.mjs/.exec(scripts[name] ?? '')?.[0]

const ENVIRONMENTS = ['staging', 'production']

/** Whether a command reaches a Cloudflare account: wrangler's remote commands, and the project's scripts on a deployment. */
function needsAccount(words) {
  const wrangler = wranglerArgs(words)
  if (wrangler) {
    const sub = wrangler.filter((word) => !word.startsWith('-')).join(' ')
    const rehearsal = wrangler.includes('--dry-run') && /^(deploy|versions upload)\b/.test(sub)
    return !(wrangler.includes('--local') || rehearsal || /^(dev|types)\b/.test(sub))
  }
  const npm = npmScript(words)
  if (!npm || npm.args.includes('--dry-run') || npm.name === 'deploy:check') return false
  if (['deploy:staging', 'deploy:production'].includes(npm.name)) return true
  const env = npm.args[npm.args.indexOf('--env') + 1]
  return npm.args.includes('--env') && ENVIRONMENTS.includes(env)
}

describe(`the runbook (${RUNBOOK})`, () => {
  it('has commands in sh blocks: npm scripts, wrangler and the project scripts', () => {
    assert.ok(commands.filter((command) => wranglerArgs(command.words)).length >= 20)
    assert.ok(commands.some((command) => npmScript(command.words)))
  })

  it('names only npm scripts that package.json has', () => {
    const unknown = commands
      .map((command) => npmScript(command.words)?.name)
      .filter((name) => name !== undefined && !(name in scripts))
    assert.deepEqual(unknown, [])
  })

  it('runs only node scripts that exist', () => {
    const missing = commands
      .filter(({ words }) => words[0] === 'node' && words[1])
      .map(({ words }) => words[1])
      .filter((file) => !existsSync(join(root, file)))
    assert.deepEqual(missing, [])
  })

  it("uses only wrangler's own commands and options", () => {
    const problems = commands.flatMap(({ words }) => {
      const args = wranglerArgs(words)
      return args ? wranglerCommand(args).problems : []
    })
    assert.deepEqual(problems, [])
  })

  it('marks every command that needs an account "# needs an account"', () => {
    const unmarked = commands
      .filter((command) => !command.markedAccount && needsAccount(command.words))
      .map((command) => command.line)
    assert.deepEqual(unmarked, [])
  })

  it('shows the --dry-run rehearsal of every command that needs an account and has one', () => {
    const rehearsed = new Set()
    const rehearsable = []
    for (const command of commands.filter((each) => each.markedAccount)) {
      const wrangler = wranglerArgs(command.words)
      const npm = npmScript(command.words)
      const file = npm && scriptFile(npm.name)
      const name = wrangler ? `wrangler ${wranglerCommand(wrangler).path.join(' ')}` : npm && `npm run ${npm.name}`
      const hasDryRun = wrangler
        ? wranglerCommand(wrangler).facts.options.includes('--dry-run')
        : Boolean(file && readFileSync(join(root, file), 'utf8').includes('--dry-run'))
      if (hasDryRun) rehearsable.push(name)
    }
    for (const { words } of commands) {
      if (!words.includes('--dry-run')) continue
      const wrangler = wranglerArgs(words)
      rehearsed.add(
        wrangler ? `wrangler ${wranglerCommand(wrangler).path.join(' ')}` : `npm run ${npmScript(words)?.name}`,
      )
    }
    assert.deepEqual(
      [...new Set(rehearsable)].filter((name) => !rehearsed.has(name)),
      [],
    )
  })
})

describe('the runbook check itself', () => {
  it('refuses a misspelled wrangler command and a misspelled option', () => {
    assert.deepEqual(wranglerCommand(['d1', 'time-travl', 'info', 'DB']).problems, [
      '"wrangler d1 time-travl" is not a command of wrangler ' +
        JSON.parse(readFileSync(join(root, 'node_modules/wrangler/package.json'), 'utf8')).version,
    ])
    assert.deepEqual(wranglerCommand(['r2', 'object', 'put', 'bucket/key', '--jurisdction', 'eu']).problems, [
      '"wrangler r2 object put" takes no option --jurisdction',
    ])
    assert.deepEqual(wranglerCommand(['d1', 'create', 'brand-site-production', '--jurisdiction', 'eu']).problems, [])
  })

  it('reads indented blocks, pipes, continuations and paragraph marks, and skips heredocs and other blocks', () => {
    const markdown = [
      '1. A step:',
      '',
      '   ```sh',
      '   # needs an account',
      '   openssl rand -base64 32 | npx wrangler secret put PURGE_SECRET \\',
      '     --env production',
      '',
      '   npm run deploy:check -- --env production # offline',
      '   curl -s https://api.example --data-binary @- <<SQL',
      '   npx wrangler is not a command here',
      '   SQL',
      '   ```',
      '',
      '```sql',
      'npx wrangler d1 create nothing',
      '```',
    ].join('\n')
    assert.deepEqual(
      runbookCommands(markdown).map(({ words, markedAccount }) => [words.join(' '), markedAccount]),
      [
        ['openssl rand -base64 32', true],
        ['npx wrangler secret put PURGE_SECRET --env production', true],
        ['npm run deploy:check -- --env production', false],
        ['curl -s https://api.example --data-binary @-', false],
      ],
    )
  })
})
